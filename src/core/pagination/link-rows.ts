import { DataSource } from 'typeorm';
import type { Principal } from '../auth/principal';
import { notFound } from '../http/api-error';
import { invalidPk } from '../http/v1-rules';
import { decodeId, IdType } from '../ids/ids';
import type { V1PageRequest } from './v1-page';

/**
 * A link table between an object (the parent) and other objects of the organization: rows
 * (<parent>, <column>, organization_id) unique on the pair, answered with columns of the linked
 * object's table.
 */
export interface LinkTable {
  table: string;
  parent: string;
  column: string;
  /** the linked objects' table, public id kind and the columns a link answers */
  target: string;
  kind: IdType;
  columns: string[];
  /** the body member naming the linked object (`{<member>: {id}}`) */
  member: string;
  /** links that carry `is_visible`: adding an existing one changes it */
  visibility?: boolean;
  /**
   * The link's last change, when its list takes `updated_since` (docs/decisions/data-out.md):
   * `created_at` (a link is made and removed, never changed) or `updated_at` (a visibility link);
   * the list then answers the links changed at or after it, ordered by it and the linked id, on an
   * index `(<parent>, <changed>, <column>)`. Without it the list does not read `updated_since`.
   */
  changed?: 'created_at' | 'updated_at';
}

/** The parent's uuid from the path parameters before the link's own id (404 when it is not the caller's). */
export type ParentOf = (p: Principal, params: string[]) => Promise<string>;

type ListArgs = [...parent: string[], page: V1PageRequest];
type AddArgs = [...parent: string[], body: Record<string, unknown>];

/**
 * The links of one kind of a parent object, for a /v1 sub-resource `<parent>/<links>`: list,
 * add (idempotent: an existing link is answered, a visibility link gets the new `is_visible`),
 * read and remove, every statement on the caller's organization. The operations take the path
 * parameters in URL order (the parent's, then the linked object's id) as @V1Resource passes them.
 */
export class LinkRows<R extends { id: string }> {
  constructor(
    private readonly ds: DataSource,
    private readonly parentOf: ParentOf,
    private readonly k: LinkTable,
  ) {}

  /** `FROM` the links of parent $1 in organization $2, joined to the linked objects. */
  private get from() {
    const k = this.k;
    return `FROM ${k.table} x JOIN ${k.target} t ON t.id = x.${k.column} AND t.organization_id = x.organization_id WHERE x.${k.parent} = $1 AND x.organization_id = $2`;
  }

  private get select() {
    return [...this.k.columns.map((c) => `t.${c}`), ...(this.k.visibility ? ['x.is_visible'] : [])].join(', ');
  }

  async list(p: Principal, ...args: ListArgs): Promise<{ rows: R[]; count: number }> {
    const page = args.pop() as V1PageRequest;
    const parentId = await this.parentOf(p, args as string[]);
    const since = this.k.changed ? page.updatedSince : undefined;
    const at = since ? this.k.changed : 'created_at';
    const [from, params] = since ? [`${this.from} AND x.${at} >= $3`, [parentId, p.organizationId, since]] : [this.from, [parentId, p.organizationId]];
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n ${from}`, params);
    const rows: R[] = await this.ds.query(`SELECT ${this.select} ${from} ORDER BY x.${at}, x.${this.k.column} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    return { rows, count: n as number };
  }

  /** `{<member>: {id}}` (and `is_visible`): an object of the organization, else 400 on `<member>.id`. */
  async add(p: Principal, ...args: AddArgs): Promise<R> {
    const k = this.k;
    const body = args.pop() as Record<string, unknown>;
    const parentId = await this.parentOf(p, args as string[]);
    const linkedId = (body[k.member] as { id: string }).id;
    const uuid = decodeId(k.kind, linkedId);
    const rows: R[] = uuid ? await this.ds.query(`SELECT ${k.columns.join(', ')} FROM ${k.target} WHERE organization_id = $1 AND id = $2`, [p.organizationId, uuid]) : [];
    if (!rows.length) throw invalidPk(`${k.member}.id`, linkedId);
    if (!k.visibility) {
      await this.ds.query(`INSERT INTO ${k.table} (${k.parent}, ${k.column}, organization_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [parentId, rows[0].id, p.organizationId]);
      return rows[0];
    }
    await this.ds.query(
      `INSERT INTO ${k.table} (${k.parent}, ${k.column}, organization_id, is_visible) VALUES ($1, $2, $3, $4)
       ON CONFLICT (${k.parent}, ${k.column}) DO UPDATE SET is_visible = EXCLUDED.is_visible, updated_at = now()`,
      [parentId, rows[0].id, p.organizationId, body.is_visible],
    );
    return { ...rows[0], is_visible: body.is_visible };
  }

  async read(p: Principal, ...args: string[]): Promise<R> {
    return (await this.find(p, args)).row;
  }

  async remove(p: Principal, ...args: string[]): Promise<void> {
    const { parentId, row } = await this.find(p, args);
    await this.ds.query(`DELETE FROM ${this.k.table} WHERE ${this.k.parent} = $1 AND ${this.k.column} = $2 AND organization_id = $3`, [parentId, row.id, p.organizationId]);
  }

  private async find(p: Principal, args: string[]): Promise<{ parentId: string; row: R }> {
    const linkedId = args.pop()!;
    const parentId = await this.parentOf(p, args);
    const uuid = decodeId(this.k.kind, linkedId);
    const rows: R[] = uuid ? await this.ds.query(`SELECT ${this.select} ${this.from} AND x.${this.k.column} = $3`, [parentId, p.organizationId, uuid]) : [];
    if (!rows.length) throw notFound();
    return { parentId, row: rows[0] };
  }
}

import { DataSource } from 'typeorm';
import type { Principal } from '../auth/principal';
import { scoped } from '../database/scoped';
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

  /** `FROM` the links of parent $1 in the organization (`$org`: a scoped() statement), joined to the linked objects. */
  private get from() {
    const k = this.k;
    return `FROM ${k.table} x JOIN ${k.target} t ON t.id = x.${k.column} AND t.organization_id = x.organization_id WHERE x.${k.parent} = $1 AND x.organization_id = $org`;
  }

  private get select() {
    return [...this.k.columns.map((c) => `t.${c}`), ...(this.k.visibility ? ['x.is_visible'] : [])].join(', ');
  }

  /**
   * A page of the parent's links, oldest first. With the page's `updated_since` (@V1Resource), the
   * links changed at or after it, by last change: a link's last change is its `created_at` (made or
   * removed, never changed), a visibility link's its `updated_at` (adding it again changes
   * `is_visible`); the table needs an index `(<parent>, <that column>, <column>)`.
   */
  async list(p: Principal, ...args: ListArgs): Promise<{ rows: R[]; count: number }> {
    const page = args.pop() as V1PageRequest;
    const parentId = await this.parentOf(p, args as string[]);
    const db = scoped(this.ds, p.organizationId);
    const at = `x.${this.k.visibility ? 'updated_at' : 'created_at'}`;
    const since = page.updatedSince;
    const params = since === undefined ? [parentId] : [parentId, since];
    const and = since === undefined ? '' : ` AND ${at} >= $2`;
    const order = since === undefined ? `x.created_at, x.${this.k.column}` : `${at}, x.${this.k.column}`;
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n ${this.from}${and}`, params);
    const rows = await db.query<R[]>(`SELECT ${this.select} ${this.from}${and} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    return { rows, count: n };
  }

  /** `{<member>: {id}}` (and `is_visible`): an object of the organization, else 400 on `<member>.id`. */
  async add(p: Principal, ...args: AddArgs): Promise<R> {
    const k = this.k;
    const body = args.pop() as Record<string, unknown>;
    const parentId = await this.parentOf(p, args as string[]);
    const linkedId = (body[k.member] as { id: string }).id;
    const uuid = decodeId(k.kind, linkedId);
    const db = scoped(this.ds, p.organizationId);
    const rows = uuid ? await db.query<R[]>(`SELECT ${k.columns.join(', ')} FROM ${k.target} WHERE organization_id = $org AND id = $1`, [uuid]) : [];
    if (!rows.length) throw invalidPk(`${k.member}.id`, linkedId);
    if (!k.visibility) {
      await db.query(`INSERT INTO ${k.table} (${k.parent}, ${k.column}, organization_id) VALUES ($1, $2, $org) ON CONFLICT DO NOTHING`, [parentId, rows[0].id]);
      return rows[0];
    }
    await db.query(
      `INSERT INTO ${k.table} (${k.parent}, ${k.column}, organization_id, is_visible) VALUES ($1, $2, $org, $3)
       ON CONFLICT (${k.parent}, ${k.column}) DO UPDATE SET is_visible = EXCLUDED.is_visible, updated_at = now()`,
      [parentId, rows[0].id, body.is_visible],
    );
    return { ...rows[0], is_visible: body.is_visible };
  }

  async read(p: Principal, ...args: string[]): Promise<R> {
    return (await this.find(p, args)).row;
  }

  async remove(p: Principal, ...args: string[]): Promise<void> {
    const { parentId, row } = await this.find(p, args);
    await scoped(this.ds, p.organizationId).query(`DELETE FROM ${this.k.table} WHERE ${this.k.parent} = $1 AND ${this.k.column} = $2 AND organization_id = $org`, [parentId, row.id]);
  }

  private async find(p: Principal, args: string[]): Promise<{ parentId: string; row: R }> {
    const linkedId = args.pop()!;
    const parentId = await this.parentOf(p, args);
    const uuid = decodeId(this.k.kind, linkedId);
    const rows = uuid ? await scoped(this.ds, p.organizationId).query<R[]>(`SELECT ${this.select} ${this.from} AND x.${this.k.column} = $2`, [parentId, uuid]) : [];
    if (!rows.length) throw notFound();
    return { parentId, row: rows[0] };
  }
}

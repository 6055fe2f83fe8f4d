import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId, IdType } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { invalidPk } from '../enrollments/program-enrollments';
import { PathLookups } from './path-lookups.service';
import type { TagRow } from './published-paths.service';

export interface LabelRow {
  id: string;
  name: string;
}

export interface OverrideRow extends LabelRow {
  is_visible: boolean;
}

/**
 * One kind of link between a published path and another object of the organization: a table
 * (published_path_id, <column>, organization_id) unique on the pair, joined to the linked
 * object's table for the columns a link answers.
 */
interface PathLink {
  table: string;
  column: string;
  /** the linked objects' table, public id kind and the columns read from it */
  target: string;
  kind: IdType;
  columns: string[];
  /** the body member naming the linked object (`{<member>: {id}}`) */
  member: string;
  /** links with `is_visible`: adding an existing one changes it */
  visibility?: boolean;
}

const LABELS: PathLink = { table: 'path_labels', column: 'label_id', target: 'labels', kind: 'label', columns: ['id', 'name'], member: 'label' };
const TAGS: PathLink = { table: 'path_tags', column: 'tag_id', target: 'tags', kind: 'tag', columns: ['id', 'name', 'slug'], member: 'tag' };
const OVERRIDES: PathLink = {
  table: 'path_visibility_overrides',
  column: 'group_id',
  target: 'groups',
  kind: 'group',
  columns: ['id', 'name'],
  member: 'student_group',
  visibility: true,
};

/** The links of one kind of the published paths of a domain: list, add, read, remove. */
export class PathLinkRows<R extends LabelRow> {
  constructor(
    private readonly ds: DataSource,
    private readonly lookups: PathLookups,
    private readonly k: PathLink,
  ) {}

  /** `FROM` the links of published path $1 of organization $2, joined to the linked objects, and the columns answered. */
  private get from() {
    const k = this.k;
    return `FROM ${k.table} x JOIN ${k.target} t ON t.id = x.${k.column} AND t.organization_id = x.organization_id WHERE x.published_path_id = $1 AND x.organization_id = $2`;
  }

  private get select() {
    return [...this.k.columns.map((c) => `t.${c}`), ...(this.k.visibility ? ['x.is_visible'] : [])].join(', ');
  }

  private async publishedPathId(p: Principal, domainName: string, id: string): Promise<string> {
    const domain = await this.lookups.domain(p, domainName);
    return (await this.lookups.publishedPath(this.ds.manager, p, domain, id)).id;
  }

  async list(p: Principal, domainName: string, id: string, page: V1PageRequest): Promise<{ rows: R[]; count: number }> {
    const ppId = await this.publishedPathId(p, domainName, id);
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n ${this.from}`, [ppId, p.organizationId]);
    const rows: R[] = await this.ds.query(`SELECT ${this.select} ${this.from} ORDER BY x.created_at, x.${this.k.column} LIMIT ${page.pageSize} OFFSET ${page.offset}`, [
      ppId,
      p.organizationId,
    ]);
    return { rows, count: n as number };
  }

  /** `{<member>: {id}}` (and `is_visible`): an object of the organization, else 400. Adding an existing link answers it (an override gets the new `is_visible`). */
  async add(p: Principal, domainName: string, id: string, dto: Record<string, unknown>): Promise<R> {
    const k = this.k;
    const ppId = await this.publishedPathId(p, domainName, id);
    const linkedId = (dto[k.member] as { id: string }).id;
    const uuid = decodeId(k.kind, linkedId);
    const rows: LabelRow[] = uuid ? await this.ds.query(`SELECT ${k.columns.join(', ')} FROM ${k.target} WHERE organization_id = $1 AND id = $2`, [p.organizationId, uuid]) : [];
    if (!rows.length) throw invalidPk(`${k.member}.id`, linkedId);
    if (k.visibility) {
      await this.ds.query(
        `INSERT INTO ${k.table} (published_path_id, ${k.column}, organization_id, is_visible) VALUES ($1, $2, $3, $4)
         ON CONFLICT (published_path_id, ${k.column}) DO UPDATE SET is_visible = EXCLUDED.is_visible, updated_at = now()`,
        [ppId, rows[0].id, p.organizationId, dto.is_visible],
      );
      return { ...rows[0], is_visible: dto.is_visible } as unknown as R;
    }
    await this.ds.query(`INSERT INTO ${k.table} (published_path_id, ${k.column}, organization_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [ppId, rows[0].id, p.organizationId]);
    return rows[0] as R;
  }

  async read(p: Principal, domainName: string, id: string, linkedId: string): Promise<R & { ppId: string }> {
    const ppId = await this.publishedPathId(p, domainName, id);
    const uuid = decodeId(this.k.kind, linkedId);
    const rows: R[] = uuid ? await this.ds.query(`SELECT ${this.select} ${this.from} AND x.${this.k.column} = $3`, [ppId, p.organizationId, uuid]) : [];
    if (!rows.length) throw notFound();
    return { ...rows[0], ppId };
  }

  async remove(p: Principal, domainName: string, id: string, linkedId: string): Promise<void> {
    const link = await this.read(p, domainName, id, linkedId);
    await this.ds.query(`DELETE FROM ${this.k.table} WHERE published_path_id = $1 AND ${this.k.column} = $2 AND organization_id = $3`, [link.ppId, link.id, p.organizationId]);
  }
}

/** The labels, tags and group visibility overrides (the last two OpenAPI-only) of a published path. */
@Injectable()
export class PublishedPathLinksService {
  readonly labels: PathLinkRows<LabelRow>;
  readonly tags: PathLinkRows<TagRow>;
  readonly overrides: PathLinkRows<OverrideRow>;

  constructor(ds: DataSource, lookups: PathLookups) {
    this.labels = new PathLinkRows(ds, lookups, LABELS);
    this.tags = new PathLinkRows(ds, lookups, TAGS);
    this.overrides = new PathLinkRows(ds, lookups, OVERRIDES);
  }
}

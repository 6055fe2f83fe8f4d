import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { TagRow } from './published-paths.service';
import { invalidPk } from '../enrollments/program-enrollments';
import { PathLookups } from './path-lookups.service';
import { PathLabel } from './published-path.entity';

export interface OverrideRow {
  id: string;
  name: string;
  is_visible: boolean;
}

/** The labels, tags and group visibility overrides of a published path. */
@Injectable()
export class PublishedPathLinksService {
  constructor(
    private readonly ds: DataSource,
    private readonly lookups: PathLookups,
  ) {}

  // ------------------------------------------------------------------ labels

  async listLabels(p: Principal, domainName: string, id: string, page: V1PageRequest) {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    const from = `FROM path_labels pl JOIN labels l ON l.id = pl.label_id AND l.organization_id = pl.organization_id WHERE pl.published_path_id = $1 AND pl.organization_id = $2`;
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n ${from}`, [pp.id, p.organizationId]);
    const rows: { id: string; name: string }[] = await this.ds.query(
      `SELECT l.id, l.name ${from} ORDER BY pl.created_at, pl.label_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [pp.id, p.organizationId],
    );
    return { rows, count: n as number };
  }

  async addLabel(p: Principal, domainName: string, id: string, labelId: string): Promise<{ id: string; name: string }> {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('label', labelId);
    const rows: { id: string; name: string }[] = uuid ? await this.ds.query(`SELECT id, name FROM labels WHERE organization_id = $1 AND id = $2`, [p.organizationId, uuid]) : [];
    if (!rows.length) throw invalidPk('label.id', labelId);
    await this.ds
      .createQueryBuilder()
      .insert()
      .into(PathLabel)
      .values({ publishedPathId: pp.id, labelId: rows[0].id, organizationId: p.organizationId })
      .orIgnore()
      .execute();
    return rows[0];
  }

  async readLabel(p: Principal, domainName: string, id: string, labelId: string): Promise<{ id: string; name: string; ppId: string }> {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('label', labelId);
    const rows = uuid
      ? await this.ds.query(
          `SELECT l.id, l.name FROM path_labels pl JOIN labels l ON l.id = pl.label_id AND l.organization_id = pl.organization_id
            WHERE pl.published_path_id = $1 AND pl.organization_id = $2 AND pl.label_id = $3`,
          [pp.id, p.organizationId, uuid],
        )
      : [];
    if (!rows.length) throw notFound();
    return { ...rows[0], ppId: pp.id };
  }

  async removeLabel(p: Principal, domainName: string, id: string, labelId: string): Promise<void> {
    const label = await this.readLabel(p, domainName, id, labelId);
    await this.ds.getRepository(PathLabel).delete({ publishedPathId: label.ppId, labelId: label.id, organizationId: p.organizationId });
  }

  // ------------------------------------------------------------------ tags (OpenAPI-only)

  private tagsFrom = `FROM path_tags pt JOIN tags tg ON tg.id = pt.tag_id AND tg.organization_id = pt.organization_id WHERE pt.published_path_id = $1 AND pt.organization_id = $2`;

  async listTags(p: Principal, domainName: string, id: string, page: V1PageRequest) {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n ${this.tagsFrom}`, [pp.id, p.organizationId]);
    const rows: TagRow[] = await this.ds.query(
      `SELECT tg.id, tg.name, tg.slug ${this.tagsFrom} ORDER BY pt.created_at, pt.tag_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [pp.id, p.organizationId],
    );
    return { rows, count: n as number };
  }

  async addTag(p: Principal, domainName: string, id: string, tagId: string): Promise<TagRow> {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('tag', tagId);
    const rows: TagRow[] = uuid ? await this.ds.query(`SELECT id, name, slug FROM tags WHERE organization_id = $1 AND id = $2`, [p.organizationId, uuid]) : [];
    if (!rows.length) throw invalidPk('tag.id', tagId);
    await this.ds.query(`INSERT INTO path_tags (published_path_id, tag_id, organization_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [pp.id, rows[0].id, p.organizationId]);
    return rows[0];
  }

  async readTag(p: Principal, domainName: string, id: string, tagId: string): Promise<TagRow & { ppId: string }> {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('tag', tagId);
    const rows: TagRow[] = uuid ? await this.ds.query(`SELECT tg.id, tg.name, tg.slug ${this.tagsFrom} AND pt.tag_id = $3`, [pp.id, p.organizationId, uuid]) : [];
    if (!rows.length) throw notFound();
    return { ...rows[0], ppId: pp.id };
  }

  async removeTag(p: Principal, domainName: string, id: string, tagId: string): Promise<void> {
    const tag = await this.readTag(p, domainName, id, tagId);
    await this.ds.query(`DELETE FROM path_tags WHERE published_path_id = $1 AND tag_id = $2 AND organization_id = $3`, [tag.ppId, tag.id, p.organizationId]);
  }

  // ------------------------------------------------------------------ group visibility overrides (OpenAPI-only)

  private overridesFrom = `FROM path_visibility_overrides pv JOIN groups g ON g.id = pv.group_id AND g.organization_id = pv.organization_id
                           WHERE pv.published_path_id = $1 AND pv.organization_id = $2`;

  async listOverrides(p: Principal, domainName: string, id: string, page: V1PageRequest) {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n ${this.overridesFrom}`, [pp.id, p.organizationId]);
    const rows: OverrideRow[] = await this.ds.query(
      `SELECT g.id, g.name, pv.is_visible ${this.overridesFrom} ORDER BY pv.created_at, pv.group_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [pp.id, p.organizationId],
    );
    return { rows, count: n as number };
  }

  /** Creates the override, or changes `is_visible` of the existing one for that group. */
  async setOverride(p: Principal, domainName: string, id: string, groupId: string, isVisible: boolean): Promise<OverrideRow> {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('group', groupId);
    const rows: { id: string; name: string }[] = uuid ? await this.ds.query(`SELECT id, name FROM groups WHERE organization_id = $1 AND id = $2`, [p.organizationId, uuid]) : [];
    if (!rows.length) throw invalidPk('student_group.id', groupId);
    await this.ds.query(
      `INSERT INTO path_visibility_overrides (published_path_id, group_id, organization_id, is_visible) VALUES ($1, $2, $3, $4)
       ON CONFLICT (published_path_id, group_id) DO UPDATE SET is_visible = EXCLUDED.is_visible, updated_at = now()`,
      [pp.id, rows[0].id, p.organizationId, isVisible],
    );
    return { ...rows[0], is_visible: isVisible };
  }

  async readOverride(p: Principal, domainName: string, id: string, groupId: string): Promise<OverrideRow & { ppId: string }> {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('group', groupId);
    const rows: OverrideRow[] = uuid ? await this.ds.query(`SELECT g.id, g.name, pv.is_visible ${this.overridesFrom} AND pv.group_id = $3`, [pp.id, p.organizationId, uuid]) : [];
    if (!rows.length) throw notFound();
    return { ...rows[0], ppId: pp.id };
  }

  async removeOverride(p: Principal, domainName: string, id: string, groupId: string): Promise<void> {
    const o = await this.readOverride(p, domainName, id, groupId);
    await this.ds.query(`DELETE FROM path_visibility_overrides WHERE published_path_id = $1 AND group_id = $2 AND organization_id = $3`, [o.ppId, o.id, p.organizationId]);
  }
}

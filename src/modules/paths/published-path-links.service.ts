import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LinkRows, LinkTable, ParentOf } from '../../core/pagination/link-rows';
import { PathLookups } from './path-lookups.service';
import type { TagRow } from './published-paths.service';

export interface LabelRow {
  id: string;
  name: string;
}

export interface OverrideRow extends LabelRow {
  is_visible: boolean;
}

const link = (table: string, column: string, target: string, kind: LinkTable['kind'], member: string, extra: Partial<LinkTable> = {}): LinkTable => ({
  table,
  parent: 'published_path_id',
  column,
  target,
  kind,
  columns: ['id', 'name'],
  member,
  ...extra,
});

/** The labels, tags and group visibility overrides (the last two OpenAPI-only) of the published paths of a domain. */
@Injectable()
export class PublishedPathLinksService {
  readonly labels: LinkRows<LabelRow>;
  readonly tags: LinkRows<TagRow>;
  readonly overrides: LinkRows<OverrideRow>;

  constructor(ds: DataSource, lookups: PathLookups) {
    const publishedPath: ParentOf = async (p, [domainName, id]) => (await lookups.publishedPath(ds.manager, p, await lookups.domain(p, domainName), id)).id;
    // updated_since: a label or tag link's creation is its last change (path_*_list_idx); an override's is_visible changes (path_visibility_overrides_pp_updated_idx)
    this.labels = new LinkRows(ds, publishedPath, link('path_labels', 'label_id', 'labels', 'label', 'label'));
    this.tags = new LinkRows(ds, publishedPath, link('path_tags', 'tag_id', 'tags', 'tag', 'tag', { columns: ['id', 'name', 'slug'] }));
    this.overrides = new LinkRows(ds, publishedPath, link('path_visibility_overrides', 'group_id', 'groups', 'group', 'student_group', { visibility: true }));
  }
}

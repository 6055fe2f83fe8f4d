import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, MoreThanOrEqual } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { Principal } from '../../core/auth/principal';
import { SentNames, sentMembers } from '../../core/http/sent-members';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { PathFieldsDto } from './dto/published-path.dto';
import { PathLookups } from './path-lookups.service';
import { LearningPath } from './path.entity';

/** A path with the number of its items. */
export interface PathView {
  path: LearningPath;
  itemCount: number;
}

/** /v1/paths: the organization's paths (created by publishing one), read, changed and deleted organization-wide. */
/** The members of a path update, and their columns. */
const PATH_COLUMNS: SentNames<PathFieldsDto, LearningPath> = {
  title: 'title',
  short_description: 'shortDescription',
  long_description_html: 'longDescriptionHtml',
  header_html: 'headerHtml',
  course_name_singular: 'courseNameSingular',
  course_name_plural: 'courseNamePlural',
};

@Injectable()
export class PathsService {
  constructor(
    private readonly ds: DataSource,
    private readonly lookups: PathLookups,
  ) {}

  async listPaths(p: Principal, page: V1PageRequest): Promise<{ rows: PathView[]; count: number }> {
    const m = this.ds.manager;
    // updated_since: the paths changed since, by last change, on paths_org_updated_idx (docs/decisions/data-out.md)
    const since = page.updatedSince;
    const [rows, count] = await m.getRepository(LearningPath).findAndCount({
      where: { organizationId: p.organizationId, deletedAt: IsNull(), ...(since ? { updatedAt: MoreThanOrEqual(since) } : {}) },
      order: since ? { updatedAt: 'ASC', id: 'ASC' } : { createdAt: 'ASC', id: 'ASC' },
      take: page.pageSize,
      skip: page.offset,
    });
    const counts = await this.lookups.itemCounts(
      m,
      p.organizationId,
      rows.map((r) => r.id),
    );
    return { rows: rows.map((path) => ({ path, itemCount: counts.get(path.id) ?? 0 })), count };
  }

  async readPath(p: Principal, id: string): Promise<PathView> {
    const m = this.ds.manager;
    const path = await this.lookups.pathByPublicId(m, p, id);
    return { path, itemCount: (await this.lookups.itemCounts(m, p.organizationId, [path.id])).get(path.id) ?? 0 };
  }

  async updatePath(p: Principal, id: string, dto: PathFieldsDto): Promise<PathView> {
    const m = this.ds.manager;
    const path = await this.lookups.pathByPublicId(m, p, id);
    const patch = sentMembers<PathFieldsDto, LearningPath>(dto, PATH_COLUMNS);
    if (Object.keys(patch).length) {
      await m.getRepository(LearningPath).update({ id: path.id, organizationId: p.organizationId }, patch);
      Object.assign(path, patch);
    }
    return { path, itemCount: (await this.lookups.itemCounts(m, p.organizationId, [path.id])).get(path.id) ?? 0 };
  }

  /** Soft-deletes the path and unpublishes it from every domain. */
  async deletePath(p: Principal, id: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const path = await this.lookups.pathByPublicId(m, p, id);
      const now = new Date();
      await m.getRepository(LearningPath).update({ id: path.id, organizationId: p.organizationId }, { deletedAt: now });
      await scoped(m, p.organizationId).query(`UPDATE published_paths SET unpublished_at = $2 WHERE path_id = $1 AND organization_id = $org AND unpublished_at IS NULL`, [path.id, now]);
    });
  }
}

import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { updateSent } from '../commerce/update-sent';
import { DomainsService } from '../domains/domains.service';
import { insertProgram, lockLive, Program, replaceItems, resolveItems, slugFrom, softDelete } from '../plans/program-writes';
import { CourseSeriesService, CourseSeriesView } from './course-series.service';
import type { CourseSeriesCreateDto, CourseSeriesPatchDto } from './dto/course-series-write.dto';

const SERIES: Program = {
  table: 'course_series',
  kind: 'courseSeries',
  offerOwner: 'course_series_id',
  what: 'course series',
  items: { table: 'course_series_items', owner: 'course_series_id' },
};

/**
 * Course series written by an administrator (CONVENTIONS §15; POST/PUT/PATCH/DELETE
 * /v1/domains/{domain_name}/course-series[/{course_series_id}]). A new series gets its offer
 * (commerce's insertDefaultOffer) in the same transaction and a slug made from its title (unique
 * among the domain's live series; kept when the title changes, so series_url stays put). Its
 * courses are course_series_items in the order sent. Delete is soft (deleted_at).
 */
@Injectable()
export class CourseSeriesAdminService {
  constructor(
    private readonly ds: DataSource,
    private readonly domains: DomainsService,
    private readonly series: CourseSeriesService,
  ) {}

  private async writeItems(m: EntityManager, p: Principal, domainId: string, seriesId: string, refs: { id: string }[] | undefined) {
    if (refs === undefined) return;
    const ids = await resolveItems(m, p.organizationId, domainId, 'publishedCourse', refs, 'published_courses');
    await replaceItems(m, SERIES, p.organizationId, seriesId, 'published_course_id', ids);
  }

  async create(p: Principal, domainName: string, dto: CourseSeriesCreateDto): Promise<CourseSeriesView> {
    const domain = await this.domains.requireByName(p, domainName);
    const id = await this.ds.transaction(async (m) => {
      const slug = { slug: slugFrom(dto.title!, 'series'), chosen: false };
      const seriesId = await insertProgram(m, SERIES, p.organizationId, domain.id, slug, { title: dto.title, visible_on_catalog: dto.visible_on_catalog ?? true }, dto.title!);
      await this.writeItems(m, p, domain.id, seriesId, dto.published_courses);
      return seriesId;
    });
    return this.series.readByUuid(p, domain, id);
  }

  /** PUT (title required) and PATCH: the members sent change. */
  async update(p: Principal, domainName: string, publicId: string, dto: CourseSeriesPatchDto): Promise<CourseSeriesView> {
    const domain = await this.domains.requireByName(p, domainName);
    const id = await this.ds.transaction(async (m) => {
      const s = await lockLive(m, SERIES, p.organizationId, domain.id, publicId);
      await updateSent(m, 'course_series', s.id, p.organizationId, { title: dto.title, visible_on_catalog: dto.visible_on_catalog });
      await this.writeItems(m, p, domain.id, s.id, dto.published_courses);
      return s.id;
    });
    return this.series.readByUuid(p, domain, id);
  }

  async remove(p: Principal, domainName: string, publicId: string): Promise<void> {
    const domain = await this.domains.requireByName(p, domainName);
    await this.ds.transaction(async (m) => softDelete(m, SERIES, p.organizationId, (await lockLive(m, SERIES, p.organizationId, domain.id, publicId)).id));
  }
}

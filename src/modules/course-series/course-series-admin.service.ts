import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { updateSent } from '../commerce/update-sent';
import { DomainsService } from '../domains/domains.service';
import { ProgramAdminService } from '../plans/program-admin-service';
import { insertProgram, Program, replaceItems, resolveItems, slugFrom } from '../plans/program-writes';
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
export class CourseSeriesAdminService extends ProgramAdminService<CourseSeriesView> {
  constructor(ds: DataSource, domains: DomainsService, series: CourseSeriesService) {
    super(SERIES, ds, domains, series);
  }

  private async writeItems(m: EntityManager, p: Principal, domainId: string, seriesId: string, refs: { id: string }[] | undefined) {
    if (refs === undefined) return;
    const ids = await resolveItems(m, p.organizationId, domainId, 'publishedCourse', refs, 'published_courses');
    await replaceItems(m, SERIES, p.organizationId, seriesId, 'published_course_id', ids);
  }

  async create(p: Principal, domainName: string, dto: CourseSeriesCreateDto): Promise<CourseSeriesView> {
    return this.written(p, domainName, async (m, domain) => {
      const slug = { slug: slugFrom(dto.title!, 'series'), chosen: false };
      const seriesId = await insertProgram(m, SERIES, p.organizationId, domain.id, slug, { title: dto.title, visible_on_catalog: dto.visible_on_catalog ?? true }, dto.title!);
      await this.writeItems(m, p, domain.id, seriesId, dto.published_courses);
      return seriesId;
    });
  }

  /** PUT (title required) and PATCH: the members sent change. */
  async update(p: Principal, domainName: string, publicId: string, dto: CourseSeriesPatchDto): Promise<CourseSeriesView> {
    return this.written(p, domainName, async (m, domain) => {
      const s = await this.locked(m, p, domain, publicId);
      await updateSent(m, 'course_series', s.id, p.organizationId, { title: dto.title, visible_on_catalog: dto.visible_on_catalog });
      await this.writeItems(m, p, domain.id, s.id, dto.published_courses);
      return s.id;
    });
  }
}

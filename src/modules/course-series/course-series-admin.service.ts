import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import { insertDefaultOffer } from '../commerce/offers';
import { DomainsService } from '../domains/domains.service';
import { insertWithSlug, resolveItems, slugFrom } from '../plans/program-writes';
import { CourseSeriesService, CourseSeriesView } from './course-series.service';
import type { CourseSeriesCreateDto, CourseSeriesPatchDto } from './dto/course-series-write.dto';

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

  private async live(m: EntityManager, p: Principal, domainId: string, publicId: string): Promise<{ id: string }> {
    const uuid = decodeId('courseSeries', publicId);
    const [row] = uuid
      ? await m.query(`SELECT id FROM course_series WHERE id = $1 AND domain_id = $2 AND organization_id = $3 AND deleted_at IS NULL FOR UPDATE`, [uuid, domainId, p.organizationId])
      : [];
    if (!row) throw notFound();
    return row;
  }

  private async writeItems(m: EntityManager, p: Principal, domainId: string, seriesId: string, refs: { id: string }[] | undefined) {
    if (refs === undefined) return;
    const ids = await resolveItems(m, p.organizationId, domainId, 'publishedCourse', refs, 'published_courses');
    await m.query(`DELETE FROM course_series_items WHERE course_series_id = $1 AND organization_id = $2`, [seriesId, p.organizationId]);
    if (ids.length) {
      await m.query(
        `INSERT INTO course_series_items (organization_id, course_series_id, published_course_id, "order")
         SELECT $1, $2, x.id, x.ord - 1 FROM unnest($3::uuid[]) WITH ORDINALITY AS x(id, ord)`,
        [p.organizationId, seriesId, ids],
      );
    }
  }

  async create(p: Principal, domainName: string, dto: CourseSeriesCreateDto): Promise<CourseSeriesView> {
    const domain = await this.domains.requireByName(p, domainName);
    const id = await this.ds.transaction(async (m) => {
      const row = await insertWithSlug(slugFrom(dto.title!, 'series'), false, 'course series', async (slug) => {
        const [r] = await m.query(
          `INSERT INTO course_series (organization_id, domain_id, title, slug, visible_on_catalog) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (organization_id, domain_id, slug) WHERE deleted_at IS NULL DO NOTHING RETURNING id`,
          [p.organizationId, domain.id, dto.title, slug, dto.visible_on_catalog ?? true],
        );
        return r as { id: string } | undefined;
      });
      await insertDefaultOffer(m, p.organizationId, 'course_series_id', row.id, dto.title!);
      await this.writeItems(m, p, domain.id, row.id, dto.published_courses);
      return row.id;
    });
    return this.series.readByUuid(p, domain, id);
  }

  /** PUT (title required) and PATCH: the members sent change. */
  async update(p: Principal, domainName: string, publicId: string, dto: CourseSeriesPatchDto): Promise<CourseSeriesView> {
    const domain = await this.domains.requireByName(p, domainName);
    const id = await this.ds.transaction(async (m) => {
      const s = await this.live(m, p, domain.id, publicId);
      if (dto.title !== undefined || dto.visible_on_catalog !== undefined) {
        await m.query(
          `UPDATE course_series SET title = COALESCE($3, title), visible_on_catalog = COALESCE($4, visible_on_catalog), updated_at = date_trunc('milliseconds', now())
            WHERE id = $1 AND organization_id = $2`,
          [s.id, p.organizationId, dto.title ?? null, dto.visible_on_catalog ?? null],
        );
      }
      await this.writeItems(m, p, domain.id, s.id, dto.published_courses);
      return s.id;
    });
    return this.series.readByUuid(p, domain, id);
  }

  async remove(p: Principal, domainName: string, publicId: string): Promise<void> {
    const domain = await this.domains.requireByName(p, domainName);
    await this.ds.transaction(async (m) => {
      const s = await this.live(m, p, domain.id, publicId);
      await m.query(`UPDATE course_series SET deleted_at = now(), updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $2`, [s.id, p.organizationId]);
    });
  }
}

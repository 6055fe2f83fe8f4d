import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped } from '../../core/database/scoped';
import { ValidationFailed, notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { Label } from '../labels-tags/entities';
import { LabelsService } from '../labels-tags/labels.service';
import { CourseLabel } from './course-label.entity';

/**
 * The labels of a course (table course_labels, owned here; the labels themselves belong to
 * labels-tags/). `courseId` is the UUID of a live course of the caller's organization, already
 * checked by the caller (the /v1 controller asks V1CoursesService.get first).
 */
@Injectable()
export class CourseLabelsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly labels: LabelsService,
  ) {}

  /** Replace the course's labels by the named ones (missing labels are created). */
  async set(m: EntityManager, p: Principal, courseId: string, names: string[]) {
    const ids = await this.labels.resolveNames(m, p.organizationId, names);
    const db = scoped(m, p.organizationId);
    await db.query(`DELETE FROM course_labels WHERE course_id = $1 AND organization_id = $org AND NOT (label_id = ANY($2::uuid[]))`, [courseId, ids]);
    if (ids.length) {
      await db.query(
        `INSERT INTO course_labels (course_id, label_id, organization_id)
         SELECT $1, l, $org FROM unnest($2::uuid[]) WITH ORDINALITY AS t(l, i) ORDER BY i
         ON CONFLICT DO NOTHING`,
        [courseId, ids],
      );
    }
  }

  // ---- course labels (/v1/courses/{course_id}/labels) ----

  /**
   * A page of the course's labels, oldest link first. With `updatedSince` (/v1 `updated_since`), the
   * labels attached at or after it: a link is made or removed, never changed, so its `created_at` is
   * its last change (the order stays the same), on course_labels_course_created_idx.
   */
  async list(p: Principal, courseId: string, page: V1PageRequest, updatedSince?: Date): Promise<[Label[], number]> {
    const db = scoped(this.ds, p.organizationId);
    const since = updatedSince ? ' AND cl.created_at >= $4' : '';
    const sinceCount = updatedSince ? ' AND created_at >= $2' : '';
    const [rows, count] = await Promise.all([
      db.query<Label[]>(
        `SELECT l.id, l.name FROM course_labels cl JOIN labels l ON l.id = cl.label_id
         WHERE cl.course_id = $1 AND cl.organization_id = $org${since}
         ORDER BY cl.created_at, cl.label_id LIMIT $2 OFFSET $3`,
        updatedSince ? [courseId, page.pageSize, page.offset, updatedSince] : [courseId, page.pageSize, page.offset],
      ),
      db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM course_labels WHERE course_id = $1 AND organization_id = $org${sinceCount}`, updatedSince ? [courseId, updatedSince] : [courseId]),
    ]);
    return [rows, count[0].n];
  }

  async add(p: Principal, courseId: string, labelRef: unknown): Promise<Label> {
    const raw = (labelRef as { id?: unknown } | null)?.id;
    if (raw === undefined || raw === null || raw === '') {
      throw new ValidationFailed([{ field: 'label.id', message: 'This field is required.' }], 400);
    }
    const uuid = decodeId('label', raw);
    const label = uuid ? await this.ds.getRepository(Label).findOne({ where: { id: uuid, organizationId: p.organizationId } }) : null;
    if (!label) throw new ValidationFailed([{ field: 'label.id', message: `Invalid pk "${String(raw).slice(0, 64)}" - object does not exist.` }], 400);
    // Attaching an attached label again is idempotent.
    await this.ds.getRepository(CourseLabel).createQueryBuilder().insert().values({ courseId, labelId: label.id, organizationId: p.organizationId }).orIgnore().execute();
    return label;
  }

  async get(p: Principal, courseId: string, labelId: string): Promise<Label> {
    const uuid = decodeId('label', labelId);
    const rows: Label[] = uuid
      ? await scoped(this.ds, p.organizationId).query(
          `SELECT l.id, l.name FROM course_labels cl JOIN labels l ON l.id = cl.label_id
           WHERE cl.course_id = $1 AND cl.label_id = $2 AND cl.organization_id = $org`,
          [courseId, uuid],
        )
      : [];
    if (!rows.length) throw notFound();
    return rows[0];
  }

  async remove(p: Principal, courseId: string, labelId: string): Promise<void> {
    const label = await this.get(p, courseId, labelId);
    await this.ds.getRepository(CourseLabel).delete({ courseId, labelId: label.id, organizationId: p.organizationId });
  }
}

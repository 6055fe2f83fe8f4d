import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { encodeId } from '../../core/ids/ids';
import type { Domain } from '../domains/domain.entity';
import { PublishedCoursesService } from '../published-courses/published-courses.service';
import type { ReenrollmentRuleUpdateRequest } from './dto/reenrollment-rule.dto';
import { REENROLLMENT_RULE_COLUMNS as COLUMNS, ReenrollmentRuleRow } from './reenrollment-rules.store';

export type { ReenrollmentRuleRow } from './reenrollment-rules.store';
const STARTS_AT_RULE = 'Must be in the future and at the top of the hour.';

/**
 * A published course's re-enrollment rule (/v1/domains/{domain_name}/published-courses/{id}/reenrollment_rule,
 * CONVENTIONS §17): one per published course; `starts_at` must be in the future and on the hour (UTC);
 * `next_run_at` is read-only: starts_at when set, then moved on by the worker (reenrollment.runner.ts)
 * one cycle at a time. PUT and PATCH are both partial, as published.
 */
@Injectable()
export class ReenrollmentRulesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly publishedCourses: PublishedCoursesService,
  ) {}

  async get(p: Principal, domain: Domain, publishedCourseId: string): Promise<ReenrollmentRuleRow> {
    const pc = await this.publishedCourses.get(p, domain, publishedCourseId);
    const [row] = await scoped(this.ds, p.organizationId).query<ReenrollmentRuleRow[]>(`SELECT ${COLUMNS} FROM reenrollment_rules WHERE organization_id = $org AND published_course_id = $1`, [pc.id]);
    if (!row) throw notFound('This published course has no reenrollment rule.');
    return row;
  }

  /** POST: 400 when the published course already has a rule (PUT / PATCH change it). */
  async create(p: Principal, domain: Domain, publishedCourseId: string, dto: ReenrollmentRuleUpdateRequest): Promise<ReenrollmentRuleRow> {
    const pc = await this.publishedCourses.get(p, domain, publishedCourseId);
    const startsAt = this.startsAt(dto.starts_at!);
    const rows = rowsOf<ReenrollmentRuleRow>(
      await scoped(this.ds, p.organizationId).query<unknown>(
        `INSERT INTO reenrollment_rules (organization_id, published_course_id, starts_at, cycle_duration, cycle_duration_unit, next_run_at)
         VALUES ($org, $1, $2, $3, $4, $2) ON CONFLICT (published_course_id) DO NOTHING RETURNING ${COLUMNS}`,
        [pc.id, startsAt, dto.cycle_duration, dto.cycle_duration_unit ?? 'MONTHS'],
      ),
    );
    if (!rows.length) throw new ValidationFailed([{ field: 'non_field_errors', message: 'This published course already has a reenrollment rule.' }], 400);
    return rows[0];
  }

  /** PUT and PATCH: the members sent change; a new starts_at is also the next run. */
  async update(p: Principal, domain: Domain, publishedCourseId: string, dto: ReenrollmentRuleUpdateRequest): Promise<ReenrollmentRuleRow> {
    const current = await this.get(p, domain, publishedCourseId);
    const sets: string[] = [];
    const params: unknown[] = [current.id];
    const set = (col: string, v: unknown) => {
      params.push(v);
      sets.push(`${col} = $${params.length}`);
    };
    if (dto.starts_at !== undefined) {
      const at = this.startsAt(dto.starts_at);
      set('starts_at', at);
      set('next_run_at', at);
    }
    if (dto.cycle_duration !== undefined) set('cycle_duration', dto.cycle_duration);
    if (dto.cycle_duration_unit !== undefined) set('cycle_duration_unit', dto.cycle_duration_unit);
    if (!sets.length) return current;
    const [row] = rowsOf<ReenrollmentRuleRow>(
      await scoped(this.ds, p.organizationId).query<unknown>(
        `UPDATE reenrollment_rules SET ${sets.join(', ')}, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org RETURNING ${COLUMNS}`,
        params,
      ),
    );
    if (!row) throw notFound('This published course has no reenrollment rule.');
    return row;
  }

  async remove(p: Principal, domain: Domain, publishedCourseId: string): Promise<void> {
    const current = await this.get(p, domain, publishedCourseId);
    await scoped(this.ds, p.organizationId).query(`DELETE FROM reenrollment_rules WHERE id = $1 AND organization_id = $org`, [current.id]);
  }

  private startsAt(raw: string): Date {
    const at = new Date(raw);
    const onTheHour = at.getUTCMinutes() === 0 && at.getUTCSeconds() === 0 && at.getUTCMilliseconds() === 0;
    if (Number.isNaN(at.getTime()) || at.getTime() <= Date.now() || !onTheHour) {
      throw new ValidationFailed([{ field: 'starts_at', message: STARTS_AT_RULE }], 400);
    }
    return at;
  }
}

/** PublishedCourseReenrollmentRule / UpdatePublishedCourseReenrollmentRule of the published /v1 document. */
export function presentReenrollmentRule(r: ReenrollmentRuleRow) {
  return {
    id: encodeId('reenrollmentRule', r.id),
    starts_at: new Date(r.starts_at).toISOString(),
    next_run_at: new Date(r.next_run_at).toISOString(),
    cycle_duration: r.cycle_duration,
    cycle_duration_unit: r.cycle_duration_unit,
  };
}

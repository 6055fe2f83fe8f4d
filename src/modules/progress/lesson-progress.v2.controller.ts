import { Controller, Get, Query, Req } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { NoMatch } from '../../core/http/api-error';
import { requestBaseUrl } from '../../core/http/base-url';
import { Extension } from '../../core/http/extension';
import { V2 } from '../../core/http/interfaces';
import { decodeId, encodeId } from '../../core/ids/ids';
import { pageDocument, parsePage } from '../../core/pagination/cursor-page';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, nullable, NullableStringEnum, openApi, PublicId, StringEnum, V2PageSchema, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';
import { dateTimeParam, filterParam } from '../../core/http/query-params';
import { scoped } from '../../core/database/scoped';

/**
 * A per-learner, per-lesson activity resource (CONVENTIONS §18), declared once
 * (core/openapi/declared-shape.ts): the type of present's result and GET /v2/lesson-progress/ of /openapi.json.
 */
export const LessonProgressV2Schema = V2UnlinkedResourceSchema(
  'lesson-progress',
  Type.Object({
    student_id: PublicId({ description: 'Opaque id of the student.' }),
    lesson_id: PublicId({ description: 'Opaque id of the lesson.' }),
    course_id: PublicId({ description: 'Opaque id of the course.' }),
    published_course_id: PublicId({ description: 'Opaque id of the published course.' }),
    status: StringEnum(['NOT_STARTED', 'IN_PROGRESS', 'COMPLETED'], { description: 'Completion status.' }),
    success_status: NullableStringEnum(['PASSED', 'FAILED'], { description: 'As the content reported it; null: unknown.' }),
    score: nullable(Type.Integer({ description: 'The score; null without one.' })),
    max_score: nullable(Type.Integer({ description: 'The maximum score; null without one.' })),
    attempts: Type.Integer({ minimum: 0, description: 'Number of content attempts.' }),
    views: Type.Integer({ minimum: 0, description: 'Number of views of the lesson.' }),
    time_spent_seconds: Type.Integer({ minimum: 0, description: "Total time of the lesson's content runs, in seconds." }),
    first_activity_at: nullable(DateTime({ description: 'First activity; null when not started.' })),
    last_activity_at: nullable(DateTime({ description: 'Last activity; null without any.' })),
    completed_at: nullable(DateTime({ description: 'When the lesson was completed; null if not.' })),
    updated_at: DateTime({ description: 'When the progress last changed (the order of the list).' }),
  }),
  { description: "A learner's progress and activity in one lesson." },
);
export type LessonProgressV2 = Static<typeof LessonProgressV2Schema>;

interface Row {
  id: string;
  created_at: Date;
  updated_at: Date;
  user_id: string;
  lesson_id: string;
  course_id: string;
  published_course_id: string;
  completed_at: Date | null;
  finished_at: Date | null;
  success_status: 'PASSED' | 'FAILED' | null;
  score: number | null;
  max_score: number | null;
  view_count: number;
  last_viewed_on: Date | null;
  attempts: number;
  time_cs: string;
  first_attempt: Date | null;
  last_attempt: Date | null;
}

const isoSeconds = (d: Date) => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');
const iso = (d: Date | null) => (d ? isoSeconds(d) : null);
const latest = (...ds: (Date | null)[]) => ds.filter((d): d is Date => !!d).reduce<Date | null>((m, d) => (!m || new Date(d) > new Date(m) ? d : m), null);
const earliest = (...ds: (Date | null)[]) => ds.filter((d): d is Date => !!d).reduce<Date | null>((m, d) => (!m || new Date(d) < new Date(m) ? d : m), null);

/** A per-learner, per-lesson activity resource (CONVENTIONS §18). */
function present(r: Row): LessonProgressV2 {
  const status = r.completed_at ? 'COMPLETED' : r.view_count > 0 || r.attempts > 0 || r.finished_at ? 'IN_PROGRESS' : 'NOT_STARTED';
  // lesson progress rows are made when first needed (a view, a launch, a report): with activity, their creation is the first of it
  const first = status === 'NOT_STARTED' ? null : earliest(r.first_attempt, r.view_count > 0 ? r.created_at : null, r.finished_at, r.completed_at);
  return {
    type: 'lesson-progress',
    id: encodeId('lessonProgress', r.id),
    attributes: {
      student_id: encodeId('student', r.user_id),
      lesson_id: encodeId('lesson', r.lesson_id),
      course_id: encodeId('course', r.course_id),
      published_course_id: encodeId('publishedCourse', r.published_course_id),
      status,
      success_status: r.success_status,
      score: r.score,
      max_score: r.max_score,
      attempts: r.attempts,
      views: r.view_count,
      time_spent_seconds: Math.round(Number(r.time_cs) / 100),
      first_activity_at: iso(first),
      last_activity_at: iso(latest(r.last_viewed_on, r.last_attempt, r.finished_at, r.completed_at)),
      completed_at: iso(r.completed_at),
      updated_at: isoSeconds(r.updated_at),
    },
  };
}

/**
 * GET /v2/lesson-progress/ (extension, CONVENTIONS §18): per learner and lesson, status, success,
 * score, attempts, time spent (the content runs' total time), first and last activity. Ordered by
 * (updated_at, id) for incremental sync with `filter[updated_since]`; cursor paginated; served by
 * lesson_progress (organization_id, updated_at, id) and the attempts' (organization_id,
 * lesson_progress_id, number) key, one statement a page.
 */
@ApiTags('lesson-progress')
@ApiBearerAuth('JWTAuth')
@V2()
@Extension('Per-lesson progress and activity of learners.')
@Controller('v2/lesson-progress')
export class LessonProgressV2Controller {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('enrollments:read')
  @ApiOperation({
    summary: 'List per-lesson progress and activity',
    description: 'Per learner and lesson: status, success, score, attempts, time spent, first and last activity; ordered by updated_at for incremental sync.',
  })
  @ApiQuery({ name: 'filter[student.id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[course.id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[lesson.id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[updated_since]', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'page[size]', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } })
  @ApiQuery({ name: 'page[cursor]', required: false, schema: { type: 'string' } })
  @ApiOkResponse({ description: 'A page of lesson progress', schema: openApi(V2PageSchema(LessonProgressV2Schema)) })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parsePage(query, this.config.APP_SECRET, 'lesson-progress');
    const since = dateTimeParam(query, 'filter[updated_since]', false);
    const ids: Record<string, string | null | undefined> = {};
    try {
      for (const [param, type] of [
        ['filter[student.id]', 'student'],
        ['filter[course.id]', 'course'],
        ['filter[lesson.id]', 'lesson'],
      ] as const) {
        const v = filterParam(query, param, 1000);
        ids[type] = v === undefined ? undefined : decodeId(type, v);
      }
    } catch (e) {
      if (!(e instanceof NoMatch)) throw e;
      ids.student = null;
    }
    const none = Object.values(ids).some((v) => v === null);
    const rows: Row[] = none
      ? []
      : await scoped(this.ds, p.organizationId).query(
          `SELECT lp.id, lp.created_at, lp.updated_at, lp.user_id, lp.lesson_id, cp.course_id, cp.published_course_id, lp.completed_at, lp.finished_at,
                  lp.success_status, lp.score, lp.max_score, lp.view_count, lp.last_viewed_on,
                  COALESCE(a.attempts, 0)::int AS attempts, COALESCE(a.time_cs, 0)::text AS time_cs, a.first_attempt, a.last_attempt
             FROM lesson_progress lp
             JOIN course_progress cp ON cp.id = lp.course_progress_id AND cp.organization_id = lp.organization_id
             JOIN lessons l ON l.id = lp.lesson_id AND l.organization_id = lp.organization_id AND l.deleted_at IS NULL
             LEFT JOIN LATERAL (
               SELECT count(*) AS attempts, sum(ca.total_time_cs) AS time_cs, min(ca.created_at) AS first_attempt, max(ca.updated_at) AS last_attempt
                 FROM content_attempts ca WHERE ca.organization_id = lp.organization_id AND ca.lesson_progress_id = lp.id
             ) a ON true
            WHERE lp.organization_id = $org
              AND ($1::uuid IS NULL OR lp.user_id = $1) AND ($2::uuid IS NULL OR cp.course_id = $2) AND ($3::uuid IS NULL OR lp.lesson_id = $3)
              AND ($4::timestamptz IS NULL OR lp.updated_at >= $4)
              AND ($5::timestamptz IS NULL OR (lp.updated_at, lp.id) > ($5, $6::uuid))
            ORDER BY lp.updated_at, lp.id LIMIT $7`,
          [ids.student ?? null, ids.course ?? null, ids.lesson ?? null, since ?? null, page.after?.t ?? null, page.after?.id ?? null, page.size + 1],
        );
    // the keyset of this list is (updated_at, id): the page's cursor is made from updated_at
    const keyed = rows.map((r) => ({ ...r, createdAt: r.updated_at }));
    return pageDocument(keyed, page, present, requestBaseUrl(this.config, req), req.url, this.config.APP_SECRET);
  }
}

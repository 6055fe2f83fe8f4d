import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { rowsOf } from '../../core/database/sql';
import { eventCourse, eventDomain, eventLesson, eventUser, eventViltSession } from '../../core/events/bodies';
import { recordEvent } from '../../core/events/outbox';
import { ApiError, notFound } from '../../core/http/api-error';
import { fieldError, invalidPk } from '../../core/http/v1-rules';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { ProgressService } from '../progress/progress.service';
import type { RegistrationCreateDto, RegistrationPatchDto } from './dto/training.dto';
import { TrainingMails } from './training-mails';
import { scoped } from '../../core/database/scoped';
import { liveLesson } from '../../core/database/fragments';
import type { ViltSessionRow } from './vilt-sessions.store';

/** The enrollment a registration is made for, with its learner, course and domain. */
interface RegistrationEnrollment {
  id: string;
  user_id: string;
  course_id: string;
  published_course_id: string;
  active: boolean;
  email: string;
  first_name: string;
  last_name: string;
  is_anonymized: boolean;
  course_title: string;
  slug: string;
  domain_id: string;
  domain_name: string;
  /** the course progress covering this enrollment (the one a registration's read shows), made with the enrollment */
  course_progress_id: string | null;
}

/** What the seat statement answers: the session (when a seat was free), the registration (when new), its mails and meetings. */
interface SeatTaken {
  display_name: string;
  seats_total: number | null;
  registration_count: number;
  registration_id: string | null;
  mail_ids: string[];
  events: { id: string; display_name: string; starts_at: string; ends_at: string; timezone: string; location: string | null; event_link: string | null; provider: string; instructor_name: string }[];
}

export interface RegistrationRow {
  id: string;
  session_id: string;
  attended: boolean;
  user_id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  lesson_id: string;
  lesson_title: string;
  course_id: string;
  course_title: string;
  /**
   * made by the registration in the course progress covering its enrollment (create); null only for
   * a registration made before that rule for a session whose lesson was then gone (docs/decisions/training.md)
   */
  lesson_progress_id: string | null;
}

/**
 * A registration with its learner, lesson and course, and the learner's lesson progress of the
 * session's lesson (in the course progress covering the registration's enrollment).
 */
const SELECT = `
  SELECT r.id, r.session_id, r.attended, r.user_id, u.email, u.first_name, u.last_name,
         l.id AS lesson_id, l.title AS lesson_title, c.id AS course_id, c.title AS course_title,
         (SELECT lp.id FROM course_progress cp
            JOIN lesson_progress lp ON lp.course_progress_id = cp.id AND lp.organization_id = r.organization_id AND lp.lesson_id = s.lesson_id
           WHERE cp.organization_id = r.organization_id AND cp.user_id = r.user_id AND cp.published_course_id = en.published_course_id
             AND (cp.enrollment_id = r.enrollment_id OR cp.enrollment_id IS NULL)
           ORDER BY (cp.enrollment_id IS NULL) LIMIT 1) AS lesson_progress_id
    FROM vilt_session_registrations r
    JOIN vilt_sessions s ON s.id = r.session_id AND s.organization_id = r.organization_id
    JOIN enrollments en ON en.id = r.enrollment_id AND en.organization_id = r.organization_id
    JOIN users u ON u.id = r.user_id AND u.organization_id = r.organization_id
    JOIN lessons l ON l.id = s.lesson_id AND l.organization_id = r.organization_id
    JOIN courses c ON c.id = l.course_id AND c.organization_id = r.organization_id`;

const NOW = `date_trunc('milliseconds', now())`;

/**
 * VILT session registrations (CONVENTIONS §13; docs/decisions/training.md): made from an active
 * enrollment of the user in a published course of the session's course; seats held by one
 * conditional UPDATE of the session row (its row lock orders concurrent registrations, its CHECK
 * is the backstop), so seats_total is never exceeded; VILT_EVENT_REGISTRATION and the invitation
 * mail in the same transaction. Attendance completes the session's lesson for the learner through
 * the progress module.
 */
@Injectable()
export class RegistrationsService {
  constructor(
    private readonly ds: DataSource,
    private readonly mails: TrainingMails,
    private readonly progress: ProgressService,
  ) {}

  private async row(m: EntityManager, org: string, id: string): Promise<RegistrationRow | null> {
    const uuid = decodeId('viltRegistration', id);
    if (!uuid) return null;
    const [row] = await scoped(m, org).query<RegistrationRow[]>(`${SELECT} WHERE r.id = $1 AND r.organization_id = $org`, [uuid]);
    return row ?? null;
  }

  async list(p: Principal, page: V1PageRequest, f: { sessionId?: string; updatedSince?: Date }): Promise<{ rows: RegistrationRow[]; count: number }> {
    const db = scoped(this.ds, p.organizationId);
    const params: unknown[] = [];
    let cond = 'r.organization_id = $org';
    if (f.sessionId !== undefined) {
      params.push(decodeId('viltSession', f.sessionId) ?? '00000000-0000-0000-0000-000000000000');
      cond += ` AND r.session_id = $1`;
    }
    // updated_since orders by last change (docs/decisions/data-out.md), on vilt_session_registrations_org_updated_idx
    if (f.updatedSince) cond += ` AND r.updated_at >= $${params.push(f.updatedSince)}`;
    const order = f.updatedSince ? 'r.updated_at, r.id' : 'r.created_at, r.id';
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM vilt_session_registrations r WHERE ${cond}`, params);
    const rows = await db.query<RegistrationRow[]>(`${SELECT} WHERE ${cond} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, page.pageSize, page.offset]);
    return { rows, count: n };
  }

  async read(p: Principal, id: string): Promise<RegistrationRow> {
    const row = await this.row(this.ds.manager, p.organizationId, id);
    if (!row) throw notFound();
    return row;
  }

  async create(p: Principal, dto: RegistrationCreateDto): Promise<RegistrationRow> {
    const org = p.organizationId;
    const sessionId = decodeId('viltSession', dto.vilt_session.id);
    const enrollmentId = decodeId('enrollment', dto.enrollment_id);
    // The reads and every refusal they decide come before the transaction (they take no lock, so
    // READ COMMITTED inside one would see nothing more): the two reads run side by side, and a
    // refused registration, most of them when a session fills, costs them alone.
    const [[s], [en]] = await Promise.all([
      sessionId
        ? scoped(this.ds, org).query<(Pick<ViltSessionRow, 'id' | 'lesson_id' | 'seats_total' | 'registration_count'> & { course_id: string; lesson_title: string; lesson_live: boolean })[]>(
            `SELECT s.id, s.lesson_id, s.seats_total, s.registration_count, l.course_id, l.title AS lesson_title, ${liveLesson('l')} AS lesson_live FROM vilt_sessions s
               JOIN lessons l ON l.id = s.lesson_id AND l.organization_id = s.organization_id
              WHERE s.id = $1 AND s.organization_id = $org`,
            [sessionId],
          )
        : [],
      enrollmentId
        ? scoped(this.ds, org).query<RegistrationEnrollment[]>(
            `SELECT e.id, e.user_id, e.course_id, e.published_course_id, e.active, u.email, u.first_name, u.last_name, u.is_anonymized,
                    c.title AS course_title, pc.slug, d.id AS domain_id, d.name AS domain_name,
                    (SELECT cp.id FROM course_progress cp
                      WHERE cp.organization_id = $org AND cp.user_id = e.user_id AND cp.published_course_id = e.published_course_id
                        AND (cp.enrollment_id = e.id OR cp.enrollment_id IS NULL)
                      ORDER BY (cp.enrollment_id IS NULL) LIMIT 1) AS course_progress_id
               FROM enrollments e
               JOIN users u ON u.id = e.user_id AND u.organization_id = e.organization_id
               JOIN courses c ON c.id = e.course_id AND c.organization_id = e.organization_id
               JOIN published_courses pc ON pc.id = e.published_course_id AND pc.organization_id = e.organization_id
               JOIN domains d ON d.id = pc.domain_id AND d.organization_id = e.organization_id
              WHERE e.id = $1 AND e.organization_id = $org`,
            [enrollmentId],
          )
        : [],
    ]);
    if (!s) throw invalidPk('vilt_session', dto.vilt_session.id);
    if (!en) throw invalidPk('enrollment_id', dto.enrollment_id);
    if (en.course_id !== s.course_id) throw fieldError('enrollment_id', "The enrollment is not in the session's course.");
    // the lesson was deleted (or drafted) since the session was made: nothing to register for, and no progress to show
    if (!s.lesson_live) throw fieldError('vilt_session', "This session's lesson is no longer available.");
    if (!en.active) throw fieldError('enrollment_id', 'The enrollment is not active.');
    if (en.is_anonymized) throw fieldError('enrollment_id', 'The user of this enrollment was anonymized.');
    const noSeat = () => fieldError('vilt_session', 'This session has no seats left.');
    // a full session is refused at once, without a transaction or its row lock (the seat UPDATE decides races)
    if (s.seats_total !== null && s.registration_count >= s.seats_total) throw noSeat();
    const { id, mailIds } = await this.ds.transaction(async (m) => {
      // the learner's progress row of the session's lesson, in the course progress of the registration's
      // enrollment: the one the registration's read shows as student_lesson_progress (SELECT above)
      if (!en.course_progress_id) throw new Error(`enrollment ${en.id} has no course progress (made with every enrollment)`);
      await this.progress.materializeLessons(m, org, { id: en.course_progress_id, user_id: en.user_id, course_id: en.course_id }, s.lesson_id);
      // One statement: the seat (the session row's lock orders concurrent registrations and is held
      // from here to the commit), the registration row, the invitations' mail records (one per
      // meeting, each taking its meeting's next SEQUENCE) and the meetings for the event, read under that lock so a reschedule cannot slip between them. Nothing before
      // it touches the session row: the registration's and the mail's foreign keys take a KEY SHARE
      // lock on it, and several registrations holding that while a session write (FOR UPDATE) queues
      // for the row and they for each other's seat would deadlock. One round trip keeps the lock short.
      const [seat] = await scoped(m, org).query<SeatTaken[]>(
        `WITH seat AS (
           UPDATE vilt_sessions SET registration_count = registration_count + 1, updated_at = ${NOW}
            WHERE id = $1 AND organization_id = $org AND (seats_total IS NULL OR registration_count < seats_total)
           RETURNING id, organization_id, display_name, seats_total, registration_count),
         reg AS (
           INSERT INTO vilt_session_registrations (organization_id, session_id, user_id, enrollment_id)
           SELECT organization_id, id, $2, $3 FROM seat
           ON CONFLICT (organization_id, session_id, user_id) DO NOTHING
           RETURNING id, organization_id, session_id, user_id),
         ev AS (
           UPDATE vilt_session_events e SET sequence = e.sequence + 1 FROM reg
            WHERE e.organization_id = reg.organization_id AND e.session_id = reg.session_id
           RETURNING e.id, e.sequence),
         mail AS (
           INSERT INTO vilt_session_mails (organization_id, session_id, event_id, user_id, method, sequence, reason)
           SELECT reg.organization_id, reg.session_id, ev.id, reg.user_id, 'REQUEST', ev.sequence, 'registered' FROM reg CROSS JOIN ev RETURNING id)
         SELECT seat.display_name, seat.seats_total, seat.registration_count, reg.id AS registration_id,
                (SELECT coalesce(array_agg(id::text), '{}') FROM mail) AS mail_ids,
                (SELECT coalesce(json_agg(e ORDER BY e.starts_at, e.id), '[]'::json)
                   FROM (SELECT id, display_name, starts_at, ends_at, timezone, location, event_link, provider, instructor_name
                           FROM vilt_session_events WHERE organization_id = $org AND session_id = $1) e) AS events
           FROM seat LEFT JOIN reg ON true`,
        [s.id, en.user_id, en.id],
      );
      if (!seat) {
        // deleted since the opening read (DELETE /v1/ilt-sessions/{id}), or full
        const [still] = await scoped(m, org).query<unknown[]>(`SELECT 1 FROM vilt_sessions WHERE id = $1 AND organization_id = $org`, [s.id]);
        throw still ? noSeat() : invalidPk('vilt_session', dto.vilt_session.id);
      }
      // the seat was taken in this transaction: the refusal rolls it back
      if (!seat.registration_id) throw fieldError('vilt_session', 'This user is already registered for this session.');
      const events = seat.events as {
        id: string;
        display_name: string;
        starts_at: string;
        ends_at: string;
        timezone: string;
        location: string | null;
        event_link: string | null;
        provider: string;
        instructor_name: string;
      }[];
      await recordEvent(m, {
        organizationId: org,
        type: 'VILT_EVENT_REGISTRATION',
        objects: {
          user: eventUser({ id: en.user_id, email: en.email, first_name: en.first_name, last_name: en.last_name }),
          course: eventCourse({ course_id: en.course_id, published_course_id: en.published_course_id, title: en.course_title, domain_name: en.domain_name, slug: en.slug }),
          domain: eventDomain({ id: en.domain_id, name: en.domain_name }),
          lesson: eventLesson({ id: s.lesson_id, title: s.lesson_title }),
          vilt_session: eventViltSession({
            id: s.id,
            display_name: seat.display_name,
            seats_total: seat.seats_total,
            registration_count: seat.registration_count,
            instructor_name: events[0]?.instructor_name ?? '',
            events,
          }),
        },
      });
      return { id: seat.registration_id as string, mailIds: seat.mail_ids as string[] };
    });
    await this.mails.enqueue(org, mailIds);
    return (await this.row(this.ds.manager, org, encodeId('viltRegistration', id)))!;
  }

  /**
   * PUT and PATCH: only `attended` changes. Becoming attended completes the session's lesson for
   * the learner (ProgressService.writeLesson: LESSON_COMPLETION and, when it is the last required
   * lesson, the course completion), unless the lesson is complete already.
   */
  async update(p: Principal, id: string, dto: RegistrationPatchDto): Promise<RegistrationRow> {
    const org = p.organizationId;
    const cur = await this.read(p, id);
    if (dto.attended === undefined || dto.attended === cur.attended) return cur;
    const changed = rowsOf<{ id: string }>(
      await scoped(this.ds, org).query<unknown>(`UPDATE vilt_session_registrations SET attended = $2, updated_at = ${NOW} WHERE id = $1 AND organization_id = $org AND attended <> $2 RETURNING id`, [
        cur.id,
        dto.attended,
      ]),
    );
    if (changed.length && dto.attended) await this.completeLesson(p, cur);
    return this.read(p, id);
  }

  private async completeLesson(p: Principal, r: RegistrationRow): Promise<void> {
    const [t] = await scoped(this.ds, p.organizationId).query<{ published_course_id: string }[]>(
      `SELECT en.published_course_id FROM vilt_session_registrations r JOIN enrollments en ON en.id = r.enrollment_id AND en.organization_id = r.organization_id
        WHERE r.id = $1 AND r.organization_id = $org`,
      [r.id],
    );
    const target = { userId: encodeId('student', r.user_id), publishedCourseId: encodeId('publishedCourse', t.published_course_id), lessonId: encodeId('lesson', r.lesson_id) };
    try {
      const lp = await this.progress.readLesson(p, target);
      if (lp.completed_at) return;
      await this.progress.writeLesson(p, target, { completed_at: new Date() }, false);
    } catch (e) {
      // a lesson no longer live (deleted, drafted) has no progress to complete: attendance is still recorded
      if (e instanceof ApiError && e.status === 404) return;
      throw e;
    }
  }

  /**
   * Frees the seat and mails the learner a cancellation of each meeting (METHOD:CANCEL, one message
   * per UID, each SEQUENCE above the meeting's last one).
   */
  async remove(p: Principal, id: string): Promise<void> {
    const org = p.organizationId;
    const uuid = decodeId('viltRegistration', id);
    if (!uuid) throw notFound();
    const mailIds = await this.ds.transaction(async (m) => {
      const [gone] = rowsOf<{ session_id: string; user_id: string }>(
        await scoped(m, org).query<unknown>(`DELETE FROM vilt_session_registrations WHERE id = $1 AND organization_id = $org RETURNING session_id, user_id`, [uuid]),
      );
      if (!gone) throw notFound();
      // the session row before its meetings, as every other write of them
      await scoped(m, org).query(`UPDATE vilt_sessions SET registration_count = registration_count - 1, updated_at = ${NOW} WHERE id = $1 AND organization_id = $org`, [gone.session_id]);
      return this.mails.recordUnregistered(m, org, gone.session_id, gone.user_id);
    });
    await this.mails.enqueue(org, mailIds);
  }
}

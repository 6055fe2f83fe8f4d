import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { eventSchedule } from '../../core/events/bodies';
import { notFound } from '../../core/http/api-error';
import { fieldError, invalidPk, paramError, parseTimestamp } from '../../core/http/v1-rules';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { IltSessionDto } from './dto/training.dto';
import { parseEmail } from './instructor-email';
import { checkedSeats, multiSession, MultiSessionRow, viltLesson } from './multi-sessions.service';
import { CancelledSnapshot, TrainingMails } from './training-mails';
import { scoped } from '../../core/database/scoped';

/** One scheduled meeting (an ILT session, a VILT session event) with its session, lesson and course. */
export interface EventRow {
  id: string;
  session_id: string;
  display_name: string;
  description: string;
  post_registration_instructions: string;
  provider: string;
  instructor_email: string;
  instructor_name: string;
  starts_at: Date;
  ends_at: Date;
  timezone: string;
  location: string | null;
  event_link: string | null;
  sequence: number;
  is_multi_session: boolean;
  session_display_name: string;
  seats_total: number | null;
  registration_count: number;
  tags: string[];
  lesson_id: string;
  lesson_title: string;
  course_id: string;
  course_title: string;
}

const EVENT_SELECT = `
  SELECT e.id, e.session_id, e.display_name, e.description, e.post_registration_instructions, e.provider, e.instructor_email, e.instructor_name,
         e.starts_at, e.ends_at, e.timezone, e.location, e.event_link, e.sequence,
         s.is_multi_session, s.display_name AS session_display_name, s.seats_total, s.registration_count, s.tags,
         l.id AS lesson_id, l.title AS lesson_title, c.id AS course_id, c.title AS course_title
    FROM vilt_session_events e
    JOIN vilt_sessions s ON s.id = e.session_id AND s.organization_id = e.organization_id
    JOIN lessons l ON l.id = s.lesson_id AND l.organization_id = e.organization_id
    JOIN courses c ON c.id = l.course_id AND c.organization_id = e.organization_id`;

const NOW = `date_trunc('milliseconds', now())`;
const NOT_CALENDAR = 'This cannot be set for non-calendar sessions.';
const IN_MULTI = 'This cannot be set for sessions belonging to a multi-session event.';

/** Event members whose change re-sends the invitation (a new SEQUENCE). */
const SCHEDULE_MEMBERS = ['starts_at', 'ends_at', 'timezone', 'location', 'event_link', 'display_name'] as const;

/**
 * ILT sessions and VILT session events (docs/decisions/training.md); multi-session events are
 * MultiSessionsService's (vilt_sessions rows with is_multi_session). A lesson-based ILT session
 * makes its own vilt_sessions row (the one learners register for) and one event; an ILT session of
 * a multi-session event is one more event of that session. Every statement names the organization.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly ds: DataSource,
    private readonly mails: TrainingMails,
  ) {}

  async listEvents(
    p: Principal,
    page: V1PageRequest,
    f: { courseId?: string; lessonId?: string; startsAtGte?: string; endsAtLte?: string; updatedSince?: Date } = {},
  ): Promise<{ rows: EventRow[]; count: number }> {
    const db = scoped(this.ds, p.organizationId);
    const params: unknown[] = [];
    const where = ['e.organization_id = $org'];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length}`));
    };
    // an id that names nothing matches nothing (as every /v1 id filter)
    const none = '00000000-0000-0000-0000-000000000000';
    if (f.courseId !== undefined) add('c.id = ?', decodeId('course', f.courseId) ?? none);
    if (f.lessonId !== undefined) add('l.id = ?', decodeId('lesson', f.lessonId) ?? none);
    if (f.startsAtGte !== undefined) add('e.starts_at >= ?', this.filterTime('starts_at__gte', f.startsAtGte));
    if (f.endsAtLte !== undefined) add('e.ends_at <= ?', this.filterTime('ends_at__lte', f.endsAtLte));
    // updated_since orders by last change of the meeting row (docs/decisions/data-out.md), on vilt_session_events_org_updated_idx
    if (f.updatedSince) add('e.updated_at >= ?', f.updatedSince);
    const cond = where.join(' AND ');
    const [{ n }] = await db.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM vilt_session_events e
         JOIN vilt_sessions s ON s.id = e.session_id AND s.organization_id = e.organization_id
         JOIN lessons l ON l.id = s.lesson_id AND l.organization_id = e.organization_id
         JOIN courses c ON c.id = l.course_id AND c.organization_id = e.organization_id
        WHERE ${cond}`,
      params,
    );
    const order = f.updatedSince ? 'e.updated_at, e.id' : f.startsAtGte !== undefined || f.endsAtLte !== undefined ? 'e.starts_at, e.id' : 'e.created_at, e.id';
    const rows = await db.query<EventRow[]>(`${EVENT_SELECT} WHERE ${cond} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [...params, page.pageSize, page.offset]);
    return { rows, count: n };
  }

  private filterTime(name: string, v: string): Date {
    try {
      const d = parseTimestamp(name, v, false);
      return d as Date;
    } catch {
      throw paramError(name, 'Enter a valid date/time.');
    }
  }

  async event(m: EntityManager, org: string, id: string): Promise<EventRow | null> {
    const uuid = decodeId('viltSessionEvent', id);
    if (!uuid) return null;
    const [row] = await scoped(m, org).query<EventRow[]>(`${EVENT_SELECT} WHERE e.id = $1 AND e.organization_id = $org`, [uuid]);
    return row ?? null;
  }

  async readEvent(p: Principal, id: string): Promise<EventRow> {
    const row = await this.event(this.ds.manager, p.organizationId, id);
    if (!row) throw notFound();
    return row;
  }

  /**
   * The body's rules, merged over the current event on update (absent members keep their value, as
   * a published update does): one of lesson or multi_session_event; the display-name form of
   * instructor_email and location/event_link for the calendar provider only (any other provider
   * needs an ILT instructor of that address); ends_at after starts_at; seats_total and tags not
   * in a multi-session event.
   */
  private async sessionInput(m: EntityManager, org: string, dto: IltSessionDto, cur: EventRow | null) {
    const lessonGiven = dto.lesson !== undefined && dto.lesson !== null;
    const multiGiven = dto.multi_session_event !== undefined && dto.multi_session_event !== null;
    if (lessonGiven === multiGiven) throw fieldError('non_field_errors', 'Set exactly one of lesson or multi_session_event.');
    let multi: MultiSessionRow | null = null;
    let lessonId: string | null = null;
    if (multiGiven) {
      multi = await multiSession(m, org, dto.multi_session_event!, true);
      if (!multi) throw invalidPk('multi_session_event', dto.multi_session_event);
      if (dto.seats_total !== undefined) throw fieldError('seats_total', IN_MULTI);
      if (dto.tags !== undefined) throw fieldError('tags', IN_MULTI);
    } else {
      lessonId = await viltLesson(m, org, 'lesson', dto.lesson!);
    }
    if (cur) {
      if (cur.is_multi_session !== multiGiven || (multi && multi.id !== cur.session_id)) {
        throw fieldError(multiGiven ? 'multi_session_event' : 'lesson', 'A session cannot move to another multi-session event or between a lesson and a multi-session event.');
      }
    }
    const provider = dto.provider ?? cur?.provider ?? 'calendar';
    const parsed = parseEmail(dto.instructor_email);
    if (!parsed) throw fieldError('instructor_email', 'Enter a valid email address, or a name and address as "Instructor Name <instructor@example.com>".');
    if (parsed.name !== null && provider !== 'calendar') throw fieldError('instructor_email', 'The "Name <address>" form is for calendar sessions only; give the address of an ILT instructor.');
    const [instructor] = await scoped(m, org).query<{ id: string; name: string }[]>(`SELECT id, name FROM ilt_instructors WHERE organization_id = $org AND email = $1`, [parsed.email]);
    if (provider !== 'calendar' && !instructor) throw fieldError('instructor_email', `No ILT instructor has the address ${parsed.email}; create one first (/v1/ilt-instructors).`);
    const startsAt = parseTimestamp('starts_at', dto.starts_at, false) as Date;
    const endsAt = parseTimestamp('ends_at', dto.ends_at, false) as Date;
    if (endsAt <= startsAt) throw fieldError('ends_at', 'ends_at must be after starts_at.');
    const location = dto.location !== undefined ? dto.location : (cur?.location ?? null);
    const eventLink = dto.event_link !== undefined ? dto.event_link : (cur?.event_link ?? null);
    if (provider !== 'calendar') {
      if (location !== null && location !== '') throw fieldError('location', NOT_CALENDAR);
      if (eventLink !== null && eventLink !== '') throw fieldError('event_link', NOT_CALENDAR);
    }
    if (eventLink) {
      let ok = false;
      try {
        ok = ['http:', 'https:'].includes(new URL(eventLink).protocol);
      } catch {
        ok = false;
      }
      if (!ok) throw fieldError('event_link', 'Enter a valid URL.');
    }
    return {
      multi,
      lessonId,
      event: {
        display_name: dto.display_name,
        description: dto.description ?? cur?.description ?? '',
        post_registration_instructions: dto.post_registration_instructions ?? cur?.post_registration_instructions ?? '',
        provider,
        instructor_email: parsed.email,
        instructor_name: parsed.name ?? instructor?.name ?? '',
        instructor_id: (instructor?.id as string | undefined) ?? null,
        starts_at: startsAt,
        ends_at: endsAt,
        timezone: dto.timezone,
        location: location === '' ? null : location,
        event_link: eventLink === '' ? null : eventLink,
      },
      seatsTotal: dto.seats_total,
      tags: dto.tags,
    };
  }

  async createSession(p: Principal, dto: IltSessionDto): Promise<EventRow> {
    const org = p.organizationId;
    const id = await this.ds.transaction(async (m) => {
      const input = await this.sessionInput(m, org, dto, null);
      let sessionId: string;
      if (input.multi) {
        sessionId = input.multi.id;
      } else {
        const [s] = await scoped(m, org).query<{ id: string }[]>(
          `INSERT INTO vilt_sessions (organization_id, lesson_id, is_multi_session, display_name, seats_total, tags) VALUES ($org, $1, false, $2, $3, $4) RETURNING id`,
          [input.lessonId, dto.display_name, input.seatsTotal ?? null, input.tags ?? []],
        );
        sessionId = s.id;
      }
      const e = input.event;
      const [row] = await scoped(m, org).query<{ id: string }[]>(
        `INSERT INTO vilt_session_events (organization_id, session_id, display_name, description, post_registration_instructions, provider,
                instructor_email, instructor_name, instructor_id, starts_at, ends_at, timezone, location, event_link)
         VALUES ($org, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
        [
          sessionId,
          e.display_name,
          e.description,
          e.post_registration_instructions,
          e.provider,
          e.instructor_email,
          e.instructor_name,
          e.instructor_id,
          e.starts_at,
          e.ends_at,
          e.timezone,
          e.location,
          e.event_link,
        ],
      );
      // a new meeting of a multi-session event: its registrants get its invitation (a new UID, its own message)
      if (input.multi) return { id: row.id, mails: await this.mails.recordForEvent(m, org, row.id, 'added', false) };
      return { id: row.id, mails: [] as string[] };
    });
    await this.mails.enqueue(org, id.mails);
    return (await this.event(this.ds.manager, org, encodeEvent(id.id)))!;
  }

  /** PUT /v1/ilt-sessions/{id}: a change of schedule or place mails every registrant an update of this meeting (SEQUENCE + 1). */
  async updateSession(p: Principal, id: string, dto: IltSessionDto): Promise<EventRow> {
    const org = p.organizationId;
    const mails = await this.ds.transaction(async (m) => {
      const found = await this.event(m, org, id);
      if (!found) throw notFound();
      // the session row first (registrations lock it too), then the event
      await scoped(m, org).query(`SELECT id FROM vilt_sessions WHERE id = $1 AND organization_id = $org FOR UPDATE`, [found.session_id]);
      const cur = (await this.event(m, org, id))!;
      const input = await this.sessionInput(m, org, dto, cur);
      const e = input.event;
      if (!cur.is_multi_session) {
        const seats = checkedSeats(cur, input.lessonId, input.seatsTotal);
        await scoped(m, org).query(`UPDATE vilt_sessions SET lesson_id = $2, display_name = $3, seats_total = $4, tags = $5, updated_at = ${NOW} WHERE id = $1 AND organization_id = $org`, [
          cur.session_id,
          input.lessonId,
          e.display_name,
          seats,
          input.tags ?? cur.tags,
        ]);
      }
      const rescheduled = SCHEDULE_MEMBERS.some((k) => {
        const a = cur[k] instanceof Date ? (cur[k] as Date).getTime() : cur[k];
        const b = e[k] instanceof Date ? (e[k] as Date).getTime() : e[k];
        return a !== b;
      });
      await scoped(m, org).query(
        `UPDATE vilt_session_events SET display_name = $2, description = $3, post_registration_instructions = $4, provider = $5, instructor_email = $6,
                instructor_name = $7, instructor_id = $8, starts_at = $9, ends_at = $10, timezone = $11, location = $12, event_link = $13,
                sequence = sequence + $14, updated_at = ${NOW}
          WHERE id = $1 AND organization_id = $org`,
        [
          cur.id,
          e.display_name,
          e.description,
          e.post_registration_instructions,
          e.provider,
          e.instructor_email,
          e.instructor_name,
          e.instructor_id,
          e.starts_at,
          e.ends_at,
          e.timezone,
          e.location,
          e.event_link,
          rescheduled ? 1 : 0,
        ],
      );
      // the update of this meeting alone, at the SEQUENCE just set
      return rescheduled ? this.mails.recordForEvent(m, org, cur.id, 'rescheduled', false) : [];
    });
    await this.mails.enqueue(org, mails);
    return this.readEvent(p, id);
  }

  /**
   * DELETE /v1/ilt-sessions/{id} (an extension: the published API has no delete): every registrant
   * of the session gets a cancellation of this meeting (METHOD:CANCEL, its UID, SEQUENCE + 1), made
   * from a snapshot of it, worded as what happened: the session cancelled, or one meeting of a
   * multi-session event cancelled while the registration stands. A lesson-based session goes with its session row (its registrations and
   * pending mails by cascade); a meeting of a multi-session event goes alone (the event, its other
   * meetings and its registrations stay). Completions already earned by attendance stay.
   */
  async deleteSession(p: Principal, id: string): Promise<void> {
    const org = p.organizationId;
    const mails = await this.ds.transaction(async (m) => {
      const found = await this.event(m, org, id);
      if (!found) throw notFound();
      // the session row first, as registrations and updates lock it
      await scoped(m, org).query(`SELECT id FROM vilt_sessions WHERE id = $1 AND organization_id = $org FOR UPDATE`, [found.session_id]);
      const e = await this.event(m, org, id);
      if (!e) throw notFound();
      const snapshot: CancelledSnapshot = {
        title: e.session_display_name,
        events: [
          {
            id: e.id,
            display_name: e.display_name,
            description: e.description,
            post_registration_instructions: e.post_registration_instructions,
            ...eventSchedule(e),
            instructor_email: e.instructor_email,
            instructor_name: e.instructor_name,
            sequence: e.sequence + 1,
          },
        ],
      };
      const ids = await this.mails.recordCancellations(m, org, e.session_id, snapshot, e.is_multi_session ? 'meeting-cancelled' : 'session-cancelled');
      if (e.is_multi_session) await scoped(m, org).query(`DELETE FROM vilt_session_events WHERE id = $1 AND organization_id = $org`, [e.id]);
      else await scoped(m, org).query(`DELETE FROM vilt_sessions WHERE id = $1 AND organization_id = $org`, [e.session_id]);
      return ids;
    });
    await this.mails.enqueue(org, mails);
  }
}

const encodeEvent = (uuid: string) => encodeId('viltSessionEvent', uuid);

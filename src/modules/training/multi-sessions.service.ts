import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { rowsOf } from '../../core/database/sql';
import { notFound } from '../../core/http/api-error';
import { fieldError, invalidPk } from '../../core/http/v1-rules';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { MultiSessionEventPatchDto } from './dto/training.dto';

export interface MultiSessionRow {
  id: string;
  lesson_id: string;
  display_name: string;
  seats_total: number | null;
  registration_count: number;
}

const NOW = `date_trunc('milliseconds', now())`;

/** A live, VILT lesson of the organization for `field`, or a 400 naming it. */
export async function viltLesson(m: EntityManager, org: string, field: string, value: string): Promise<string> {
  const uuid = decodeId('lesson', value);
  const [l] = uuid ? await m.query(`SELECT id, type FROM lessons WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL`, [uuid, org]) : [];
  if (!l) throw invalidPk(field, value);
  if (l.type !== 'VILT') throw fieldError(field, 'The lesson must be a live-training (VILT) lesson.');
  return l.id;
}

/** The multi-session event behind a public id (locked when asked), or null. */
export async function multiSession(m: EntityManager, org: string, id: string, lock = false): Promise<MultiSessionRow | null> {
  const uuid = decodeId('viltSession', id);
  if (!uuid) return null;
  const [row] = await m.query(
    `SELECT id, lesson_id, display_name, seats_total, registration_count FROM vilt_sessions
      WHERE id = $1 AND organization_id = $2 AND is_multi_session${lock ? ' FOR UPDATE' : ''}`,
    [uuid, org],
  );
  return row ?? null;
}

/**
 * A session's change of lesson and seats (a multi-session event, a lesson-based ILT session): the
 * lesson changes only while nobody is registered, the seats never drop below the registrations.
 * The seats to store (`seatsTotal` absent: the current ones).
 */
export function checkedSeats(cur: Pick<MultiSessionRow, 'lesson_id' | 'seats_total' | 'registration_count'>, lessonId: string | null, seatsTotal: number | null | undefined): number | null {
  if (lessonId !== cur.lesson_id && cur.registration_count > 0) throw fieldError('lesson', 'The lesson cannot change while learners are registered.');
  const seats = seatsTotal !== undefined ? seatsTotal : cur.seats_total;
  if (seats !== null && seats < cur.registration_count) throw fieldError('seats_total', `There are already ${cur.registration_count} registrations.`);
  return seats;
}

/**
 * Multi-session events (docs/decisions/training.md): vilt_sessions rows with is_multi_session,
 * whose meetings are the ILT sessions that name them (SessionsService). Every statement names the
 * organization.
 */
@Injectable()
export class MultiSessionsService {
  constructor(private readonly ds: DataSource) {}

  async listMulti(p: Principal, page: V1PageRequest): Promise<{ rows: MultiSessionRow[]; count: number }> {
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n FROM vilt_sessions WHERE organization_id = $1 AND is_multi_session`, [p.organizationId]);
    const rows = await this.ds.query(
      `SELECT id, lesson_id, display_name, seats_total, registration_count FROM vilt_sessions
        WHERE organization_id = $1 AND is_multi_session ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [p.organizationId, page.pageSize, page.offset],
    );
    return { rows, count: n };
  }

  async readMulti(p: Principal, id: string): Promise<MultiSessionRow> {
    const row = await multiSession(this.ds.manager, p.organizationId, id);
    if (!row) throw notFound();
    return row;
  }

  async createMulti(p: Principal, dto: MultiSessionEventPatchDto): Promise<MultiSessionRow> {
    const org = p.organizationId;
    const lessonId = await viltLesson(this.ds.manager, org, 'lesson', dto.lesson!);
    const [row] = await this.ds.query(
      `INSERT INTO vilt_sessions (organization_id, lesson_id, is_multi_session, display_name, seats_total) VALUES ($1, $2, true, $3, $4)
       RETURNING id, lesson_id, display_name, seats_total, registration_count`,
      [org, lessonId, dto.display_name, dto.seats_total ?? null],
    );
    return row;
  }

  /** PUT and PATCH: the lesson changes only while nobody is registered; seats never drop below the registrations. */
  async updateMulti(p: Principal, id: string, dto: MultiSessionEventPatchDto): Promise<MultiSessionRow> {
    const org = p.organizationId;
    return this.ds.transaction(async (m) => {
      const cur = await multiSession(m, org, id, true);
      if (!cur) throw notFound();
      const lessonId = dto.lesson !== undefined ? await viltLesson(m, org, 'lesson', dto.lesson) : cur.lesson_id;
      const seats = checkedSeats(cur, lessonId, dto.seats_total);
      const [row] = rowsOf(
        await m.query(
          `UPDATE vilt_sessions SET lesson_id = $3, display_name = $4, seats_total = $5, updated_at = ${NOW}
            WHERE id = $1 AND organization_id = $2 RETURNING id, lesson_id, display_name, seats_total, registration_count`,
          [cur.id, org, lessonId, dto.display_name ?? cur.display_name, seats],
        ),
      );
      return row;
    });
  }
}

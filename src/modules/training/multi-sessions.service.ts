import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { rowsOf } from '../../core/database/sql';
import { notFound } from '../../core/http/api-error';
import { fieldError, invalidPk } from '../../core/http/v1-rules';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { MultiSessionEventPatchDto } from './dto/training.dto';
import { scoped } from '../../core/database/scoped';

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
  const [l] = uuid ? await scoped(m, org).query<{ id: string; type: string }[]>(`SELECT id, type FROM lessons WHERE id = $1 AND organization_id = $org AND deleted_at IS NULL`, [uuid]) : [];
  if (!l) throw invalidPk(field, value);
  if (l.type !== 'VILT') throw fieldError(field, 'The lesson must be a live-training (VILT) lesson.');
  return l.id;
}

/** The multi-session event behind a public id (locked when asked), or null. */
export async function multiSession(m: EntityManager, org: string, id: string, lock = false): Promise<MultiSessionRow | null> {
  const uuid = decodeId('viltSession', id);
  if (!uuid) return null;
  const [row] = await scoped(m, org).query<MultiSessionRow[]>(
    `SELECT id, lesson_id, display_name, seats_total, registration_count FROM vilt_sessions
      WHERE id = $1 AND organization_id = $org AND is_multi_session${lock ? ' FOR UPDATE' : ''}`,
    [uuid],
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

  async listMulti(p: Principal, page: V1PageRequest, f: { updatedSince?: Date } = {}): Promise<{ rows: MultiSessionRow[]; count: number }> {
    const db = scoped(this.ds, p.organizationId);
    const params: unknown[] = [];
    let where = 'organization_id = $org AND is_multi_session';
    // updated_since orders by last change (docs/decisions/data-out.md), on vilt_sessions_multi_updated_idx
    if (f.updatedSince) where += ` AND updated_at >= $${params.push(f.updatedSince)}`;
    const order = f.updatedSince ? 'updated_at, id' : 'created_at, id';
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM vilt_sessions WHERE ${where}`, params);
    const rows = await db.query<MultiSessionRow[]>(
      `SELECT id, lesson_id, display_name, seats_total, registration_count FROM vilt_sessions
        WHERE ${where} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.pageSize, page.offset],
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
    const [row] = await scoped(this.ds, org).query<MultiSessionRow[]>(
      `INSERT INTO vilt_sessions (organization_id, lesson_id, is_multi_session, display_name, seats_total) VALUES ($org, $1, true, $2, $3)
       RETURNING id, lesson_id, display_name, seats_total, registration_count`,
      [lessonId, dto.display_name, dto.seats_total ?? null],
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
      const [row] = rowsOf<MultiSessionRow>(
        await scoped(m, org).query<unknown>(
          `UPDATE vilt_sessions SET lesson_id = $2, display_name = $3, seats_total = $4, updated_at = ${NOW}
            WHERE id = $1 AND organization_id = $org RETURNING id, lesson_id, display_name, seats_total, registration_count`,
          [cur.id, lessonId, dto.display_name ?? cur.display_name, seats],
        ),
      );
      return row;
    });
  }
}

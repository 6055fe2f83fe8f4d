import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import { notFound } from '../../core/http/api-error';
import { fieldError } from '../../core/http/v1-rules';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { InstructorPatchDto } from './dto/training.dto';
import { parseEmail } from './instructor-email';
import { scoped } from '../../core/database/scoped';

export interface InstructorRow {
  id: string;
  email: string;
  name: string;
  providers: string[];
}

/**
 * `providers` of an instructor: `calendar` (every instructor can run a calendar session), then the
 * other providers of the sessions they host, in the published enum's order (a set-wise subquery).
 */
const COLUMNS = `i.id, i.email, i.name,
  ARRAY['calendar'] || coalesce((SELECT array_agg(DISTINCT e.provider ORDER BY e.provider) FROM vilt_session_events e
                        WHERE e.organization_id = i.organization_id AND e.instructor_id = i.id AND e.provider <> 'calendar'), '{}') AS providers`;

const TAKEN = 'An ILT instructor with this email already exists.';

/** ILT instructors (/v1/ilt-instructors): one per e-mail address (lowercased) in the organization. */
@Injectable()
export class InstructorsService {
  constructor(private readonly ds: DataSource) {}

  async list(p: Principal, page: V1PageRequest, f: { email?: string; provider?: string; updatedSince?: Date }): Promise<{ rows: InstructorRow[]; count: number }> {
    const db = scoped(this.ds, p.organizationId);
    const params: unknown[] = [];
    const where = ['i.organization_id = $org'];
    if (f.email !== undefined) {
      params.push(f.email.toLowerCase());
      where.push(`i.email = $${params.length}`);
    }
    if (f.provider !== undefined && f.provider !== 'calendar') {
      params.push(f.provider);
      where.push(`EXISTS (SELECT 1 FROM vilt_session_events e WHERE e.organization_id = i.organization_id AND e.instructor_id = i.id AND e.provider = $${params.length})`);
    }
    // updated_since orders by last change (docs/decisions/data-out.md), on ilt_instructors_org_updated_idx
    if (f.updatedSince) where.push(`i.updated_at >= $${params.push(f.updatedSince)}`);
    const order = f.updatedSince ? 'i.updated_at, i.id' : 'i.created_at, i.id';
    const sql = where.join(' AND ');
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ilt_instructors i WHERE ${sql}`, params);
    const rows = await db.query<InstructorRow[]>(`SELECT ${COLUMNS} FROM ilt_instructors i WHERE ${sql} ORDER BY ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
      ...params,
      page.pageSize,
      page.offset,
    ]);
    return { rows, count: n };
  }

  async read(p: Principal, id: string): Promise<InstructorRow> {
    const uuid = decodeId('iltInstructor', id);
    const [row] = uuid ? await scoped(this.ds, p.organizationId).query<InstructorRow[]>(`SELECT ${COLUMNS} FROM ilt_instructors i WHERE i.id = $1 AND i.organization_id = $org`, [uuid]) : [];
    if (!row) throw notFound();
    return row;
  }

  /** The address of the body: a plain address (the display-name form belongs to sessions). */
  private email(dto: InstructorPatchDto): string | undefined {
    if (dto.email === undefined) return undefined;
    const parsed = parseEmail(dto.email);
    if (!parsed || parsed.name !== null) throw fieldError('email', 'Enter a valid email address.');
    return parsed.email;
  }

  async create(p: Principal, dto: InstructorPatchDto): Promise<InstructorRow> {
    const email = this.email(dto)!;
    try {
      const [row] = await scoped(this.ds, p.organizationId).query<{ id: string }[]>(`INSERT INTO ilt_instructors (organization_id, email) VALUES ($org, $1) RETURNING id`, [email]);
      return this.read(p, encode(row.id));
    } catch (e) {
      if (isUniqueViolation(e, 'ilt_instructors_email_uq')) throw fieldError('email', TAKEN);
      throw e;
    }
  }

  async update(p: Principal, id: string, dto: InstructorPatchDto): Promise<InstructorRow> {
    const current = await this.read(p, id);
    const email = this.email(dto);
    if (email !== undefined && email !== current.email) {
      try {
        await scoped(this.ds, p.organizationId).query(`UPDATE ilt_instructors SET email = $2, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, [
          current.id,
          email,
        ]);
      } catch (e) {
        if (isUniqueViolation(e, 'ilt_instructors_email_uq')) throw fieldError('email', TAKEN);
        throw e;
      }
    }
    return this.read(p, id);
  }

  /** Sessions keep the instructor's address and name they were given; their link to the account is cleared (ON DELETE SET NULL). */
  async remove(p: Principal, id: string): Promise<void> {
    const uuid = decodeId('iltInstructor', id);
    const deleted = uuid
      ? rowsOf<{ id: string }>(await scoped(this.ds, p.organizationId).query<unknown>(`DELETE FROM ilt_instructors WHERE id = $1 AND organization_id = $org RETURNING id`, [uuid]))
      : [];
    if (!deleted.length) throw notFound();
  }
}

const encode = (uuid: string) => encodeId('iltInstructor', uuid);

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import * as argon2 from 'argon2';
import { poolRead, poolRowOr404, TEXT_TIMESTAMPS } from '../../core/database/pool-reads';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import { hash } from 'node:crypto';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { conflict, notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId, newUuid } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import type { PasswordResetMailJob } from '../../core/queue/queues';
import { DomainsService } from '../domains/domains.service';
import { PasswordResetMails } from '../mail/password-reset-mails';
import { ARGON2_OPTIONS } from '../organizations/organizations.service';
import type { StudentListQuery } from './dto/student-query.dto';
import { scoped } from '../../core/database/scoped';
import type { UserRow } from './users.store';
import { erasePersonalData } from './erase-personal-data';
import { PersonErasureSteps } from './person-erasure';
import { verifyResetToken } from '../mail/password-reset-token';
import { Student, STUDENT_COLUMNS, studentFromRow } from './student.entity';
import { ANONYMIZED_USER_EDIT, userState } from './user-refs';
import type { StudentRow } from './students.shape';

/** A /v1 user update naming an email another user of the organization has. */
export const EMAIL_TAKEN = 'A user with this email address already exists.';

/** Timestamps in the same precision as the column defaults (cursors compare at ms precision). */
export const NOW = `date_trunc('milliseconds', now())`;
export const PASSWORD_MAX_LENGTH = 128;
/** Namespace of the students' external_id (UUID v5 of the student's uuid): stable, derived, not personal. */
const EXTERNAL_ID_NAMESPACE = '5b0e8c1e-3f5e-4d8a-9a57-6c1f2b7c9d10';

const EXTERNAL_ID_NAMESPACE_BYTES = Buffer.from(EXTERNAL_ID_NAMESPACE.replace(/-/g, ''), 'hex');
/** The variant nibble of a v5 UUID (10xx) for the nibble of the hash at its place: the hash's two low bits kept. */
const VARIANT_NIBBLE = '89ab';

/**
 * A student's external_id: UUID v5 of its uuid (the same on whichever interface created it), as
 * uuidV5(EXTERNAL_ID_NAMESPACE, uuid) computes it (core/ids/uuid-v5.ts; students.service.spec.ts
 * checks they agree), in one call of the one-shot hash with the namespace's bytes made once: a
 * batch create computes 100 of them.
 */
export function studentExternalId(uuid: string): string {
  const h = hash('sha1', Buffer.concat([EXTERNAL_ID_NAMESPACE_BYTES, Buffer.from(uuid, 'utf8')]), 'hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${VARIANT_NIBBLE[parseInt(h[16], 16) & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Create, in the caller's transaction, the users among `users` whose email the organization does
 * not have yet, exactly as /v2 creates students (new uuid, lower-cased email, external_id); existing
 * emails are left unchanged. The /v1 paths that create users by email (domain users, bulk-create)
 * go through here so that a /v1 user is the same row a /v2 create would make. One statement.
 */
export async function insertMissingUsers(m: EntityManager, organizationId: string, users: { email: string; first_name?: string | null; last_name?: string | null }[]): Promise<void> {
  if (!users.length) return;
  const ids = users.map(() => newUuid());
  await scoped(m, organizationId).query(
    `INSERT INTO users (id, organization_id, email, first_name, last_name, external_id)
     SELECT v.id, $org::uuid, lower(v.email), v.first_name, v.last_name, v.external_id
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[]) AS v(id, email, first_name, last_name, external_id)
     ON CONFLICT (organization_id, lower(email)) DO NOTHING`,
    [ids, users.map((u) => u.email), users.map((u) => u.first_name ?? ''), users.map((u) => u.last_name ?? ''), ids.map(studentExternalId)],
  );
}

/**
 * The hot /v2 reads as pg named (prepared) statements (poolRead, core/database/pool-reads.ts): parsed and planned once per pooled
 * connection, then executed by name (one Bind/Execute instead of Parse/Bind/Execute and a fresh
 * plan). Same SQL texts as before, `$org` bound last as scoped() binds it, and sent straight to
 * TypeORM's pg pool (no QueryRunner per statement); DATABASE_LOG_QUERIES still logs them through
 * TypeORM's logger. Only fixed texts are prepared (a name per text), so the server keeps a handful
 * of statements per connection.
 */
const PREPARED = {
  get: { name: 'students_get', sql: `SELECT ${STUDENT_COLUMNS} FROM users WHERE id = $1 AND organization_id = $org` },
  list: { name: 'students_list', sql: `SELECT ${STUDENT_COLUMNS} FROM users WHERE organization_id = $org ORDER BY created_at ASC, id ASC LIMIT $1` },
  listAfter: {
    name: 'students_list_after',
    sql: `SELECT ${STUDENT_COLUMNS} FROM users WHERE organization_id = $org AND (created_at, id) > ($1, $2) ORDER BY created_at ASC, id ASC LIMIT $3`,
  },
} as const;

/**
 * Students (the `users` table) for /v2. Every method takes the caller first and every statement
 * filters on its organization. The batch create and update are StudentsBatchService
 * (students.batch.service.ts).
 */
@Injectable()
export class StudentsService {
  constructor(
    @InjectRepository(Student) private readonly repo: Repository<Student>,
    private readonly ds: DataSource,
    private readonly domains: DomainsService,
    private readonly config: AppConfig,
    private readonly resetMails: PasswordResetMails,
    private readonly erasure: PersonErasureSteps,
  ) {}

  /**
   * A keyset page: fixed SQL (no query builder, no entity hydration), served by the index on
   * (organization_id, created_at, id); filters on lower(email) use the (organization_id,
   * lower(email)) unique index. LIMIT is size + 1 (parsePage bounds size to 1..100). The rows as pg
   * gives them (no entities: the list presents them straight from the rows, students.presenter.ts).
   */
  async list(p: Principal, q: StudentListQuery, page: PageRequest, updatedSince?: Date): Promise<StudentRow[]> {
    const unfiltered =
      updatedSince === undefined && q['filter[email]'] === undefined && q['filter[first_name]'] === undefined && q['filter[last_name]'] === undefined && q['filter[is_inactive]'] === undefined;
    if (unfiltered) {
      return page.after
        ? poolRead(this.ds, p.organizationId, { ...PREPARED.listAfter, types: TEXT_TIMESTAMPS }, [page.after.t, page.after.id, page.size + 1])
        : poolRead(this.ds, p.organizationId, { ...PREPARED.list, types: TEXT_TIMESTAMPS }, [page.size + 1]);
    }
    const params: unknown[] = [];
    let where = 'organization_id = $org';
    if (q['filter[email]'] !== undefined) where += ` AND lower(email) = lower($${params.push(q['filter[email]'])})`;
    if (q['filter[first_name]'] !== undefined) where += ` AND first_name = $${params.push(q['filter[first_name]'])}`;
    if (q['filter[last_name]'] !== undefined) where += ` AND last_name = $${params.push(q['filter[last_name]'])}`;
    if (q['filter[is_inactive]'] !== undefined) where += ` AND is_inactive = $${params.push(q['filter[is_inactive]'] === 'true')}`;
    if (updatedSince) {
      // ordered by last change (CONVENTIONS §20), on the index (organization_id, updated_at, id)
      where += ` AND updated_at >= $${params.push(updatedSince)}`;
      if (page.after) where += ` AND (updated_at, id) > ($${params.push(page.after.t)}, $${params.push(page.after.id)})`;
      return scoped(this.ds, p.organizationId).query(`SELECT ${STUDENT_COLUMNS} FROM users WHERE ${where} ORDER BY updated_at ASC, id ASC LIMIT ${page.size + 1}`, params);
    }
    if (page.after) where += ` AND (created_at, id) > ($${params.push(page.after.t)}, $${params.push(page.after.id)})`;
    return scoped(this.ds, p.organizationId).query(`SELECT ${STUDENT_COLUMNS} FROM users WHERE ${where} ORDER BY created_at ASC, id ASC LIMIT ${page.size + 1}`, params);
  }

  async get(p: Principal, publicId: string): Promise<Student> {
    return studentFromRow(await poolRowOr404(this.ds, p.organizationId, 'student', publicId, PREPARED.get, 'Student not found.'));
  }

  /**
   * Change the profile members given (/v1 users update: `email`, `first_name`, `last_name`; the
   * same row a /v2 student is). The email is stored lowercased, as every create stores it, and stays
   * unique in the organization case-insensitively (the (organization_id, lower(email)) index: a
   * taken email is 400 on `email`, also when a concurrent write took it first). An anonymized user
   * is never changed (400). One statement, plus one look-up when nothing was updated.
   */
  async updateProfile(p: Principal, id: string, change: { email?: string; firstName?: string; lastName?: string }): Promise<Student> {
    let rows: Omit<UserRow, 'password_hash'>[];
    try {
      rows = rowsOf<Omit<UserRow, 'password_hash'>>(
        await scoped(this.ds, p.organizationId).query<unknown>(
          `UPDATE users SET email = COALESCE($2, email), first_name = COALESCE($3, first_name), last_name = COALESCE($4, last_name), updated_at = ${NOW}
            WHERE id = $1 AND organization_id = $org AND NOT is_anonymized RETURNING ${STUDENT_COLUMNS}`,
          [id, change.email?.toLowerCase() ?? null, change.firstName ?? null, change.lastName ?? null],
        ),
      );
    } catch (err) {
      if (isUniqueViolation(err, 'users_org_email_uq')) throw new ValidationFailed([{ field: 'email', message: EMAIL_TAKEN }], 400);
      throw err;
    }
    if (rows.length) return studentFromRow(rows[0]);
    const state = await userState(this.ds.manager, p.organizationId, id);
    if (state === 'absent') throw notFound();
    throw new ValidationFailed([{ field: 'non_field_errors', message: ANONYMIZED_USER_EDIT }], 400);
  }

  /** DELETE: deactivate. 409 when the student is already inactive or anonymized. */
  async deactivate(p: Principal, publicId: string): Promise<void> {
    const id = decodeId('student', publicId);
    if (!id) throw notFound('Student not found.');
    const rows = rowsOf<{ id: string }>(
      await scoped(this.ds, p.organizationId).query<unknown>(
        `UPDATE users SET is_inactive = true, deactivated_at = ${NOW}, updated_at = ${NOW}
          WHERE id = $1 AND organization_id = $org AND NOT is_inactive AND NOT is_anonymized RETURNING id`,
        [id],
      ),
    );
    if (rows.length) return;
    const [s] = await scoped(this.ds, p.organizationId).query<{ is_anonymized: boolean }[]>(`SELECT is_anonymized FROM users WHERE id = $1 AND organization_id = $org`, [id]);
    if (!s) throw notFound('Student not found.');
    throw conflict(s.is_anonymized ? 'The student is anonymized.' : 'The student is already inactive.');
  }

  /**
   * Erase the student's personal data for good: email becomes a unique placeholder, names and
   * external id are emptied, password and single sign-on are cleared, the student is inactive,
   * the free-text feedback of their course ratings is removed, and everything erasePersonalData
   * names (signup-field values, unused invites, stored event bodies, ...) is erased too.
   * Idempotent on an anonymized student (the id-based erasure runs again). One transaction.
   * Answers the anonymized student.
   */
  async anonymize(p: Principal, publicId: string): Promise<Student> {
    const id = decodeId('student', publicId);
    if (!id) throw notFound('Student not found.');
    await scoped(this.ds, p.organizationId).transaction(async (tx, m) => {
      const [before] = await tx.query<Pick<UserRow, 'id' | 'email' | 'first_name' | 'last_name' | 'is_anonymized'>[]>(
        `SELECT id, email, first_name, last_name, is_anonymized FROM users WHERE id = $1 AND organization_id = $org FOR UPDATE`,
        [id],
      );
      if (!before) throw notFound('Student not found.');
      const placeholderEmail = before.is_anonymized ? before.email : `anonymized-${newUuid()}@anonymized.invalid`;
      if (!before.is_anonymized) {
        await tx.query(
          `UPDATE users SET email = $2, first_name = '', last_name = '', external_id = '',
                  password_hash = NULL, sso_provider = NULL, password_changed_at = ${NOW},
                  is_anonymized = true, anonymized_at = ${NOW},
                  is_inactive = true, deactivated_at = COALESCE(deactivated_at, ${NOW}), updated_at = ${NOW}
            WHERE id = $1 AND organization_id = $org`,
          [id, placeholderEmail],
        );
      }
      // course-rating feedback, domain memberships, lesson-progress free text: the owners' steps (person-erasure.ts)
      for (const step of this.erasure.steps) await step(m, p.organizationId, id);
      await erasePersonalData(m, {
        organizationId: p.organizationId,
        userId: id,
        publicId: encodeId('student', id),
        ...(before.is_anonymized ? {} : { email: before.email, firstName: before.first_name, lastName: before.last_name }),
        placeholderEmail,
        appSecret: this.config.APP_SECRET,
      });
    });
    return this.get(p, publicId);
  }

  private assertCanHavePassword(s: { ssoProvider: string | null; isAnonymized: boolean; isInactive: boolean }) {
    if (s.isAnonymized) throw conflict('An anonymized student cannot have a password.');
    if (s.ssoProvider !== null) throw conflict('A single-sign-on student signs in through their identity provider and cannot have a password.');
    if (s.isInactive) throw conflict('An inactive student cannot have a password; reactivate them first.');
  }

  /**
   * Queue a password-reset mail (the mail worker sends it). The link points to the given domain of
   * the organization and carries a signed token {sid, exp, pca}; see mail/password-reset-token.ts. The
   * mail is recorded first (PasswordResetMails), so a Redis outage delays it instead of losing it
   * or holding the request.
   */
  async sendPasswordReset(p: Principal, publicId: string, domainName: string): Promise<PasswordResetMailJob> {
    const s = await this.get(p, publicId);
    const domain = await this.domains.findByName(p.organizationId, domainName);
    if (!domain) throw new ValidationFailed([{ parameter: 'domain', field: 'domain', message: 'is not a domain of this organization' }]);
    this.assertCanHavePassword(s);
    return this.resetMails.request({
      organizationId: p.organizationId,
      studentId: s.id,
      domainName: domain.name,
      exp: Math.floor(Date.now() / 1000) + this.config.PASSWORD_RESET_TTL,
      pca: s.passwordChangedAt ? s.passwordChangedAt.toISOString() : null,
    });
  }

  /**
   * The student a reset token is good for right now, or null: authentic, unexpired, issued since
   * the last password change (so a used link dies), and the student can still have a password.
   * For the reset page (a later issue): the token itself is the credential there.
   */
  async studentForResetToken(token: unknown): Promise<Student | null> {
    const c = verifyResetToken(this.config.APP_SECRET, token);
    if (!c) return null;
    const s = await this.repo.findOne({ where: { id: c.sid }, comment: 'unscoped: the reset token is the credential, it names its student' });
    if (!s || s.isAnonymized || s.isInactive || s.ssoProvider !== null) return null;
    const current = s.passwordChangedAt ? s.passwordChangedAt.toISOString() : null;
    return current === c.pca ? s : null;
  }

  /** Set the password (argon2id) after the organization's rules; sets password_changed_at. */
  async setPassword(p: Principal, publicId: string, password: string): Promise<void> {
    const id = decodeId('student', publicId);
    if (!id) throw notFound('Student not found.');
    const [row] = await scoped(this.ds, p.organizationId).query<(Pick<UserRow, 'is_inactive' | 'is_anonymized' | 'sso_provider'> & { password_min_length: number })[]>(
      `SELECT u.is_inactive, u.is_anonymized, u.sso_provider, o.password_min_length
         FROM users u JOIN organizations o ON o.id = u.organization_id
        WHERE u.id = $1 AND u.organization_id = $org`,
      [id],
    );
    if (!row) throw notFound('Student not found.');
    this.assertCanHavePassword({ ssoProvider: row.sso_provider, isAnonymized: row.is_anonymized, isInactive: row.is_inactive });
    const min: number = row.password_min_length;
    const length = [...password].length;
    if (length < min || length > PASSWORD_MAX_LENGTH) {
      throw new ValidationFailed([
        { pointer: '/data/attributes/password', field: 'password', message: `must have from ${min} to ${PASSWORD_MAX_LENGTH} characters (the organization's password rules)` },
      ]);
    }
    const hash = await argon2.hash(password, ARGON2_OPTIONS);
    const rows = rowsOf<{ id: string }>(
      await scoped(this.ds, p.organizationId).query<unknown>(
        `UPDATE users SET password_hash = $2, password_changed_at = $3, updated_at = ${NOW}
          WHERE id = $1 AND organization_id = $org AND NOT is_inactive AND NOT is_anonymized AND sso_provider IS NULL RETURNING id`,
        [id, hash, new Date()],
      ),
    );
    if (!rows.length) throw conflict('The student changed state meanwhile and cannot have a password.');
  }
}

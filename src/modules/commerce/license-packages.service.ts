import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { fieldError, invalidPk, parseTimestamp } from '../../core/http/v1-rules';
import { decodeId } from '../../core/ids/ids';
import { v1SinceSql } from '../../core/pagination/updated-since';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { rowsOf } from '../../core/database/sql';
import { ANONYMIZED_USER } from '../students/user-refs';
import type { LicensePackageCreateDto, LicensePackagePatchDto, LicensePackageSeatCreateDto, LicensePackageSeatUpdateDto } from './dto/license-packages.dto';
import { OrgWhere, v1SqlPage } from '../../core/pagination/v1-sql-page';
import { scoped } from '../../core/database/scoped';
import type { PackageRow } from './license-packages.store';
import type { SeatRow } from './license-seats.store';

export type { PackageRow } from './license-packages.store';
export type { SeatRow } from './license-seats.store';

const PKG_COLS = (alias: string) =>
  `${alias}.id, ${alias}.domain_id, ${alias}.name, ${alias}.tracking_id, ${alias}.start_date, ${alias}.end_date, ${alias}.license_count, ${alias}.max_unique_seats,
   (SELECT count(*)::int FROM license_seats s WHERE s.organization_id = ${alias}.organization_id AND s.package_id = ${alias}.id AND s.active) AS seats_active,
   ARRAY(SELECT o.offer_id FROM license_package_offers o WHERE o.organization_id = ${alias}.organization_id AND o.package_id = ${alias}.id ORDER BY o.created_at, o.offer_id) AS offer_ids`;
const SEAT_COLS = `s.id, s.user_id, s.active, s.enrolled_at, u.email, u.first_name, u.last_name`;
const NO_SEAT_LEFT = 'No license seats are left in this license package.';

/**
 * License packages (/v1/license-packages; docs/decisions/commerce-limits.md): `license_count`
 * seats on the package's offers, given to students one seat each. Adding a student or
 * re-activating a seat takes the package's row lock and counts the active seats under it, so
 * parallel adds never exceed `license_count` (nor `max_unique_seats` distinct students ever
 * seated). A seat enrolls nobody; checkout gives a seated student the package's offers at 0.
 */
@Injectable()
export class LicensePackagesService {
  constructor(private readonly ds: DataSource) {}

  private async pkg(m: EntityManager, p: Principal, id: string, lock = false): Promise<PackageRow> {
    const uuid = decodeId('licensePackage', id);
    if (!uuid) throw notFound();
    if (lock) {
      const locked = await scoped(m, p.organizationId).query<{ id: string }[]>(`SELECT id FROM license_packages WHERE organization_id = $org AND id = $1 FOR UPDATE`, [uuid]);
      if (!locked.length) throw notFound();
    }
    const rows: PackageRow[] = await scoped(m, p.organizationId).query(`SELECT ${PKG_COLS('x')} FROM license_packages x WHERE x.organization_id = $org AND x.id = $1`, [uuid]);
    if (!rows.length) throw notFound();
    return rows[0];
  }

  private async offers(m: EntityManager, p: Principal, ids: string[]): Promise<string[]> {
    const uuids = [...new Set(ids.map((id) => decodeId('offer', id)).filter((x): x is string => !!x))];
    const found: { id: string }[] = uuids.length ? await scoped(m, p.organizationId).query(`SELECT id FROM offers WHERE organization_id = $org AND id = ANY($1::uuid[])`, [uuids]) : [];
    const known = new Set(found.map((r) => r.id));
    const missing = ids.find((id) => !known.has(decodeId('offer', id) ?? ''));
    if (missing !== undefined) throw invalidPk('offers', missing);
    return uuids;
  }

  private async setOffers(m: EntityManager, p: Principal, packageId: string, uuids: string[]) {
    await scoped(m, p.organizationId).query(`DELETE FROM license_package_offers WHERE organization_id = $org AND package_id = $1 AND NOT (offer_id = ANY($2::uuid[]))`, [packageId, uuids]);
    if (uuids.length) {
      await scoped(m, p.organizationId).query(
        `INSERT INTO license_package_offers (organization_id, package_id, offer_id, created_at)
         SELECT $org, $1, x, now() + n * interval '1 microsecond' FROM unnest($2::uuid[]) WITH ORDINALITY AS t(x, n) ON CONFLICT DO NOTHING`,
        [packageId, uuids],
      );
    }
  }

  private dates(dto: LicensePackagePatchDto, current?: PackageRow) {
    const start = parseTimestamp('start_date', dto.start_date, false) ?? undefined;
    const end = parseTimestamp('end_date', dto.end_date, true);
    const s = start ?? current?.start_date ?? new Date();
    const e = end !== undefined ? end : (current?.end_date ?? null);
    if (e && e <= s) throw fieldError('end_date', 'end_date must be after start_date.');
    return { start, end };
  }

  async list(p: Principal, page: V1PageRequest): Promise<{ rows: PackageRow[]; count: number }> {
    return v1SqlPage(this.ds, PKG_COLS('x'), 'license_packages x', new OrgWhere(p.organizationId, 'x.organization_id'), page, 'x.created_at, x.id');
  }

  async read(p: Principal, id: string): Promise<PackageRow> {
    return this.pkg(this.ds.manager, p, id);
  }

  async create(p: Principal, dto: LicensePackageCreateDto): Promise<PackageRow> {
    const { start, end } = this.dates(dto);
    return this.ds.transaction(async (m) => {
      const domainUuid = decodeId('domain', dto.domain_id);
      const domain: { id: string }[] = domainUuid ? await scoped(m, p.organizationId).query(`SELECT id FROM domains WHERE organization_id = $org AND id = $1`, [domainUuid]) : [];
      if (!domain.length) throw invalidPk('domain_id', dto.domain_id);
      const offers = await this.offers(m, p, dto.offers ?? []);
      const [row]: { id: string }[] = await scoped(m, p.organizationId).query(
        `INSERT INTO license_packages (organization_id, domain_id, name, tracking_id, start_date, end_date, license_count, max_unique_seats)
         VALUES ($org, $1, $2, $3, COALESCE($4, date_trunc('milliseconds', now())), $5, $6, $7) RETURNING id`,
        [domain[0].id, dto.name, dto.tracking_id ?? '', start ?? null, end ?? null, dto.license_count, dto.max_unique_seats ?? null],
      );
      await this.setOffers(m, p, row.id, offers);
      const [out]: PackageRow[] = await scoped(m, p.organizationId).query(`SELECT ${PKG_COLS('x')} FROM license_packages x WHERE x.organization_id = $org AND x.id = $1`, [row.id]);
      return out;
    });
  }

  /** `license_count` never below the active seats, `max_unique_seats` never below the students ever seated (under the package's row lock). */
  async update(p: Principal, id: string, dto: LicensePackagePatchDto): Promise<PackageRow> {
    return this.ds.transaction(async (m) => {
      const pkg = await this.pkg(m, p, id, true);
      const { start, end } = this.dates(dto, pkg);
      if (dto.license_count !== undefined && dto.license_count < pkg.seats_active) {
        throw fieldError('license_count', `Ensure this value is greater than or equal to the ${pkg.seats_active} active seats.`);
      }
      if (dto.max_unique_seats !== undefined && dto.max_unique_seats !== null) {
        const [{ n }] = await scoped(m, p.organizationId).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM license_seats WHERE organization_id = $org AND package_id = $1`, [pkg.id]);
        if (dto.max_unique_seats < n) throw fieldError('max_unique_seats', `Ensure this value is greater than or equal to the ${n} students already seated.`);
      }
      if (dto.offers !== undefined) await this.setOffers(m, p, pkg.id, await this.offers(m, p, dto.offers));
      await scoped(m, p.organizationId).query(
        `UPDATE license_packages SET
           name = COALESCE($2, name), tracking_id = COALESCE($3, tracking_id), start_date = COALESCE($4, start_date),
           end_date = CASE WHEN $5 THEN $6::timestamptz ELSE end_date END,
           license_count = COALESCE($7, license_count),
           max_unique_seats = CASE WHEN $8 THEN $9::int ELSE max_unique_seats END,
           updated_at = now()
         WHERE organization_id = $org AND id = $1`,
        [pkg.id, dto.name ?? null, dto.tracking_id ?? null, start ?? null, end !== undefined, end ?? null, dto.license_count ?? null, dto.max_unique_seats !== undefined, dto.max_unique_seats ?? null],
      );
      return this.pkg(m, p, id);
    });
  }

  /** Deletes the package and its seats (students keep whatever they were enrolled in). */
  async remove(p: Principal, id: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const pkg = await this.pkg(m, p, id, true);
      await scoped(m, p.organizationId).query(`DELETE FROM license_packages WHERE organization_id = $org AND id = $1`, [pkg.id]);
    });
  }

  // ------------------------------------------------------------------ seats

  async listSeats(p: Principal, packageId: string, page: V1PageRequest): Promise<{ rows: SeatRow[]; count: number }> {
    const m = this.ds.manager;
    const pkg = await this.pkg(m, p, packageId);
    const since = v1SinceSql(page, 's.updated_at', 2, 's.created_at, s.id');
    const [{ n }] = await scoped(m, p.organizationId).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM license_seats s WHERE s.organization_id = $org AND s.package_id = $1${since.and}`, [
      pkg.id,
      ...since.params,
    ]);
    const rows: SeatRow[] = await scoped(m, p.organizationId).query(
      `SELECT ${SEAT_COLS} FROM license_seats s JOIN users u ON u.organization_id = $org AND u.id = s.user_id
        WHERE s.organization_id = $org AND s.package_id = $1${since.and} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [pkg.id, ...since.params],
    );
    return { rows, count: n };
  }

  private async seat(m: EntityManager, p: Principal, packageId: string, userId: string): Promise<SeatRow | undefined> {
    const [row]: SeatRow[] = await scoped(m, p.organizationId).query(
      `SELECT ${SEAT_COLS} FROM license_seats s JOIN users u ON u.organization_id = $org AND u.id = s.user_id
        WHERE s.organization_id = $org AND s.package_id = $1 AND s.user_id = $2`,
      [packageId, userId],
    );
    return row;
  }

  /** Under the package's row lock (pkg read after taking it): one more active seat fits in `license_count`. */
  private assertSeatLeft(pkg: PackageRow, field: string) {
    if (pkg.seats_active >= pkg.license_count) throw fieldError(field, NO_SEAT_LEFT);
  }

  /**
   * Seats the student (by `id`, or by `email` of an existing student): one active seat, never past
   * `license_count`; a student whose seat was deactivated gets it back (a seat again). A student
   * who holds an active seat already is a 400. Enrolls nobody.
   */
  async addSeat(p: Principal, packageId: string, dto: LicensePackageSeatCreateDto): Promise<SeatRow> {
    return this.ds.transaction(async (m) => {
      const pkg = await this.pkg(m, p, packageId, true);
      const ref = dto.student;
      let users: { id: string; is_anonymized: boolean }[];
      if (ref.id !== undefined) {
        const uuid = decodeId('student', ref.id);
        users = uuid ? await scoped(m, p.organizationId).query<{ id: string; is_anonymized: boolean }[]>(`SELECT id, is_anonymized FROM users WHERE organization_id = $org AND id = $1`, [uuid]) : [];
        if (!users.length) throw invalidPk('student', ref.id);
      } else {
        users = await scoped(m, p.organizationId).query<{ id: string; is_anonymized: boolean }[]>(`SELECT id, is_anonymized FROM users WHERE organization_id = $org AND lower(email) = lower($1)`, [
          ref.email,
        ]);
        if (!users.length) throw fieldError('student', 'No student with this email exists.');
      }
      const user = users[0];
      if (user.is_anonymized) throw fieldError('student', ANONYMIZED_USER);
      const existing = await this.seat(m, p, pkg.id, user.id);
      if (existing?.active) throw fieldError('student', 'This student already holds a seat in this license package.');
      this.assertSeatLeft(pkg, 'student');
      if (existing) {
        await scoped(m, p.organizationId).query(`UPDATE license_seats SET active = true, updated_at = now() WHERE organization_id = $org AND id = $1`, [existing.id]);
      } else {
        if (pkg.max_unique_seats !== null) {
          const [{ n }] = await scoped(m, p.organizationId).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM license_seats WHERE organization_id = $org AND package_id = $1`, [pkg.id]);
          if (n >= pkg.max_unique_seats) throw fieldError('student', 'This license package has reached its maximum number of unique seats.');
        }
        await scoped(m, p.organizationId).query(`INSERT INTO license_seats (organization_id, package_id, user_id) VALUES ($org, $1, $2)`, [pkg.id, user.id]);
      }
      return (await this.seat(m, p, pkg.id, user.id))!;
    });
  }

  /** PUT / PATCH `{active}` of the seat of student `student_id`; activating takes a seat (never past `license_count`). */
  async updateSeat(p: Principal, packageId: string, studentId: string, dto: LicensePackageSeatUpdateDto): Promise<SeatRow> {
    return this.ds.transaction(async (m) => {
      const pkg = await this.pkg(m, p, packageId, true);
      const uuid = decodeId('student', studentId);
      const seat = uuid ? await this.seat(m, p, pkg.id, uuid) : undefined;
      if (!seat) throw notFound();
      if (dto.active === undefined || dto.active === seat.active) return seat;
      if (dto.active) this.assertSeatLeft(pkg, 'active');
      rowsOf(await scoped(m, p.organizationId).query<unknown>(`UPDATE license_seats SET active = $2, updated_at = now() WHERE organization_id = $org AND id = $1`, [seat.id, dto.active]));
      return { ...seat, active: dto.active };
    });
  }
}

import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { DateTime, declaredV1, nullable, PublicId } from '../../core/openapi/declared-shape';
import { iso } from '../../core/http/v1-rules';
import type { PackageRow, SeatRow } from './license-packages.service';

/** LicensePackageDetail (create and update answer it too: a superset of LicensePackageCreate / LicensePackageUpdate), declared once. */
export const LicensePackageSchema = declaredV1(
  ['LicensePackageDetail', 'LicensePackageCreate', 'LicensePackageUpdate'],
  Type.Object({
    id: PublicId(),
    name: Type.String(),
    license_count: Type.Integer(),
    tracking_id: Type.String(),
    start_date: DateTime(),
    end_date: nullable(DateTime()),
    domain_id: PublicId(),
    license_seats_remaining: Type.Integer(),
    offer_ids: Type.Array(PublicId()),
    max_unique_seats: nullable(Type.Integer()),
  }),
);

export function presentPackage(r: PackageRow): Static<typeof LicensePackageSchema> {
  return {
    id: encodeId('licensePackage', r.id),
    name: r.name,
    license_count: r.license_count,
    tracking_id: r.tracking_id,
    start_date: iso(r.start_date)!,
    end_date: iso(r.end_date),
    domain_id: encodeId('domain', r.domain_id),
    license_seats_remaining: Math.max(0, r.license_count - r.seats_active),
    offer_ids: r.offer_ids.map((id) => encodeId('offer', id)),
    max_unique_seats: r.max_unique_seats,
  };
}

/** LicensePackageSeat (and its create and update answers): `student {id, first_name, last_name, email}`, `enrolled_at` (when seated), `active`. */
export const LicenseSeatSchema = declaredV1(
  ['LicensePackageSeat', 'LicensePackageSeatCreate', 'LicensePackageSeatUpdate'],
  Type.Object({
    id: PublicId(),
    student: Type.Object({ id: PublicId(), first_name: Type.String(), last_name: Type.String(), email: Type.String({ format: 'email' }) }),
    enrolled_at: DateTime(),
    active: Type.Boolean(),
  }),
);

export function presentSeat(r: SeatRow): Static<typeof LicenseSeatSchema> {
  return {
    id: encodeId('licenseSeat', r.id),
    student: { id: encodeId('student', r.user_id), first_name: r.first_name, last_name: r.last_name, email: r.email },
    enrolled_at: iso(r.enrolled_at)!,
    active: r.active,
  };
}

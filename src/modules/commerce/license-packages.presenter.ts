import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import type { PackageRow, SeatRow } from './license-packages.service';

/** LicensePackageDetail (create and update answer it too: a superset of LicensePackageCreate / LicensePackageUpdate). */
export function presentPackage(r: PackageRow) {
  return {
    id: encodeId('licensePackage', r.id),
    name: r.name,
    license_count: r.license_count,
    tracking_id: r.tracking_id,
    start_date: iso(r.start_date),
    end_date: iso(r.end_date),
    domain_id: encodeId('domain', r.domain_id),
    license_seats_remaining: Math.max(0, r.license_count - r.seats_active),
    offer_ids: r.offer_ids.map((id) => encodeId('offer', id)),
    max_unique_seats: r.max_unique_seats,
  };
}

/** LicensePackageSeat: `student {id, first_name, last_name, email}`, `enrolled_at` (when seated), `active`. */
export function presentSeat(r: SeatRow) {
  return {
    id: encodeId('licenseSeat', r.id),
    student: { id: encodeId('student', r.user_id), first_name: r.first_name, last_name: r.last_name, email: r.email },
    enrolled_at: iso(r.enrolled_at),
    active: r.active,
  };
}

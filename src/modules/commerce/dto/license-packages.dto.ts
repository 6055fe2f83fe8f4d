import { ValidateBy } from 'class-validator';
import { DRF } from '../../../core/http/drf-messages';
import { requireMembers, StrList, V1Bool, V1DateTime, V1Int, V1Str } from '../../../core/http/v1-rules';

/** Offers named per request. */
export const MAX_PACKAGE_OFFERS = 1000;

/** PATCH /v1/license-packages/{id} (PatchedLicensePackageUpdateRequest); `offers` replaces the package's offers. */
export class LicensePackagePatchDto {
  @V1Str({ max: 256 }) tracking_id?: string;
  @V1DateTime() start_date?: string;
  @V1DateTime({ nullable: true }) end_date?: string | null;
  @StrList(64, MAX_PACKAGE_OFFERS) offers?: string[];
  @V1Int({ min: 0 }) license_count?: number;
  @V1Str({ min: 1, max: 500 }) name?: string;
  @V1Int({ min: 0, nullable: true }) max_unique_seats?: number | null;
}

/** POST /v1/license-packages (LicensePackageCreateRequest): `domain_id`, `license_count`, `name` required. */
export class LicensePackageCreateDto extends LicensePackagePatchDto {
  @V1Str({ required: true, min: 1, max: 255 }) domain_id: string;
}
requireMembers(LicensePackageCreateDto, ['license_count', 'name']);

export interface SeatStudentRef {
  id?: string;
  email?: string;
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function studentProblem(v: unknown): string | null {
  if (v === undefined) return DRF.required;
  if (v === null) return DRF.null;
  if (typeof v !== 'object' || Array.isArray(v)) return DRF.dict(v);
  const { id, email } = v as Record<string, unknown>;
  if (id === undefined && email === undefined) return 'Either id or email is required.';
  if (id !== undefined && (typeof id !== 'string' || !id.length || id.length > 64)) return `id: ${typeof id !== 'string' ? DRF.string : id.length ? DRF.maxLength(64) : DRF.blank}`;
  if (email !== undefined && (typeof email !== 'string' || email.length > 254 || !EMAIL_RE.test(email))) return `email: ${DRF.email}`;
  return null;
}

/** POST /v1/license-packages/{id}/students (LicensePackageSeatCreateRequest): `student {id}` or `student {email}`. */
export class LicensePackageSeatCreateDto {
  @ValidateBy({ name: 'v1SeatStudent', validator: { validate: (v: unknown) => studentProblem(v) === null, defaultMessage: (a) => studentProblem(a?.value) ?? 'Invalid value.' } })
  student: SeatStudentRef;
}

/** PUT and PATCH of a seat (LicensePackageSeatUpdateRequest): `active`. */
export class LicensePackageSeatUpdateDto {
  @V1Bool() active?: boolean;
}

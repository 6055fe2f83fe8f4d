/**
 * The `vilt_session_registrations` table (training owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A learner registered on a live-training session. @table vilt_session_registrations */
export interface ViltSessionRegistrationRow {
  id: string;
  organization_id: string;
  session_id: string;
  user_id: string;
  enrollment_id: string;
  attended: boolean;
  created_at: Date;
  updated_at: Date;
}

const VILT_SESSION_REGISTRATIONS_ROW: { [K in keyof ViltSessionRegistrationRow]-?: true } = {
  id: true,
  organization_id: true,
  session_id: true,
  user_id: true,
  enrollment_id: true,
  attended: true,
  created_at: true,
  updated_at: true,
};

/** Every column of `vilt_session_registrations` (unaliased), for a SELECT or RETURNING list: ViltSessionRegistrationRow's members, and only those. */
export const VILT_SESSION_REGISTRATIONS_COLUMNS = Object.keys(VILT_SESSION_REGISTRATIONS_ROW).join(', ');

/**
 * The `vilt_session_events` table (training owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** One meeting of a live-training session. @table vilt_session_events */
export interface ViltSessionEventRow {
  id: string;
  organization_id: string;
  session_id: string;
  display_name: string;
  description: string;
  post_registration_instructions: string;
  provider: string;
  instructor_email: string;
  instructor_name: string;
  instructor_id: string | null;
  starts_at: Date;
  ends_at: Date;
  timezone: string;
  location: string | null;
  event_link: string | null;
  sequence: number;
  created_at: Date;
  updated_at: Date;
}

const VILT_SESSION_EVENTS_ROW: { [K in keyof ViltSessionEventRow]-?: true } = {
  id: true,
  organization_id: true,
  session_id: true,
  display_name: true,
  description: true,
  post_registration_instructions: true,
  provider: true,
  instructor_email: true,
  instructor_name: true,
  instructor_id: true,
  starts_at: true,
  ends_at: true,
  timezone: true,
  location: true,
  event_link: true,
  sequence: true,
  created_at: true,
  updated_at: true,
};

/** Every column of `vilt_session_events` (unaliased), for a SELECT or RETURNING list: ViltSessionEventRow's members, and only those. */
export const VILT_SESSION_EVENTS_COLUMNS = Object.keys(VILT_SESSION_EVENTS_ROW).join(', ');

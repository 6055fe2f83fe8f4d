/**
 * The `vilt_sessions` table (training owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A live-training session (one or several events) of a lesson. @table vilt_sessions */
export interface ViltSessionRow {
  id: string;
  organization_id: string;
  lesson_id: string;
  is_multi_session: boolean;
  display_name: string;
  seats_total: number | null;
  registration_count: number;
  tags: string[];
  created_at: Date;
  updated_at: Date;
}

const VILT_SESSIONS_ROW: { [K in keyof ViltSessionRow]-?: true } = {
  id: true,
  organization_id: true,
  lesson_id: true,
  is_multi_session: true,
  display_name: true,
  seats_total: true,
  registration_count: true,
  tags: true,
  created_at: true,
  updated_at: true,
};

/** Every column of `vilt_sessions` (unaliased), for a SELECT or RETURNING list: ViltSessionRow's members, and only those. */
export const VILT_SESSIONS_COLUMNS = Object.keys(VILT_SESSIONS_ROW).join(', ');

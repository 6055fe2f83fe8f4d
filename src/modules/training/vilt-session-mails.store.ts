/**
 * The `vilt_session_mails` table (training owns it; docs/decisions/data-access.md): its row type, checked against
 * the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A calendar mail owed to a registered learner (one per meeting). @table vilt_session_mails */
export interface ViltSessionMailRow {
  id: string;
  organization_id: string;
  session_id: string | null;
  user_id: string;
  method: string;
  done_at: Date | null;
  created_at: Date;
  cancelled: object | null;
  event_id: string | null;
  sequence: number | null;
  reason: string | null;
}

const VILT_SESSION_MAILS_ROW: { [K in keyof ViltSessionMailRow]-?: true } = {
  id: true,
  organization_id: true,
  session_id: true,
  user_id: true,
  method: true,
  done_at: true,
  created_at: true,
  cancelled: true,
  event_id: true,
  sequence: true,
  reason: true,
};

/** Every column of `vilt_session_mails` (unaliased), for a SELECT or RETURNING list: ViltSessionMailRow's members, and only those. */
export const VILT_SESSION_MAILS_COLUMNS = Object.keys(VILT_SESSION_MAILS_ROW).join(', ');

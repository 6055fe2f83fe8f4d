/**
 * The `content_launches` table (content-runs owns it; docs/decisions/data-access.md): its row type, checked
 * against the migrated schema by row-types.spec.ts.
 */

/** One launch of an attempt: its single-use URL (kept as its hash) and the content session it opens. @table content_launches */
export interface ContentLaunchRow {
  id: string;
  organization_id: string;
  attempt_id: string;
  token_hash: Buffer;
  expires_at: Date;
  opened_at: Date | null;
  session_expires_at: Date;
  session_state: string;
  entry: string;
  fetched_at: Date | null;
  created_at: Date;
}

/**
 * The `lrs_keys` table (the LRS owns it; docs/decisions/data-access.md): its row type, checked
 * against the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** An LRS credential: an organization key, or a launch's own key (cmi5 fetch, TinCan `auth`). @table lrs_keys */
export interface LrsKeyRow {
  id: string;
  organization_id: string;
  key: string;
  /** SHA-256 of the secret */
  secret_hash: Buffer;
  can_read: boolean;
  can_write: boolean;
  name: string;
  launch_id: string | null;
  expires_at: Date | null;
  created_at: Date;
}

const LRS_KEYS_ROW: { [K in keyof LrsKeyRow]-?: true } = {
  id: true,
  organization_id: true,
  key: true,
  secret_hash: true,
  can_read: true,
  can_write: true,
  name: true,
  launch_id: true,
  expires_at: true,
  created_at: true,
};

/** Every column of `lrs_keys` (unaliased): LrsKeyRow's members, and only those. */
export const LRS_KEYS_COLUMNS = Object.keys(LRS_KEYS_ROW).join(', ');

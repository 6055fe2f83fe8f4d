/**
 * The `lrs_attachments` table (the LRS owns it; docs/decisions/data-access.md): its row type,
 * checked against the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** An attachment's content, by its SHA-2, per organization. @table lrs_attachments */
export interface LrsAttachmentRow {
  organization_id: string;
  sha2: string;
  content_type: string;
  content: Buffer;
}

const LRS_ATTACHMENTS_ROW: { [K in keyof LrsAttachmentRow]-?: true } = { organization_id: true, sha2: true, content_type: true, content: true };

/** Every column of `lrs_attachments` (unaliased): LrsAttachmentRow's members, and only those. */
export const LRS_ATTACHMENTS_COLUMNS = Object.keys(LRS_ATTACHMENTS_ROW).join(', ');

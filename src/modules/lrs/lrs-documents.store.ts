/**
 * The `lrs_documents` table (the LRS owns it; docs/decisions/data-access.md): its row type,
 * checked against the migrated schema by row-types.spec.ts, and the column list built from it.
 */

/** A state, activity profile or agent profile document ('' for a key member the kind has not). @table lrs_documents */
export interface LrsDocumentRow {
  id: string;
  organization_id: string;
  kind: string;
  activity_id: string;
  agent: string;
  registration: string;
  doc_id: string;
  content: Buffer;
  content_type: string;
  /** SHA-1 of the content, hex */
  etag: string;
  updated: Date;
}

const LRS_DOCUMENTS_ROW: { [K in keyof LrsDocumentRow]-?: true } = {
  id: true,
  organization_id: true,
  kind: true,
  activity_id: true,
  agent: true,
  registration: true,
  doc_id: true,
  content: true,
  content_type: true,
  etag: true,
  updated: true,
};

/** Every column of `lrs_documents` (unaliased): LrsDocumentRow's members, and only those. */
export const LRS_DOCUMENTS_COLUMNS = Object.keys(LRS_DOCUMENTS_ROW).join(', ');

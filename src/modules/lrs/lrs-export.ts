/**
 * The LRS's statements as an export reads them (POST /v2/exports/ `xapi-statements`;
 * docs/decisions/data-out.md): the LRS owns `lrs_statements`, so it declares here which columns leave
 * and in which order (its `(organization_id, stored, seq)` index), and modules/data-out runs it
 * through its export worker like its own resources. A plain object (no type from data-out, which
 * imports this file): data-out checks its shape where it lists it.
 *
 * The statement leaves as the LRS stores and answers it (GET /xapi/statements); the other columns
 * are its most filtered members, for a spreadsheet: its id, when the LRS stored it, its own
 * timestamp, verb, object activity, registration and whether it was voided.
 */
export const LRS_STATEMENTS_EXPORT = {
  table: 'lrs_statements',
  updatedSince: false,
  order: 't.stored, t.seq',
  columns: [
    { name: 'id', sql: 't.id', kind: 'text' },
    { name: 'stored', sql: 't.stored', kind: 'time' },
    { name: 'timestamp', sql: `t.statement->>'timestamp'`, kind: 'text' },
    { name: 'verb_id', sql: 't.verb_id', kind: 'text' },
    { name: 'activity_id', sql: 't.activity_id', kind: 'text' },
    { name: 'registration', sql: 't.registration', kind: 'text' },
    { name: 'voided', sql: 't.voided', kind: 'bool' },
    { name: 'statement', sql: 't.statement', kind: 'json' },
  ],
} as const;

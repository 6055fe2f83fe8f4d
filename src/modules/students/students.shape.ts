/** The student row the services read (the presenter shows it); not presentation, so a service imports it (docs/decisions/module-graph.md). */

/**
 * A row of STUDENT_COLUMNS as the list reads it: timestamptz columns either parsed (Date) or left
 * as pg's text (the prepared list reads them unparsed and parses only `created_at`, below).
 */
export interface StudentRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  is_inactive: boolean;
  external_id: string;
  created_at: Date | string;
}

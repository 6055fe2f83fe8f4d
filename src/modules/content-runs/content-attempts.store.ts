/**
 * The `content_attempts` table (content-runs owns it; docs/decisions/data-access.md): its row type, checked
 * against the migrated schema by row-types.spec.ts.
 */

/** One attempt of a learner at a web-package lesson, with its SCORM data model (`cmi`). @table content_attempts */
export interface ContentAttemptRow {
  id: string;
  organization_id: string;
  lesson_progress_id: string;
  user_id: string;
  lesson_id: string;
  web_package_id: string;
  number: number;
  standard: string;
  registration: string;
  cmi: Record<string, unknown>;
  state: string;
  total_time_cs: string;
  created_at: Date;
  updated_at: Date;
  /** the item of the package the attempt plays: SCORM item identifier, cmi5 AU id; '' for TinCan */
  item: string;
  /** what the item reported, for the lesson's rollup */
  completed: boolean;
  /** cmi5: the AU's moveOn was met (or it was waived) */
  satisfied: boolean;
  success: string | null;
  score: number | null;
}

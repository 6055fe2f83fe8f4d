/**
 * The `content_shared_data` table (content-runs owns it; docs/decisions/data-access.md): its row type, checked
 * against the migrated schema by row-types.spec.ts.
 */

/**
 * One SCORM 2004 shared data bucket of a learner (`adl.data.n.store`, docs/decisions/content-runs.md
 * "Shared data"): global to the organization (lesson progress and package null) or of the learner's
 * run of one package. @table content_shared_data
 */
export interface ContentSharedDataRow {
  id: string;
  organization_id: string;
  user_id: string;
  /** with web_package_id: the bucket belongs to this run of the package (sharedDataGlobalToSystem false); null: global */
  lesson_progress_id: string | null;
  web_package_id: string | null;
  /** the `adlcp:map` targetID */
  target_id: string;
  value: string;
  created_at: Date;
  updated_at: Date;
}

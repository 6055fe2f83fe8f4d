/**
 * The `training_credit_code_groups` table (the commerce module owns it): which student groups may use a training credit code (a link table).
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `training_credit_code_groups`, every column. @table training_credit_code_groups */
export interface TrainingCreditCodeGroupRow {
  organization_id: string;
  code_id: string;
  group_id: string;
  created_at: Date;
}

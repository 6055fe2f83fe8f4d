/**
 * The `training_credit_spends` table (the commerce module owns it): credits a purchase spent from a code (released on refund or failure).
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `training_credit_spends`, every column. @table training_credit_spends */
export interface TrainingCreditSpendRow {
  id: string;
  organization_id: string;
  code_id: string;
  user_id: string;
  purchase_id: string;
  credits: number;
  spent_cents: number;
  created_at: Date;
  released_at: Date | null;
}

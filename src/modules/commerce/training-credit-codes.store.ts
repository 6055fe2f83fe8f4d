/**
 * The `training_credit_codes` table (the commerce module owns it): an amount of credits that purchases spend.
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `training_credit_codes`, every column. @table training_credit_codes */
export interface TrainingCreditCodeRow {
  id: string;
  organization_id: string;
  code: string;
  credits_total: number;
  credits_used: number;
  expiration_date: Date | null;
  expire_content: boolean;
  tracking_identifier: string;
  available_to_all_students: boolean;
  available_for_all_offers: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A training credit code as the /v1 operations answer it (COLS). @table training_credit_codes */
export interface CreditCodeRow {
  id: string;
  code: string;
  credits_total: number;
  credits_used: number;
  expiration_date: Date | null;
  expire_content: boolean;
  tracking_identifier: string;
  available_to_all_students: boolean;
  available_for_all_offers: boolean;
}

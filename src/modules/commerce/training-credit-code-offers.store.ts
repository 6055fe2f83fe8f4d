/**
 * The `training_credit_code_offers` table (the commerce module owns it): which offers a training credit code pays for (a link table).
 * Row types are checked against the migrated schema by row-types.spec.ts
 * (docs/decisions/data-access.md); statements name the organization as `$org` (scoped()).
 */

/** A row of `training_credit_code_offers`, every column. @table training_credit_code_offers */
export interface TrainingCreditCodeOfferRow {
  organization_id: string;
  code_id: string;
  offer_id: string;
  created_at: Date;
}

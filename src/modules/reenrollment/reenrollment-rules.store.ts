import type { CycleUnit } from './cycle';

/**
 * The `reenrollment_rules` table (reenrollment owns it; docs/decisions/data-access.md): its row type
 * as the rule's statements answer it, checked against the migrated schema by row-types.spec.ts, and
 * the column list those statements read.
 */

/** A published course's re-enrollment rule. @table reenrollment_rules */
export interface ReenrollmentRuleRow {
  id: string;
  published_course_id: string;
  starts_at: Date;
  cycle_duration: number;
  cycle_duration_unit: CycleUnit;
  next_run_at: Date;
}

/** The rule and its organization, as the worker reads a due rule (every organization's). @table reenrollment_rules */
export interface DueReenrollmentRuleRow extends ReenrollmentRuleRow {
  organization_id: string;
}

const REENROLLMENT_RULE_ROW: { [K in keyof ReenrollmentRuleRow]-?: true } = {
  id: true,
  published_course_id: true,
  starts_at: true,
  cycle_duration: true,
  cycle_duration_unit: true,
  next_run_at: true,
};

/** The columns of ReenrollmentRuleRow (unaliased), for a SELECT or RETURNING list: its members, and only those. */
export const REENROLLMENT_RULE_COLUMNS = Object.keys(REENROLLMENT_RULE_ROW).join(', ');

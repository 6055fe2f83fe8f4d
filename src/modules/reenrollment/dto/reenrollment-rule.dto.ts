import { Choice, Int, requireMembers, V1DateTime } from '../../../core/http/v1-rules';

export const CYCLE_UNITS = ['MONTHS', 'DAYS'] as const;

/** UpdatePublishedCourseReenrollmentRuleRequest (PUT and PATCH alike, both partial, as published). */
export class ReenrollmentRuleUpdateRequest {
  @V1DateTime() starts_at?: string;
  @Int(1) cycle_duration?: number;
  @Choice(CYCLE_UNITS) cycle_duration_unit?: (typeof CYCLE_UNITS)[number];
}

/** PublishedCourseReenrollmentRuleRequest: starts_at and cycle_duration required. */
export class ReenrollmentRuleRequest extends ReenrollmentRuleUpdateRequest {}
requireMembers(ReenrollmentRuleRequest, ['starts_at', 'cycle_duration']);

import { V1Bool, V1DateTime, V1Enum, V1Int, V1Obj, V1Str, StrList, requireMembers } from '../../../core/http/v1-rules';
import { ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { TIMEZONES } from '../timezones';

/** The published ProviderEnum; `calendar` (the default) is a session without a conferencing provider. */
export const PROVIDERS = ['calendar', 'goto.meeting', 'goto.training', 'goto.webinar', 'goto.webcast', 'webex.meeting', 'webex.webinar', 'webex.training', 'zoom.meeting', 'zoom.webinar'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** PATCH /v1/ilt-instructors/{id} (PatchedIltInstructorRequest). */
export class InstructorPatchDto {
  @V1Str({ min: 1, max: 254 }) email?: string;
}

/** POST and PUT /v1/ilt-instructors (IltInstructorRequest): `email` required. */
export class InstructorDto extends InstructorPatchDto {}
requireMembers(InstructorDto, ['email']);

/** PATCH /v1/ilt-multi-session-events/{id}. */
export class MultiSessionEventPatchDto {
  @V1Str({ min: 1 }) lesson?: string;
  @V1Str({ min: 1, max: 200 }) display_name?: string;
  @V1Int({ min: 0, nullable: true }) seats_total?: number | null;
}

/** POST and PUT /v1/ilt-multi-session-events: `lesson` and `display_name` required. */
export class MultiSessionEventDto extends MultiSessionEventPatchDto {}
requireMembers(MultiSessionEventDto, ['lesson', 'display_name']);

/** POST /v1/ilt-sessions and PUT /v1/ilt-sessions/{id} (IltSessionRequest, flat: session and event members). */
export class IltSessionDto {
  @V1Str({ required: true, min: 1, max: 320 }) instructor_email: string;
  @V1Enum(PROVIDERS) provider?: Provider;
  @V1Str({ nullable: true }) lesson?: string | null;
  @V1Str({ nullable: true }) multi_session_event?: string | null;
  @V1Str({ required: true, min: 1, max: 200 }) display_name: string;
  @V1DateTime({ required: true }) starts_at: string;
  @V1DateTime({ required: true }) ends_at: string;
  @V1Enum(TIMEZONES, { required: true }) timezone: string;
  @V1Str({ max: 100000 }) description?: string;
  @V1Int({ min: 0, nullable: true }) seats_total?: number | null;
  @V1Str({ max: 100, nullable: true }) location?: string | null;
  @V1Str({ max: 2000, nullable: true }) event_link?: string | null;
  @V1Str({ max: 100000 }) post_registration_instructions?: string;
  @StrList(100) tags?: string[];
}

export class SessionRef {
  @V1Str({ required: true, min: 1 }) id: string;
}

/** POST /v1/vilt-session-registrations (ViltSessionRegistrationDetailRequest). */
export class RegistrationCreateDto {
  @V1Obj({ required: true }) @ValidateNested() @Type(() => SessionRef) vilt_session: SessionRef;
  @V1Str({ required: true, min: 1 }) enrollment_id: string;
}

/** PATCH /v1/vilt-session-registrations/{id}: only `attended`. */
export class RegistrationPatchDto {
  @V1Bool() attended?: boolean;
}

/** PUT: `attended` required. */
export class RegistrationUpdateDto extends RegistrationPatchDto {}
requireMembers(RegistrationUpdateDto, ['attended']);

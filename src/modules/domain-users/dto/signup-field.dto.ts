import { ApiProperty } from '@nestjs/swagger';
import { ObjectList } from '../../../core/http/array-rules';
import { Present, requireMembers, V1Bool, V1Enum, V1Int, V1Str } from '../../../core/http/v1-rules';

export const SIGNUP_FIELD_TYPES = ['TEXT', 'PICKLIST', 'CHECKBOX'] as const;
/** Options a pick-list may have (one request). */
export const MAX_SIGNUP_FIELD_OPTIONS = 500;

/** SignupFieldOption as written: `value` (1..100 characters); `id` optional, to keep an existing option (read-modify-write). */
export class SignupFieldOptionDto {
  @V1Str({ min: 1, max: 64 }) id?: string;
  @V1Str({ required: true, min: 1, max: 100 }) value: string;
}

/**
 * PATCH /v1/domains/{domain_name}/signup-fields/{signup_field_id} (extension, CONVENTIONS §15): the
 * members of the published SignupField, every one optional. `options` replaces the field's options.
 */
export class SignupFieldPatchDto {
  @ApiProperty({ enum: SIGNUP_FIELD_TYPES, required: false })
  @V1Enum(SIGNUP_FIELD_TYPES)
  type?: (typeof SIGNUP_FIELD_TYPES)[number];
  @V1Str({ min: 1, max: 500 }) label?: string;
  @V1Str({ max: 4096 }) help_text?: string;
  @V1Str({ max: 500 }) regex_validator?: string;
  @V1Str({ max: 100 }) regex_validator_error_text?: string;
  @V1Bool() required?: boolean;
  @V1Bool() active?: boolean;
  @V1Int({ min: 0, max: 2147483647 }) order?: number;
  @ApiProperty({ type: [SignupFieldOptionDto], required: false, description: 'PICKLIST only: the choices, in order' })
  @Present()
  @ObjectList(() => SignupFieldOptionDto, MAX_SIGNUP_FIELD_OPTIONS)
  options?: SignupFieldOptionDto[];
}

/** POST and PUT: `label` required (the published SignupField's required member); `type` defaults to TEXT. */
export class SignupFieldCreateDto extends SignupFieldPatchDto {}
requireMembers(SignupFieldCreateDto, ['label']);

import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';

/** _SignupFieldValueCreateAttributes / _SignupFieldValueUpdateAttributes: `value`, required. */
export class SignupFieldValueAttributesV2 {
  @IsDefined() @IsString() @MaxLength(10_000) value: string;
}

/**
 * _SignupFieldValueCreateData (`id` is the SIGNUP FIELD's id, as published) and
 * _SignupFieldValueUpdateData (`id` is the VALUE's id): the same shape. Any string id: an
 * undecodable one is that item's not_found.
 */
export class SignupFieldValueItemV2 {
  @IsIn(['signup-field-values']) type: string;
  @IsString() id: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => SignupFieldValueAttributesV2) attributes: SignupFieldValueAttributesV2;
}

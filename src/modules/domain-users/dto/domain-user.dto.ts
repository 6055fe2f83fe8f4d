import { Type } from 'class-transformer';
import { Allow, ArrayMinSize, IsBoolean, IsDefined, IsEmail, IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { ObjectList } from '../../../core/http/array-rules';
import { NoNul, Present, PresentNotNull } from '../../../core/http/v1-rules';

export class DomainUserUserDto {
  @IsDefined({ message: 'This field is required.' }) @IsString() @NoNul() @MaxLength(254) @IsEmail({}, { message: 'Enter a valid email address.' }) email!: string;
  @Present() @IsString() @NoNul() @MaxLength(50) first_name?: string;
  @Present() @IsString() @NoNul() @MaxLength(50) last_name?: string;
}

/** DomainUserCreateRequest: `user` required; `expires_at` parsed by the service (ignored on public domains). */
export class DomainUserCreateDto {
  @IsDefined({ message: 'This field is required.' }) @IsObject({ message: 'Must be an object.' }) @ValidateNested() @Type(() => DomainUserUserDto) user!: DomainUserUserDto;
  @Present() @IsBoolean() active?: boolean;
  @PresentNotNull() @IsBoolean() marketing_optin?: boolean | null;
  @Allow() expires_at?: unknown;
}

/** DomainUserUpdateRequest: only active, expires_at and access_code ({id} or null to remove it). */
export class DomainUserUpdateDto {
  @Present() @IsBoolean() active?: boolean;
  @Allow() expires_at?: unknown;
  @Allow() access_code?: unknown;
}

export class InviteCreateDto {
  @Present() @IsBoolean() send_email?: boolean;
}

export class SignupFieldRefDto {
  @IsDefined({ message: 'This field is required.' }) @IsString() @MinLength(1) @MaxLength(64) id!: string;
}

/** UserSignupFieldValueRequest */
export class SignupFieldValueCreateDto {
  @IsDefined({ message: 'This field is required.' }) @IsObject({ message: 'Must be an object.' }) @ValidateNested() @Type(() => SignupFieldRefDto) signup_field!: SignupFieldRefDto;
  @IsDefined({ message: 'This field is required.' }) @IsString() @NoNul() @MinLength(1) @MaxLength(10000) value!: string;
}

export class BulkSignupFieldValueDto {
  @IsDefined({ message: 'This field is required.' }) @IsString() @MinLength(1) @MaxLength(64) id!: string;
  @IsDefined({ message: 'This field is required.' }) @IsString() @NoNul() @MinLength(1) @MaxLength(10000) value!: string;
}

/** BulkUserSignupInfoRequest: signup_fields [{id, value}] */
export class BulkSignupFieldsDto {
  @IsDefined({ message: 'This field is required.' })
  @ObjectList(() => BulkSignupFieldValueDto)
  signup_fields!: BulkSignupFieldValueDto[];
}

export class BulkUserDto {
  @IsDefined({ message: 'This field is required.' }) @IsString() @NoNul() @MinLength(1) @MaxLength(254) @IsEmail({}, { message: 'Enter a valid email address.' }) email!: string;
  @Present() @IsString() @NoNul() @MaxLength(150) first_name?: string;
  @Present() @IsString() @NoNul() @MaxLength(150) last_name?: string;
  @Present() @IsBoolean() active?: boolean;
  @PresentNotNull() @IsBoolean() marketing_optin?: boolean | null;
  @Allow() expires_at?: unknown;
}

/** BulkDomainUserCreateRequest (OpenAPI-only operation): users [1..1000]. */
export class BulkDomainUsersDto {
  @IsDefined({ message: 'This field is required.' })
  @ArrayMinSize(1)
  @ObjectList(() => BulkUserDto, 1000)
  users!: BulkUserDto[];
}

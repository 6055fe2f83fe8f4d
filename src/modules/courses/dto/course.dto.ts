import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsEmail, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { MAX_CERTIFICATE_VALIDITY_DAYS } from './course.v1.dto';

/** CourseCreateRequest (attributes of a POST /v2/courses/ item). */
export class CourseCreateAttributes {
  @IsString() @Length(1, 500) title: string;
  @IsOptional() @IsString() @MaxLength(500) short_description?: string | null;
  @IsOptional() @IsString() @MaxLength(1_000_000) long_description_html?: string | null;
  @IsOptional() @IsBoolean() enforce_sequential_navigation?: boolean | null;
  @IsOptional() @IsString() @MaxLength(254) @IsEmail() created_by_email?: string | null;
  /** extension (CONVENTIONS §15): default true */
  @IsOptional() @IsBoolean() issues_certificate?: boolean | null;
  /** extension (CONVENTIONS §15): days, or null (never expires; the default) */
  @IsOptional() @IsInt() @Min(1) @Max(MAX_CERTIFICATE_VALIDITY_DAYS) certificate_validity_days?: number | null;
}

/** _CourseCreateData */
export class CourseCreateItem {
  @IsIn(['courses']) type: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => CourseCreateAttributes) attributes: CourseCreateAttributes;
}

/** CourseUpdateRequest: every member optional; null or omitted leaves the value unchanged. */
export class CourseUpdateAttributes {
  @IsOptional() @IsString() @Length(1, 500) title?: string | null;
  @IsOptional() @IsString() @MaxLength(500) short_description?: string | null;
  @IsOptional() @IsString() @MaxLength(1_000_000) long_description_html?: string | null;
  @IsOptional() @IsBoolean() enforce_sequential_navigation?: boolean | null;
  /** extension (CONVENTIONS §15): null or omitted leaves it unchanged */
  @IsOptional() @IsBoolean() issues_certificate?: boolean | null;
  /** extension (CONVENTIONS §15): omitted leaves it unchanged; null removes the validity (certificates never expire) */
  @ValidateIf((_o, v) => v !== null && v !== undefined) @IsInt() @Min(1) @Max(MAX_CERTIFICATE_VALIDITY_DAYS) certificate_validity_days?: number | null;
}

/** _CourseUpdateData */
export class CourseUpdateItem {
  @IsIn(['courses']) type: string;
  /** Any string: an id that cannot be decoded (too long included) is that item's not_found (v2-api.md rule 4), not a validation_error. */
  @IsString() id: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => CourseUpdateAttributes) attributes: CourseUpdateAttributes;
}

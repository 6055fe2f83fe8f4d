import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsEmail, IsIn, IsObject, IsOptional, IsString, Length, MaxLength, ValidateNested } from 'class-validator';

/** CourseCreateRequest (attributes of a POST /v2/courses/ item). */
export class CourseCreateAttributes {
  @IsString() @Length(1, 500) title: string;
  @IsOptional() @IsString() @MaxLength(500) short_description?: string | null;
  @IsOptional() @IsString() @MaxLength(1_000_000) long_description_html?: string | null;
  @IsOptional() @IsBoolean() enforce_sequential_navigation?: boolean | null;
  @IsOptional() @IsString() @MaxLength(254) @IsEmail() created_by_email?: string | null;
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
}

/** _CourseUpdateData */
export class CourseUpdateItem {
  @IsIn(['courses']) type: string;
  /** Any string: an id that cannot be decoded (too long included) is that item's not_found (v2-api.md rule 4), not a validation_error. */
  @IsString() id: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => CourseUpdateAttributes) attributes: CourseUpdateAttributes;
}

import { Type } from 'class-transformer';
import { Allow, IsBoolean, IsDefined, IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { Present } from '../../../core/http/v1-rules';

/**
 * Request members of PublishedCourseCreateRequest / PublishedCourseRequest (v1 OpenAPI).
 * `course` and the timestamps are checked by the service (nicer field errors than nested
 * class-validator output); the rest here.
 */
export class PublishedCourseWriteDto {
  @Present() @IsString() @MaxLength(100) slug?: string;
  @Present() @IsBoolean() hidden?: boolean;
  @Present() @IsBoolean() strict_enforce_group_visibility?: boolean;
  @Present() @IsBoolean() registration_required?: boolean;
  @Allow() registration_starts_at?: unknown;
  @Allow() registration_ends_at?: unknown;
  @Present() @IsBoolean() restrict_access_start_end_dates?: boolean;
  @Present() @IsBoolean() allow_self_service_reenroll?: boolean;
  @Present() @IsBoolean() unique_progress_per_enrollment?: boolean;
  @Present() @IsBoolean() require_all_prerequisites?: boolean;
}

export class PublishedCourseCreateDto extends PublishedCourseWriteDto {
  /** `{"id": "<course id>"}`, required. */
  @Allow() course?: unknown;
}

export class IdRefDto {
  @IsDefined({ message: 'This field is required.' }) @IsString() @MinLength(1) @MaxLength(64) id!: string;
}

/** PublishedCourseTagRequest: `{tag: {id}}`. */
export class PublishedCourseTagDto {
  @IsDefined({ message: 'This field is required.' }) @IsObject({ message: 'Must be an object.' }) @ValidateNested() @Type(() => IdRefDto) tag!: IdRefDto;
}

/** PublishedCourseGroupVisibilityRequest: `{student_group: {id}, is_visible}`. */
export class PublishedCourseVisibilityDto {
  @IsDefined({ message: 'This field is required.' }) @IsObject({ message: 'Must be an object.' }) @ValidateNested() @Type(() => IdRefDto) student_group!: IdRefDto;
  @IsDefined({ message: 'This field is required.' }) @IsBoolean() is_visible!: boolean;
}

/** PublishedCoursePrerequisiteRequest: `{published_course: {id}}`. */
export class PublishedCoursePrerequisiteDto {
  @IsDefined({ message: 'This field is required.' }) @IsObject({ message: 'Must be an object.' }) @ValidateNested() @Type(() => IdRefDto) published_course!: IdRefDto;
}

/** PublishedCourseStudentGroupPrerequisiteRequest: `{student_group: {id}}`. */
export class PublishedCourseGroupPrerequisiteDto {
  @IsDefined({ message: 'This field is required.' }) @IsObject({ message: 'Must be an object.' }) @ValidateNested() @Type(() => IdRefDto) student_group!: IdRefDto;
}

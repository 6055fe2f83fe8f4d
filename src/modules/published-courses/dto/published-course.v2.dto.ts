import { Type } from 'class-transformer';
import { Present } from '../../../core/http/v1-rules';
import { Closed } from '../../../core/http/closed';
import { IsBoolean, IsDefined, IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

const SET_WHEN_PUBLISHING = 'is set when publishing; it cannot change here.';

/**
 * PublishedCourseUpdateAttributes (additionalProperties: false), and the members
 * PublishedCoursePublishAttributes adds `slug` to (null: the default on publish, unchanged on update;
 * a null window bound clears it).
 */
@Closed({ slug: SET_WHEN_PUBLISHING, course: SET_WHEN_PUBLISHING, domain: SET_WHEN_PUBLISHING })
export class PublishedCourseSettingsV2 {
  @IsOptional() @IsBoolean() is_hidden?: boolean | null;
  @IsOptional() @IsBoolean() visible_on_catalog?: boolean | null;
  @IsOptional() @IsBoolean() open_access?: boolean | null;
  @IsOptional() @IsBoolean() strict_enforce_group_visibility?: boolean | null;
  @IsOptional() @IsIn(['GROUP', 'CATEGORY']) visibility_override_type?: 'GROUP' | 'CATEGORY' | null;
  /** ISO 8601 with an offset; checked by the service (v2-dates) */
  @IsOptional() @IsString() @MaxLength(64) access_period_starts_at?: string | null;
  @IsOptional() @IsString() @MaxLength(64) access_period_ends_at?: string | null;
  @IsOptional() @IsBoolean() restrict_access_start_end_dates?: boolean | null;
  @IsOptional() @IsBoolean() allow_self_service_reenroll?: boolean | null;
  @IsOptional() @IsBoolean() unique_progress_per_enrollment?: boolean | null;
  @IsOptional() @IsBoolean() require_all_prerequisites?: boolean | null;
}

/** PublishedCoursePublishAttributes (additionalProperties: false): the settings and `slug` (create-only). */
@Closed()
export class PublishedCoursePublishAttributesV2 extends PublishedCourseSettingsV2 {
  @IsOptional() @IsString() @MaxLength(100) slug?: string | null;
}

class CourseIdentifierV2 {
  @IsIn(['courses']) type: string;
  @IsString() @MaxLength(64) id: string;
}

class DomainIdentifierV2 {
  @IsIn(['domains']) type: string;
  @IsString() @MaxLength(64) id: string;
}

class CourseRelationshipV2 {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => CourseIdentifierV2) data: CourseIdentifierV2;
}

class DomainRelationshipV2 {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => DomainIdentifierV2) data: DomainIdentifierV2;
}

/** PublishRelationships: the course and the domain, both required. */
export class PublishRelationshipsV2 {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => CourseRelationshipV2) course: CourseRelationshipV2;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => DomainRelationshipV2) domain: DomainRelationshipV2;
}

/** _PublishedCourseCreateData */
export class PublishedCourseCreateItemV2 {
  @IsIn(['published-courses']) type: string;
  @Present() @IsObject() @ValidateNested() @Type(() => PublishedCoursePublishAttributesV2) attributes?: PublishedCoursePublishAttributesV2;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => PublishRelationshipsV2) relationships: PublishRelationshipsV2;
}

/** _PublishedCourseUpdateData */
export class PublishedCourseUpdateItemV2 {
  @IsIn(['published-courses']) type: string;
  /** Any string: an id that cannot be decoded is that item's not_found (v2-api.md rule 4). */
  @IsString() id: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => PublishedCourseSettingsV2) attributes: PublishedCourseSettingsV2;
}

/** The attribute names each operation accepts (additionalProperties: false in the published schemas). */
export const SETTINGS_MEMBERS = [
  'is_hidden',
  'visible_on_catalog',
  'open_access',
  'strict_enforce_group_visibility',
  'visibility_override_type',
  'access_period_starts_at',
  'access_period_ends_at',
  'restrict_access_start_end_dates',
  'allow_self_service_reenroll',
  'unique_progress_per_enrollment',
  'require_all_prerequisites',
] as const;

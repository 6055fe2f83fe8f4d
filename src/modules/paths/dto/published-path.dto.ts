import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { requireMembers, V1Bool, V1Int, V1Obj, V1Str } from '../../../core/http/v1-rules';

/** Django's SlugField: letters, numbers, underscores or hyphens. */
const SLUG = { pattern: /^[-a-zA-Z0-9_]+$/, patternMessage: 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.' };

/** The editable members of a path (PathRequest); all optional, as on PUT/PATCH /v1/paths/{id}. */
export class PathFieldsDto {
  @V1Str({ min: 1, max: 500 }) title?: string;
  @V1Str({ max: 300 }) short_description?: string;
  @V1Str({ max: 100000 }) long_description_html?: string;
  @V1Str({ max: 100000 }) header_html?: string;
  @V1Str({ min: 1, max: 50 }) course_name_singular?: string;
  @V1Str({ min: 1, max: 50 }) course_name_plural?: string;
}

/** `path` of a published-path create: only `title` is required. */
export class NewPathDto extends PathFieldsDto {}
requireMembers(NewPathDto, ['title']);

/** PATCH: no member required. */
export class PublishedPathPatchDto {
  @V1Str({ min: 1, max: 100, ...SLUG }) slug?: string;
  @V1Bool() hidden?: boolean;
  @V1Bool() strict_enforce_group_visibility?: boolean;
  @V1Bool() unique_progress_per_enrollment?: boolean;
}

/** PUT: `slug` required (UpdatePublishedPathRequest). */
export class PublishedPathPutDto extends PublishedPathPatchDto {}
requireMembers(PublishedPathPutDto, ['slug']);

/** POST /v1/domains/{domain_name}/published-paths (PublishedPathRequest): `slug` and `path` required. */
export class PublishedPathCreateDto {
  @V1Str({ required: true, min: 1, max: 100, ...SLUG }) slug: string;
  @V1Obj({ required: true }) @ValidateNested() @Type(() => NewPathDto) path: NewPathDto;
  @V1Bool() hidden?: boolean;
  @V1Bool() strict_enforce_group_visibility?: boolean;
  @V1Bool() unique_progress_per_enrollment?: boolean;
}

export class IdRefDto {
  @V1Str({ required: true, min: 1, max: 200 }) id: string;
}

/** POST .../labels: `{label: {id}}`. */
export class PathLabelCreateDto {
  @V1Obj({ required: true }) @ValidateNested() @Type(() => IdRefDto) label: IdRefDto;
}

/** POST .../tags: `{tag: {id}}`. */
export class PathTagCreateDto {
  @V1Obj({ required: true }) @ValidateNested() @Type(() => IdRefDto) tag: IdRefDto;
}

/** POST .../visibility-overrides: `{student_group: {id}, is_visible}`, both required. */
export class PathVisibilityCreateDto {
  @V1Obj({ required: true }) @ValidateNested() @Type(() => IdRefDto) student_group: IdRefDto;
  @V1Bool({ required: true }) is_visible: boolean;
}

/** POST .../path-items: `order` and `published_course {id}` required. */
export class PathItemCreateDto {
  @V1Int({ required: true }) order: number;
  @V1Obj({ required: true }) @ValidateNested() @Type(() => IdRefDto) published_course: IdRefDto;
}

/** PUT/PATCH .../path-items/{id}: only `order` changes. */
export class PathItemUpdateDto {
  @V1Int() order?: number;
}

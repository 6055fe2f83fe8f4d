import { Type } from 'class-transformer';
import { ObjectList } from '../../../core/http/array-rules';
import { PresentNotNull } from '../../../core/http/v1-rules';
import { Closed } from '../../../core/http/closed';
import { IsBoolean, IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';

const MAX_INT = 2147483647;
export const CONTENT_ITEM_TYPES = ['HTML', 'VIDEO', 'AUDIO', 'QUIZ', 'RATING'] as const;

/** RatingConfig (additionalProperties: false: an unknown key is the item's validation_error). */
@Closed()
export class RatingConfig {
  @IsOptional() @IsString() @MaxLength(2000) rating_question?: string | null;
  @IsOptional() @IsString() @MaxLength(2000) additional_feedback_question?: string | null;
  @IsOptional() @IsBoolean() include_additional_feedback?: boolean | null;
  @IsOptional() @IsString() @MaxLength(500) rating_scale_low_label?: string | null;
  @IsOptional() @IsString() @MaxLength(500) rating_scale_high_label?: string | null;
  @IsOptional() @IsIn([5, 10]) rating_scale?: 5 | 10 | null;
}
export const RATING_CONFIG_KEYS = new Set(['rating_question', 'additional_feedback_question', 'include_additional_feedback', 'rating_scale_low_label', 'rating_scale_high_label', 'rating_scale']);

/** ContentItemRequest: one ordered block of a MODULAR lesson. */
export class ContentItemRequest {
  @IsOptional() @IsString() @MaxLength(64) id?: string | null;
  @IsIn(CONTENT_ITEM_TYPES as unknown as string[]) type: (typeof CONTENT_ITEM_TYPES)[number];
  @IsOptional() @IsString() @MaxLength(500) header?: string | null;
  @IsOptional() @IsString() @MaxLength(1_000_000) content_html?: string | null;
  @IsOptional() @IsString() @MaxLength(64) asset_id?: string | null;
  @IsOptional() @IsString() @MaxLength(64) quiz_id?: string | null;
  @PresentNotNull() @IsObject() @ValidateNested() @Type(() => RatingConfig) rating?: RatingConfig | null;
}

/** LessonCreateRequest */
export class LessonCreateAttributes {
  @IsString() @MaxLength(64) course_id: string;
  @IsIn(['HTML', 'MODULAR', 'QUIZ']) type: 'HTML' | 'MODULAR' | 'QUIZ';
  @IsString() @Length(1, 500) title: string;
  @IsOptional() @IsString() @MaxLength(1_000_000) description_html?: string | null;
  @IsOptional() @IsString() @MaxLength(1_000_000) content_html?: string | null;
  @PresentNotNull() @ObjectList(() => ContentItemRequest, 15) content_items?: ContentItemRequest[] | null;
  @IsOptional() @IsString() @MaxLength(64) quiz_id?: string | null;
  @IsOptional() @IsInt() @Min(0) @Max(MAX_INT) order?: number | null;
}

/** _LessonCreateData */
export class LessonCreateItem {
  @IsIn(['lessons']) type: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => LessonCreateAttributes) attributes: LessonCreateAttributes;
}

/**
 * LessonUpdateRequest: title, description_html, order and quiz_id may be omitted but not null;
 * content_html and content_items accept null (= leave unchanged). `type` is read-only and ignored.
 */
export class LessonUpdateAttributes {
  @ValidateIf((o) => o.title !== undefined) @IsString() @Length(1, 500) title?: string;
  @ValidateIf((o) => o.description_html !== undefined) @IsString() @MaxLength(1_000_000) description_html?: string;
  @IsOptional() @IsString() @MaxLength(1_000_000) content_html?: string | null;
  @ValidateIf((o) => o.order !== undefined) @IsInt() @Min(0) @Max(MAX_INT) order?: number;
  @PresentNotNull() @ObjectList(() => ContentItemRequest, 15) content_items?: ContentItemRequest[] | null;
  @ValidateIf((o) => o.quiz_id !== undefined) @IsString() @Length(1, 64) quiz_id?: string;
}

/** _LessonBatchUpdateData */
export class LessonUpdateItem {
  @IsIn(['lessons']) type: string;
  /** Any string: an id that cannot be decoded (too long included) is that item's not_found (v2-api.md rule 4), not a validation_error. */
  @IsString() id: string;
  @IsDefined() @IsObject() @ValidateNested() @Type(() => LessonUpdateAttributes) attributes: LessonUpdateAttributes;
}

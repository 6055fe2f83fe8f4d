import { V1Str } from '../../../core/http/v1-rules';

/**
 * POST /v1/group-categories, PUT and PATCH /v1/group-categories/{group_category_id} (extension,
 * CONVENTIONS §15): the published GroupCategory, `name` required (1..255 characters) on all three
 * (it is the only writable member, so PATCH takes it too).
 */
export class GroupCategoryDto {
  @V1Str({ required: true, min: 1, max: 255 }) name: string;
}

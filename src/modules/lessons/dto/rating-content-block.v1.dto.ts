import { Bool, Int, Str } from '../../../core/http/v1-rules';

/**
 * RatingContentBlockRequest / PatchedRatingContentBlockRequest: no member is required, so PUT and
 * PATCH are the same partial update. `rating_scale` (5 or 10) is stored on the course.
 */
export class RatingContentBlockRequest {
  @Str({ max: 500 }) rating_question?: string;
  @Str({ max: 500 }) additional_feedback_question?: string;
  @Bool() include_additional_feedback?: boolean;
  @Int() rating_scale?: number;
  @Str({ max: 100 }) rating_scale_low_label?: string;
  @Str({ max: 100 }) rating_scale_high_label?: string;
}

import { requireMembers, V1Bool, V1DateTime, V1Enum, V1Int, V1Str } from '../../../core/http/v1-rules';

export const DISCOUNT_TYPES = ['PERCENT_OFF', 'PRICE_OVERRIDE'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** PUT and PATCH of a promo code pool (PromoCodePoolUpdateRequest): the window, name, active, expire_content. */
export class PromoCodePoolPatchDto {
  @V1Str({ min: 1, max: 255 }) name?: string;
  @V1Bool() active?: boolean;
  @V1DateTime() starts_at?: string;
  @V1DateTime({ nullable: true }) expires_at?: string | null;
  @V1Bool() expire_content?: boolean;
}

/** PUT: `name` and `starts_at` required (resource-reference-api.md), the rest as PATCH. */
export class PromoCodePoolPutDto extends PromoCodePoolPatchDto {}
requireMembers(PromoCodePoolPutDto, ['name', 'starts_at']);

/** POST /v1/promo-code-pools (PromoCodePoolCreateRequest): `name`, `starts_at`, `discount_type` required. */
export class PromoCodePoolCreateDto extends PromoCodePoolPatchDto {
  @V1Enum(DISCOUNT_TYPES, { required: true }) discount_type: DiscountType;
  @V1Int({ min: 0, nullable: true }) price_cents?: number | null;
  @V1Int({ min: 0, max: 100, nullable: true }) percent_off?: number | null;
  @V1Bool() single_use_per_user?: boolean;
}
requireMembers(PromoCodePoolCreateDto, ['name', 'starts_at']);

/** PATCH of a promo code (PatchedPromoCodeUpdateRequest). */
export class PromoCodePatchDto {
  @V1Str({ min: 1, max: 40 }) code?: string;
  @V1Int({ min: 0 }) max_uses?: number;
  @V1Bool() active?: boolean;
}

/** PUT of a promo code: `code` and `max_uses` required. */
export class PromoCodePutDto extends PromoCodePatchDto {}
requireMembers(PromoCodePutDto, ['code', 'max_uses']);

/** POST /v1/promo-codes (PromoCodeRequest): `code`, `max_uses`, `promo_code_pool_id` required. */
export class PromoCodeCreateDto extends PromoCodePatchDto {
  @V1Str({ required: true, min: 1, max: 64 }) promo_code_pool_id: string;
}
requireMembers(PromoCodeCreateDto, ['code', 'max_uses']);

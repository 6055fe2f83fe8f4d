import { Allow } from 'class-validator';
import { V1Enum, V1Int, V1Obj, V1Str } from '../../../core/http/v1-rules';
import { MAX_QUANTITY } from '../offers.presenter';
import { PAYMENT_PROCESSORS, PURCHASE_STATES } from '../purchases.store';

const INT_MAX = 2147483647;

/**
 * POST /v1/purchases (CONVENTIONS §11, the storefront's checkout): `user` ({id} or {email,
 * first_name, last_name}; checked by the service) and `offer_id` required.
 */
export class CheckoutDto {
  @V1Obj({ required: true }) user!: Record<string, unknown>;
  @V1Str({ required: true, min: 1, max: 64 }) offer_id!: string;
  @V1Int({ min: 1, max: MAX_QUANTITY }) quantity?: number;
  @V1Str({ min: 1, max: 255, nullable: true }) promo_code?: string | null;
  @V1Str({ min: 1, max: 255, nullable: true }) training_credit_code?: string | null;
  @V1Enum(PAYMENT_PROCESSORS) payment_processor?: string;
  @V1Str({ max: 255 }) payment_processor_order_id?: string;
  @V1Int({ min: 0, max: INT_MAX, nullable: true }) tax_price_cents?: number | null;
}

/** PUT and PATCH /v1/purchases/{purchase_id} (both partial, as published). */
export class PurchaseUpdateDto {
  @V1Enum(PURCHASE_STATES) state?: string;
  @Allow() refunded_at?: unknown;
  @V1Int({ min: 0, max: INT_MAX, nullable: true }) refund_cents?: number | null;
  @V1Int({ min: 0, max: INT_MAX }) price_cents?: number;
  @V1Int({ min: 0, max: INT_MAX, nullable: true }) tax_price_cents?: number | null;
}

/** POST /v1/purchases/{purchase_id}/fulfill (PurchaseFulfillmentRequest). */
export class PurchaseFulfillDto {
  @V1Enum(['SUCCESS', 'FAILED', 'CANCELLED'], { required: true }) state!: 'SUCCESS' | 'FAILED' | 'CANCELLED';
  @V1Str({ min: 1, max: 1000 }) error_msg?: string;
  @V1Str({ min: 1, max: 255 }) payment_processor_order_id?: string;
  @V1Str({ min: 1, max: 100000 }) payment_processor_response_data?: string;
}

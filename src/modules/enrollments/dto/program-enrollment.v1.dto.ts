import { Type } from 'class-transformer';
import { ValidateIf, ValidateNested } from 'class-validator';
import { V1Bool, V1DateTime, V1Enum, V1Int, V1Obj, V1Str } from '../../../core/http/v1-rules';

export const PURCHASE_STATES = ['CREATED', 'SUCCESS', 'FAILED', 'REFUNDED', 'CANCELLED', 'FLAGGED', 'PENDING'] as const;

class UserRefDto {
  @V1Str({ required: true, min: 1, max: 200 }) id: string;
}

class PriceDto {
  @V1Str({ min: 1, pattern: /^\d{1,10}(\.\d{1,2})?$/, patternMessage: 'A valid number is required.' }) amount?: string;
  @V1Str({ min: 1, pattern: /^[A-Za-z]{3}$/, patternMessage: 'A valid ISO 4217 currency code is required.' }) currency_code?: string;
}

/** EnrollmentPurchaseRequest: the purchase an enrollment create body declares (plan, published-path and published-course enrollments). */
export class PurchaseDto {
  @V1Obj() @ValidateNested() @Type(() => PriceDto) purchase_price?: PriceDto;
  @V1Enum(PURCHASE_STATES) purchase_state?: string;
  @V1DateTime() purchased_at?: string;
  @V1Int({ min: 0, nullable: true }) tax_price_cents?: number | null;
}

/** POST .../plan-enrollments and .../published-path-enrollments. */
export class ProgramEnrollmentCreateDto {
  @V1Obj({ required: true }) @ValidateNested() @Type(() => UserRefDto) user: UserRefDto;
  @V1DateTime() enrolled_at?: string;
  @V1DateTime() expires_at?: string;
  @V1Bool({ nullable: true }) active?: boolean | null;
  @ValidateIf((_o, v) => v !== null) @V1Obj() @ValidateNested() @Type(() => PurchaseDto) purchase?: PurchaseDto | null;
}

/** PUT and PATCH: both partial; only `expires_at` (nullable) and `active`. */
export class ProgramEnrollmentUpdateDto {
  @V1DateTime({ nullable: true }) expires_at?: string | null;
  @V1Bool() active?: boolean;
}

import { V1Bool, V1Enum, V1Int } from '../../../core/http/v1-rules';

/** The currencies an offer may be priced in (published CurrencyCodeEnum). */
export const CURRENCY_CODES = ['AUD', 'BRL', 'CAD', 'CNY', 'EUR', 'GBP', 'JPY', 'KRW', 'MXN', 'NZD', 'RUB', 'SEK', 'SGD', 'USD', 'ZAR'] as const;

/** PUT and PATCH /v1/offers/{offer_id}: every member optional (both are partial, as published). */
export class OfferUpdateDto {
  @V1Int({ min: 0 }) price_cents?: number;
  @V1Enum(CURRENCY_CODES) currency_code?: string;
  @V1Int({ min: 0, nullable: true }) price_credits?: number | null;
  @V1Bool() registration_open?: boolean;
}

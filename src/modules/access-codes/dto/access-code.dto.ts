import { V1Bool, V1DateTime, V1Enum, V1Int, V1Str } from '../../../core/http/v1-rules';

/** POST .../access-code-pools: `name` required. */
export class PoolCreateDto {
  @V1Str({ required: true, min: 1, max: 255 }) name: string;
  @V1Bool() active?: boolean;
  @V1DateTime({ nullable: true }) start_date?: string | null;
  @V1DateTime({ nullable: true }) end_date?: string | null;
  @V1Bool() expire_linked_to_domain_membership?: boolean;
}

/** PUT and PATCH of a pool: the same members, none required. */
export class PoolUpdateDto {
  @V1Str({ min: 1, max: 255 }) name?: string;
  @V1Bool() active?: boolean;
  @V1DateTime({ nullable: true }) start_date?: string | null;
  @V1DateTime({ nullable: true }) end_date?: string | null;
  @V1Bool() expire_linked_to_domain_membership?: boolean;
}

export const DURATION_UNITS = ['MONTHS', 'DAYS'] as const;

/** Create, PUT and PATCH of an access code: none required (a missing `code` is generated on create). */
export class AccessCodeDto {
  @V1Str({ min: 1, max: 40, pattern: /^\S+$/, patternMessage: 'The code may not contain spaces.' }) code?: string;
  @V1Bool() active?: boolean;
  @V1Int({ min: 0 }) max_uses?: number;
  @V1Int({ min: 1, nullable: true }) duration?: number | null;
  @V1Enum(DURATION_UNITS) duration_unit?: 'MONTHS' | 'DAYS';
}

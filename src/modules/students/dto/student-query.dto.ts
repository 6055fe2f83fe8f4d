import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Filter } from '../../../core/http/v1-rules';

/**
 * As the published StudentFilters. Query values arrive as strings; a repeated parameter arrives
 * as an array and is refused (422 naming the parameter). An email longer than any address (254)
 * matches nothing: the empty page, without a statement (Filter(), CONVENTIONS §16). Page parameters
 * are checked by parsePage.
 */
export class StudentListQuery {
  @ApiPropertyOptional({ description: 'exact match, case-insensitive' }) @Filter({ max: 254 }) 'filter[email]'?: string;
  @ApiPropertyOptional({ description: 'exact match' }) @IsOptional() @IsString() 'filter[first_name]'?: string;
  @ApiPropertyOptional({ description: 'exact match' }) @IsOptional() @IsString() 'filter[last_name]'?: string;
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'filter[is_inactive] must be true or false' })
  'filter[is_inactive]'?: 'true' | 'false';
  @ApiPropertyOptional({ format: 'date-time', description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change' })
  @Allow()
  'filter[updated_since]'?: unknown;
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 25 }) @Allow() 'page[size]'?: unknown;
  @ApiPropertyOptional() @Allow() 'page[cursor]'?: unknown;
}

/** `?domain=NAME`: the learner-facing domain the reset link points to; required. */
export class PasswordResetQuery {
  @ApiPropertyOptional({ description: 'a domain of the organization, e.g. learn.example.com' })
  @IsString({ message: 'domain is required and must be a domain name of the organization' })
  @IsNotEmpty({ message: 'domain is required and must be a domain name of the organization' })
  @MaxLength(253)
  domain: string;
}

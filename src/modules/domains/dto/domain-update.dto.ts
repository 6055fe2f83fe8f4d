import { IsIn, IsString, MaxLength } from 'class-validator';
import { NoNul, Present } from '../../../core/http/v1-rules';

/**
 * PUT and PATCH /v1/domains/{domain_name}: both partial (resource-reference-api.md section 4).
 * `catalog_title` and `access_code_message_html` may be blank although the published request has
 * minLength 1: a read gives `""` when they are unset, and a read written back must be accepted
 * (CONVENTIONS §9, which wins over the reference).
 */
export class DomainUpdateDto {
  @Present() @IsString() @NoNul() @MaxLength(100000) catalog_title?: string;
  @Present() @IsIn(['PUBLIC', 'PRIVATE', 'PRIVATE_CODE'], { message: 'Must be one of PUBLIC, PRIVATE, PRIVATE_CODE.' }) access?: 'PUBLIC' | 'PRIVATE' | 'PRIVATE_CODE';
  @Present() @IsString() @NoNul() @MaxLength(100000) access_code_message_html?: string;
  @Present() @IsString() @NoNul() @MaxLength(100000) marketing_message?: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { V1Bool, V1Enum, V1Str } from '../../../core/http/v1-rules';

export const DOMAIN_ACCESS = ['PUBLIC', 'PRIVATE', 'PRIVATE_CODE'] as const;

/**
 * POST /v1/domains (extension, CONVENTIONS §15): the members of the published Domain read schema.
 * `name` is required (read-only once made). `private` (deprecated upstream) and `access` are kept
 * consistent: `private: true` alone means PRIVATE, `private: false` alone PUBLIC, both together
 * must agree (`private` is true exactly when `access` is not PUBLIC); neither: PUBLIC.
 */
export class DomainCreateDto {
  @ApiProperty({ description: 'Host name of the domain (lowercased; unique on the server).', maxLength: 253 })
  @V1Str({ required: true, min: 1, max: 253 })
  name: string;
  @ApiProperty({ enum: DOMAIN_ACCESS, required: false })
  @V1Enum(DOMAIN_ACCESS)
  access?: (typeof DOMAIN_ACCESS)[number];
  @ApiProperty({ required: false, deprecated: true, description: 'true exactly when access is not PUBLIC' })
  @V1Bool()
  private?: boolean;
  @V1Str({ max: 100000 }) catalog_title?: string;
  @V1Str({ max: 100000 }) access_code_message_html?: string;
  @V1Str({ max: 100000 }) marketing_message?: string;
}

import { Str } from '../../../core/http/v1-rules';

/**
 * PUT and PATCH /v1/organization/certificate-template (extension, CONVENTIONS §22): both partial.
 * Colours are `#rrggbb`; `logo` is a `data:image/png;base64,...` or `data:image/jpeg;base64,...`
 * URL of at most 512 KB decoded, or null to remove it (checked by CertificateTemplatesService).
 */
export class CertificateTemplateDto {
  @Str({ min: 1, max: 200 }) title?: string;
  @Str({ min: 7, max: 7 }) primary_color?: string;
  @Str({ min: 7, max: 7 }) accent_color?: string;
  @Str({ max: 200, nullable: true }) signature_name?: string | null;
  @Str({ max: 200, nullable: true }) signature_title?: string | null;
  @Str({ max: 800_000, nullable: true }) logo?: string | null;
}

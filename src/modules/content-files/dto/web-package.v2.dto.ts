import { IsDefined, IsIn, IsString, Length, MaxLength } from 'class-validator';
import { Attributes } from '../../../core/http/rules';

/** WebPackageCreateRequest: `content_url` (vetted by the service as on /v1) and `title` (1..500). */
export class WebPackageCreateAttributesV2 {
  @IsDefined() @IsString() @MaxLength(2048) content_url: string;
  @IsDefined() @IsString() @Length(1, 500) title: string;
}

/** _WebPackageCreateData */
export class WebPackageCreateItemV2 {
  @IsIn(['web-packages']) type: string;
  @Attributes(() => WebPackageCreateAttributesV2) attributes: WebPackageCreateAttributesV2;
}

/**
 * WebPackageUpdateRequest: `title` is the only writable member; the server-owned ones (`type`,
 * `state`, `base_path`, `display_name`) and anything else are ignored, as published (whitelisted away).
 */
export class WebPackageUpdateAttributesV2 {
  @IsDefined() @IsString() @Length(1, 500) title: string;
}

/** _WebPackageUpdateData */
export class WebPackageUpdateItemV2 {
  @IsIn(['web-packages']) type: string;
  /** Any string: an id that cannot be decoded is that item's not_found (v2-api.md rule 4). */
  @IsString() id: string;
  @Attributes(() => WebPackageUpdateAttributesV2) attributes: WebPackageUpdateAttributesV2;
}

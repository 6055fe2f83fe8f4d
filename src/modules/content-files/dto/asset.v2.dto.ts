import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Attributes } from '../../../core/http/rules';
import { ASPECT_RATIOS } from './asset.dto';

/**
 * POST /v2/assets/ item attributes (live /v2 addition, CONVENTIONS §17; the /v1 AssetRequest in the
 * /v2 style): `content_url` (re-hosted by the worker, vetted as on /v1) or `embed_link_url`, and
 * the asset's metadata.
 */
export class AssetCreateAttributesV2 {
  @IsOptional() @IsString() @Length(1, 2048) content_url?: string;
  @IsOptional() @IsString() @Length(1, 2048) embed_link_url?: string;
  @IsOptional() @IsString() @Length(1, 255) name?: string;
  @IsOptional() @IsIn(ASPECT_RATIOS) aspect_ratio?: (typeof ASPECT_RATIOS)[number];
  @IsOptional() @IsBoolean() sync_completion?: boolean;
}

export class AssetCreateItemV2 {
  @IsIn(['assets']) type: string;
  @Attributes(() => AssetCreateAttributesV2) attributes: AssetCreateAttributesV2;
}

/** PATCH /v2/assets/{id} attributes: the writable metadata; what the import sets (type, state) is not writable. */
export class AssetUpdateAttributesV2 {
  @IsOptional() @IsString() @Length(1, 255) name?: string;
  @IsOptional() @IsIn(ASPECT_RATIOS) aspect_ratio?: (typeof ASPECT_RATIOS)[number];
  @IsOptional() @IsBoolean() sync_completion?: boolean;
}

export class AssetUpdateDataV2 {
  @IsIn(['assets']) type: string;
  /** when sent, the path's id (a different one is a 409, as JSON:API asks) */
  @IsOptional() @IsString() @MaxLength(100) id?: string;
  @Attributes(() => AssetUpdateAttributesV2) attributes: AssetUpdateAttributesV2;
}

export class AssetUpdateEnvelopeV2 {
  @IsDefined() @Attributes(() => AssetUpdateDataV2) data: AssetUpdateDataV2;
}

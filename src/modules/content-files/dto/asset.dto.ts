import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsObject, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { Present } from '../../../core/http/v1-rules';

export const ASPECT_RATIOS = ['16:9', '4:3'] as const;

/** AssetMetadataRequest: the `asset` object of a create request. */
export class AssetMetadataRequest {
  @Present()
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  @MaxLength(255, { message: 'Ensure this field has no more than 255 characters.' })
  name?: string;

  @Present()
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  @MaxLength(2048, { message: 'Ensure this field has no more than 2048 characters.' })
  embed_link_url?: string;

  @Present()
  @IsIn(ASPECT_RATIOS, { message: 'Must be a valid choice: "16:9" or "4:3".' })
  aspect_ratio?: (typeof ASPECT_RATIOS)[number];

  @Present()
  @IsBoolean({ message: 'Must be a valid boolean.' })
  sync_completion?: boolean;
}

/** AssetRequest: `content_url` (re-hosted by the worker) and/or `asset` metadata. No member is nullable (published schema): null is refused. */
export class AssetRequest {
  @Present()
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  content_url?: string;

  @Present()
  @IsObject({ message: 'Expected a dictionary of items.' })
  @ValidateNested()
  @Type(() => AssetMetadataRequest)
  asset?: AssetMetadataRequest;
}

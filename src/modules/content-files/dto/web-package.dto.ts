import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';

const REQUIRED = { message: 'This field is required.' };

/** WebPackageMetadataRequest: `title` required; sync_on_completion (resource reference) or sync_completion (v1 document). */
export class WebPackageMetadataRequest {
  @IsDefined(REQUIRED)
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  @MaxLength(500, { message: 'Ensure this field has no more than 500 characters.' })
  title: string;

  @IsOptional()
  @IsBoolean({ message: 'Must be a valid boolean.' })
  redirect_on_completion?: boolean;

  @IsOptional()
  @IsBoolean({ message: 'Must be a valid boolean.' })
  sync_on_completion?: boolean;

  @IsOptional()
  @IsBoolean({ message: 'Must be a valid boolean.' })
  sync_completion?: boolean;
}

/** WebPackageRequest: both members required. */
export class WebPackageRequest {
  @IsDefined(REQUIRED)
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  content_url: string;

  @IsDefined(REQUIRED)
  @IsObject({ message: 'Expected a dictionary of items.' })
  @ValidateNested()
  @Type(() => WebPackageMetadataRequest)
  web_package: WebPackageMetadataRequest;
}

/** WebPackageUpdateLessonRequest. */
export class WebPackageLessonsRequest {
  @IsDefined(REQUIRED)
  @IsString({ message: 'Not a valid string.' })
  @MinLength(1, { message: 'This field may not be blank.' })
  web_package_id: string;
}

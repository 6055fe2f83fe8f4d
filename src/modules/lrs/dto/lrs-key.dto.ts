import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

/** POST /v1/lrs-keys: read and write rights (both by default), an optional name. */
export class LrsKeyRequest {
  @IsOptional()
  @IsBoolean({ message: 'Must be a valid boolean.' })
  read?: boolean;

  @IsOptional()
  @IsBoolean({ message: 'Must be a valid boolean.' })
  write?: boolean;

  @IsOptional()
  @IsString({ message: 'Not a valid string.' })
  @MaxLength(200, { message: 'Ensure this field has no more than 200 characters.' })
  name?: string;
}

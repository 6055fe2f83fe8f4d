import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';

/** PostgreSQL text cannot hold NUL characters. */
const NoNul = () => Matches(/^[^\u0000]*$/, { message: '$property must not contain NUL characters' });
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_ARRAY_ITEMS } from '../../../core/http/array-rules';
import { Present, PresentNotNull } from '../../../core/http/v1-rules';

/** As the published ClientCreateRequest. */
export class ClientCreateRequest {
  @ApiProperty({ maxLength: 255 }) @IsString() @MinLength(1) @MaxLength(255) @NoNul() name: string;
  @ApiPropertyOptional({ maxLength: 500, nullable: true }) @IsOptional() @IsString() @MaxLength(500) @NoNul() description?: string | null;
  @ApiPropertyOptional({ type: [String], maxItems: MAX_ARRAY_ITEMS }) @Present() @IsArray() @ArrayMaxSize(MAX_ARRAY_ITEMS) @IsString({ each: true }) scope_codenames?: string[];
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @IsString() scope_preset?: string | null;
  @ApiPropertyOptional({ type: [String], maxItems: 100 }) @Present() @IsArray() @ArrayMaxSize(100) @IsString({ each: true }) ip_allowlist?: string[];
}

/** As the published ClientUpdateRequest: every member optional; null leaves a member unchanged. */
export class ClientUpdateRequest {
  @ApiPropertyOptional({ maxLength: 255, nullable: true }) @ValidateIf((o) => o.name !== undefined && o.name !== null) @IsString() @MinLength(1) @MaxLength(255) @NoNul() name?: string | null;
  @ApiPropertyOptional({ maxLength: 500, nullable: true }) @IsOptional() @IsString() @MaxLength(500) @NoNul() description?: string | null;
  @ApiPropertyOptional({ type: [String], nullable: true, maxItems: MAX_ARRAY_ITEMS }) @PresentNotNull() @IsArray() @ArrayMaxSize(MAX_ARRAY_ITEMS) @IsString({ each: true }) scope_codenames?:
    string[] | null;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() @IsString() scope_preset?: string | null;
  @ApiPropertyOptional({ type: [String], nullable: true, maxItems: 100 }) @PresentNotNull() @IsArray() @ArrayMaxSize(100) @IsString({ each: true }) ip_allowlist?: string[] | null;
}

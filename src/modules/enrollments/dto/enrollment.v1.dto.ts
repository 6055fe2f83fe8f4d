import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsBoolean, ValidateIf, ValidateNested } from 'class-validator';
import { PresentNotNull, V1Obj } from '../../../core/http/v1-rules';
import { PurchaseDto } from './program-enrollment.v1.dto';

/** CreateEnrollmentRequest: `user {id}` required; timestamps are parsed by the service. */
export class EnrollmentCreateDto {
  @Allow() user?: unknown;
  @Allow() enrolled_at?: unknown;
  @Allow() expires_at?: unknown;
  /** nullable upstream (default true): null means the default */
  @PresentNotNull() @IsBoolean() active?: boolean | null;
  /** EnrollmentPurchaseRequest: a new enrollment's purchase is recorded as declared (docs/decisions/commerce.md) */
  @ValidateIf((_o, v) => v !== null) @V1Obj() @ValidateNested() @Type(() => PurchaseDto) purchase?: PurchaseDto | null;
}

/**
 * UpdateEnrollmentRequest / PatchedUpdateEnrollmentRequest: both partial. `rating` and `feedback`
 * are extension members (CONVENTIONS §15, the learner's rating that the Enrollment reads): checked
 * by the service (the scale is the organization's).
 */
export class EnrollmentUpdateDto {
  @Allow() expires_at?: unknown;
  @PresentNotNull() @IsBoolean() active?: boolean | null;
  @ApiProperty({
    required: false,
    nullable: true,
    type: 'integer',
    description: "Extension: the learner's rating of the course, 1 to the organization's rating scale (5 or 10); null removes the rating and its feedback.",
  })
  @Allow()
  rating?: unknown;
  @ApiProperty({ required: false, nullable: true, type: 'string', description: "Extension: the learner's feedback (at most 10,000 characters) on the rating; null clears it. Needs a rating." })
  @Allow()
  feedback?: unknown;
}

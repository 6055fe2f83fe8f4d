import { Allow, IsBoolean } from 'class-validator';
import { PresentNotNull } from '../../../core/http/v1-rules';

/** CreateEnrollmentRequest: `user {id}` required; timestamps are parsed by the service. */
export class EnrollmentCreateDto {
  @Allow() user?: unknown;
  @Allow() enrolled_at?: unknown;
  @Allow() expires_at?: unknown;
  /** nullable upstream (default true): null means the default */
  @PresentNotNull() @IsBoolean() active?: boolean | null;
  /** commerce is out of scope: accepted and ignored (docs/decisions/v1-catalog.md) */
  @Allow() purchase?: unknown;
}

/** UpdateEnrollmentRequest / PatchedUpdateEnrollmentRequest: both partial. */
export class EnrollmentUpdateDto {
  @Allow() expires_at?: unknown;
  @PresentNotNull() @IsBoolean() active?: boolean | null;
}

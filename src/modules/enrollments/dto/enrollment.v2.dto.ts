import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsDefined, IsIn, IsOptional, IsString, ValidateIf } from 'class-validator';
import { Attributes, Rules } from '../../../core/http/rules';
import { StudentEmail } from '../../students/dto/student-email';

/**
 * The published /v2 enrollment request schemas (EnrollmentBatchCreateRequest,
 * EnrollmentUpdateRequestEnvelope, EnrollmentCompletionRequestEnvelope). Items are validated one
 * by one by runBatch; date-times are parsed by the services (an offset is required, as in the
 * list filters), so that a bad one fails its item with the member's pointer.
 */

/** EnrollmentCreateRequest: the student by email (normalized to lowercase). */
export class EnrollmentCreateAttributes {
  @StudentEmail() email: string;
}

/** The `type` member of every enrollment item (its value is checked by runBatch). */
const EnrollmentsType = Rules(ApiProperty({ enum: ['enrollments'] }), Allow());
/** The `id` of an item about an existing enrollment: a string (one that does not decode is the item's not_found). */
const EnrollmentId = Rules(ApiProperty(), IsDefined(), IsString());

/** _EnrollmentCreateData */
export class EnrollmentCreateItem {
  @EnrollmentsType type: 'enrollments';
  @ApiProperty({ type: EnrollmentCreateAttributes }) @Attributes(() => EnrollmentCreateAttributes) attributes: EnrollmentCreateAttributes;
}

/** EnrollmentUpdateAttributes: omitted members are left unchanged; null clears a date; `active` may not be null. */
export class EnrollmentUpdateAttributes {
  @ApiPropertyOptional({ format: 'date-time', nullable: true }) @IsOptional() @IsString() expires_at?: string | null;
  @ApiPropertyOptional({ format: 'date-time', nullable: true }) @IsOptional() @IsString() due_at?: string | null;
  @ApiPropertyOptional({ description: 'false deactivates, true reactivates; null is invalid' })
  @ValidateIf((o: EnrollmentUpdateAttributes) => o.active !== undefined)
  @IsBoolean()
  active?: boolean;
}

/** _EnrollmentUpdateData */
export class EnrollmentUpdateItem {
  @EnrollmentsType type: 'enrollments';
  @EnrollmentId id: string;
  @ApiProperty({ type: EnrollmentUpdateAttributes }) @Attributes(() => EnrollmentUpdateAttributes) attributes: EnrollmentUpdateAttributes;
}

/** EnrollmentCompletionAttributes: `completed_at` null removes the completion. */
export class EnrollmentCompletionAttributes {
  @ApiPropertyOptional({ format: 'date-time', nullable: true }) @IsOptional() @IsString() completed_at?: string | null;
  @ApiPropertyOptional({ enum: ['passed', 'failed'], nullable: true }) @IsOptional() @IsIn(['passed', 'failed']) success_status?: 'passed' | 'failed' | null;
}

/** EnrollmentCompletionData */
export class EnrollmentCompletionItem {
  @EnrollmentsType type: 'enrollments';
  @EnrollmentId id: string;
  @ApiProperty({ type: EnrollmentCompletionAttributes }) @Attributes(() => EnrollmentCompletionAttributes) attributes: EnrollmentCompletionAttributes;
}

/** For the OpenAPI document only: the bodies are read by the controller and runBatch. */
export class EnrollmentBatchCreateRequest {
  @ApiProperty({ description: 'Obfuscated id of the target published course.' }) published_course_id: string;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, description: 'When the enrollments expire; must be in the future.' }) expires_at?: string | null;
  @ApiProperty({ type: [EnrollmentCreateItem] }) data: EnrollmentCreateItem[];
}
export class EnrollmentUpdateRequestEnvelope {
  @ApiProperty({ type: [EnrollmentUpdateItem] }) data: EnrollmentUpdateItem[];
}
export class EnrollmentCompletionRequestEnvelope {
  @ApiProperty({ description: 'Whether to send completion notification emails to students.' }) send_notifications: boolean;
  @ApiProperty({ type: [EnrollmentCompletionItem] }) data: EnrollmentCompletionItem[];
}

import { ApiProperty } from '@nestjs/swagger';
import { Allow, IsDefined, IsString } from 'class-validator';
import { Closed } from '../../../core/http/closed';

/** _MembershipStudentRefData: `{type: "students", id}` and nothing else (additionalProperties: false). */
@Closed()
export class MembershipStudentRef {
  @ApiProperty({ enum: ['students'] }) @Allow() type: 'students';
  /** any string: one that cannot be decoded (an over-long one included) is that item's not_found (v2-api.md rule 4, as every /v2 batch) */
  @ApiProperty({ maxLength: 64, description: 'Obfuscated id of the student.' }) @IsDefined() @IsString() id: string;
}

/** MembershipAddRequestEnvelope / MembershipRemoveRequestEnvelope (for the OpenAPI document; the body is read by runBatch). */
export class MembershipRequestEnvelope {
  @ApiProperty({ type: [MembershipStudentRef] }) data: MembershipStudentRef[];
}

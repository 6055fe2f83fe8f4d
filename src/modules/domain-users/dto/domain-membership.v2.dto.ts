import { ApiProperty } from '@nestjs/swagger';
import { Allow, IsDefined, IsString } from 'class-validator';
import { Closed } from '../../../core/http/closed';

/** One domain of POST /v2/students/{id}/relationships/domain-memberships/: `{type: "domains", id}`. */
@Closed()
export class DomainRefV2 {
  @ApiProperty({ enum: ['domains'] }) @Allow() type: 'domains';
  /** any string: one that cannot be decoded is that item's not_found (v2-api.md rule 4, as every /v2 batch) */
  @ApiProperty({ maxLength: 64, description: 'Opaque id of the domain.' }) @IsDefined() @IsString() id: string;
}

/** The request envelope (for the OpenAPI document; the body is read by runBatch). */
export class DomainMembershipRequestEnvelope {
  @ApiProperty({ type: [DomainRefV2] }) data: DomainRefV2[];
}

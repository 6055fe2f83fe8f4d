import { Body, Controller, Delete, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { AppConfig } from '../../core/config/config';
import { V2 } from '../../core/http/interfaces';
import { replyBatch } from '../../core/routes/v2-batch';
import { encodeId } from '../../core/ids/ids';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, declaredV2, PublicId, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';
import { MembershipRequestEnvelope, MembershipStudentRef } from './dto/membership.dto';
import { GroupMembershipsService, MembershipRow } from './group-memberships.service';
import { GroupsService } from './groups.service';

/** MembershipResource of the published /v2 document, declared once (core/openapi/declared-shape.ts): the type of presentMembership's result. */
export const MembershipResourceSchema = declaredV2(
  'MembershipResource',
  V2UnlinkedResourceSchema(
    'memberships',
    Type.Object({
      student_id: PublicId({ description: 'Opaque id of the student.' }),
      is_manager: Type.Boolean({ description: 'Always false: no group managers on this platform.' }),
      created_at: DateTime(),
    }),
    { description: "A student's membership of a group (MembershipResource)." },
  ),
);
export type MembershipResource = Static<typeof MembershipResourceSchema>;

/** MembershipResource. `is_manager` is false: this platform has no group managers (docs/decisions/v2-enrollments.md). */
export function presentMembership(m: MembershipRow): MembershipResource {
  return {
    type: 'memberships',
    id: encodeId('groupMembership', m.id),
    attributes: { student_id: encodeId('student', m.userId), is_manager: false, created_at: m.createdAt.toISOString() },
  };
}

/**
 * /v2/groups/{id}/relationships/students/: add and remove students, idempotently. The group is
 * resolved in the caller's organization first (404 otherwise, whatever the body), then the batch:
 * first occurrence of a student id wins (`duplicate_in_batch` at /data/{i}/id).
 */
@ApiTags('groups')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/groups/:id/relationships/students')
export class GroupStudentsV2Controller {
  constructor(
    private readonly groups: GroupsService,
    private readonly memberships: GroupMembershipsService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @Scopes('student-groups:write')
  @ApiBody({ type: MembershipRequestEnvelope })
  async add(@Auth() p: Principal, @Param('id') id: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const answer = await this.batch(p, id, body, reply, (groupId, items) => this.memberships.add(p, groupId, items));
    return { ...answer, data: answer.data.map((d) => (d.result ? { ...d, result: presentMembership(d.result) } : d)) };
  }

  @Delete()
  @Scopes('student-groups:write')
  @ApiBody({ type: MembershipRequestEnvelope })
  async remove(@Auth() p: Principal, @Param('id') id: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.batch(p, id, body, reply, (groupId, items) => this.memberships.remove(p, groupId, items));
  }

  /** The group first (404 whatever the body), then the batch; answers its status and body. */
  private async batch<R>(p: Principal, id: string, body: unknown, reply: FastifyReply, apply: (groupId: string, items: ValidItem<MembershipStudentRef>[]) => Promise<Map<number, ItemOutcome<R>>>) {
    const groupId = await this.groups.requireGroupId(p, id);
    return replyBatch(
      reply,
      body,
      {
        itemClass: MembershipStudentRef,
        type: 'students',
        maxItems: this.config.BATCH_MAX_ITEMS,
        dedupeKey: (raw) => (typeof raw.id === 'string' ? raw.id : undefined),
        dedupePointer: '/id',
      },
      (items) => apply(groupId, items),
    );
  }
}

import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { DestructiveRateLimit } from './students.v2.controller';
import { StudentsService } from './students.service';
import { V1 } from '../../core/http/interfaces';

/**
 * /v1/users operations that act on the student itself (a /v1 user is a /v2 student, CONVENTIONS
 * §10). `POST /v1/users/{user_id}/anonymize` is the published `users_anonymize_create`: the same
 * erasure as `POST /v2/students/{id}/anonymize` (StudentsService.anonymize), the same rate-limit
 * budget, and 200 with the published `UserOverview` of the anonymized user. The published v1 has no
 * confirmation header, so none is required here (existing clients would not send one).
 */
@V1()
@Controller('v1/users')
export class UsersV1Controller {
  constructor(private readonly students: StudentsService) {}

  @Post(':user_id/anonymize')
  @HttpCode(200)
  @Scopes('students:anonymize')
  @DestructiveRateLimit('anonymize')
  async anonymize(@Auth() p: Principal, @Param('user_id') userId: string) {
    await this.students.anonymize(p, userId);
    return this.students.overview(p, userId);
  }
}

import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/http/v1-resource';
import { strParam } from '../../core/http/v1-rules';
import { Paged, V1_PAGE_CAP, V1Page } from '../../core/pagination/v1-page';
import { TrainingCreditCodeCreateDto, TrainingCreditCodePatchDto } from './dto/training-credits.dto';
import { presentCreditCode } from './training-credits.presenter';
import { TrainingCreditsService } from './training-credits.service';

/** /v1/training-credit-codes (the `training-credits` family): list, create, read, partial update (no PUT, no delete, as published). */
@V1()
@V1Resource<TrainingCreditsService>({
  service: 'credits',
  id: 'training_credit_code_id',
  scopes: 'training-credits',
  present: presentCreditCode,
  create: { call: 'create', body: TrainingCreditCodeCreateDto },
  read: { call: 'read' },
})
@Controller('v1/training-credit-codes')
export class TrainingCreditCodesV1Controller {
  constructor(private readonly credits: TrainingCreditsService) {}

  /** Filters: `tracking_identifier`, `training_credit_code` (both exact). */
  @Get()
  @Scopes('training-credits:read')
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.credits.list(p, page, {
      trackingIdentifier: strParam(query, 'tracking_identifier', 256),
      code: strParam(query, 'training_credit_code', 255),
    });
    return page.list(rows.map(presentCreditCode), count);
  }

  /** PATCH: `student_groups` and `offers` as `{add, remove}` (adds first). */
  @Patch(':training_credit_code_id')
  @Scopes('training-credits:write')
  async partialUpdate(@Auth() p: Principal, @Param('training_credit_code_id') id: string, @Body() body: TrainingCreditCodePatchDto) {
    return presentCreditCode(await this.credits.update(p, id, body));
  }
}

import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { strParam } from '../../core/http/v1-rules';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { TrainingCreditCodeCreateDto, TrainingCreditCodePatchDto } from './dto/training-credits.dto';
import { presentCreditCode } from './training-credits.presenter';
import { TrainingCreditsService } from './training-credits.service';

/** /v1/training-credit-codes (the `training-credits` family): list, create, read, partial update (no PUT, no delete, as published). */
@V1()
@V1Resource<TrainingCreditsService>({
  service: TrainingCreditsService,
  id: 'training_credit_code_id',
  scopes: 'training-credits',
  present: presentCreditCode,
  // filters: `tracking_identifier`, `training_credit_code` (both exact)
  list: { call: (s) => s.list, cap: V1_PAGE_CAP.large, filters: (q) => ({ trackingIdentifier: strParam(q, 'tracking_identifier'), code: strParam(q, 'training_credit_code') }) },
  create: { call: (s) => s.create, body: TrainingCreditCodeCreateDto },
  read: { call: (s) => s.read },
  // `student_groups` and `offers` as `{add, remove}` (adds first)
  patch: { call: (s) => s.update, body: TrainingCreditCodePatchDto },
})
@Controller('v1/training-credit-codes')
export class TrainingCreditCodesV1Controller {
  constructor(private readonly credits: TrainingCreditsService) {}
}

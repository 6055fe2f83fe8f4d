import { ValidateBy } from 'class-validator';
import { DRF } from '../../../core/http/drf-messages';
import { requireMembers, StrList, V1Bool, V1DateTime, V1Int, V1Str } from '../../../core/http/v1-rules';

/** Ids named per request in `student_groups` / `offers` (and in each of `add` / `remove`). */
export const MAX_LINKED_IDS = 1000;

/** `{add: [ids], remove: [ids]}` (AddRemoveIdListsRequest): both optional, each a list of non-blank strings. */
export interface AddRemove {
  add?: string[];
  remove?: string[];
}

function addRemoveProblem(v: unknown): string | null {
  if (v === undefined) return null;
  if (v === null) return DRF.null;
  if (typeof v !== 'object' || Array.isArray(v)) return DRF.dict(v);
  for (const [k, list] of Object.entries(v as Record<string, unknown>)) {
    if (k !== 'add' && k !== 'remove') continue;
    if (!Array.isArray(list)) return `${k}: ${DRF.list(list)}`;
    if (list.length > MAX_LINKED_IDS) return `${k}: ${DRF.maxItems(MAX_LINKED_IDS)}`;
    for (const id of list) {
      if (typeof id !== 'string') return `${k}: ${DRF.string}`;
      if (!id.length) return `${k}: ${DRF.blank}`;
      if (id.length > 64 || id.includes('\u0000')) return `${k}: ${DRF.maxLength(64)}`;
    }
  }
  return null;
}

const AddRemoveIds = (): PropertyDecorator =>
  ValidateBy({ name: 'v1AddRemove', validator: { validate: (v: unknown) => addRemoveProblem(v) === null, defaultMessage: (a) => addRemoveProblem(a?.value) ?? 'Invalid value.' } });

/** Members PATCH and POST share. */
class TrainingCreditCodeCommon {
  @V1Int({ min: 0 }) credits_total?: number;
  @V1DateTime({ nullable: true }) expiration_date?: string | null;
  @V1Bool() expire_content?: boolean;
  @V1Str({ min: 1, max: 256 }) tracking_identifier?: string;
  @V1Bool() available_to_all_students?: boolean;
  @V1Bool() available_for_all_offers?: boolean;
}

/** POST /v1/training-credit-codes (TrainingCreditCodesCreateRequest). */
export class TrainingCreditCodeCreateDto extends TrainingCreditCodeCommon {
  @V1Str({ required: true, min: 1, max: 255 }) training_credit_code: string;
  @StrList(64, MAX_LINKED_IDS) student_groups?: string[];
  @StrList(64, MAX_LINKED_IDS) offers?: string[];
}
requireMembers(TrainingCreditCodeCreateDto, ['credits_total']);

/** PATCH /v1/training-credit-codes/{id} (PatchedTrainingCreditCodesUpdateRequest): the links as `{add, remove}`. */
export class TrainingCreditCodePatchDto extends TrainingCreditCodeCommon {
  @AddRemoveIds() student_groups?: AddRemove;
  @AddRemoveIds() offers?: AddRemove;
}

import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import type { CreditCodeRow, CreditCodeView } from './training-credits.service';

/**
 * TrainingCreditCodesList (lists); TrainingCreditCodesRetrieve / Create / Update add the flags and
 * the linked ids. `credits_remaining` (credits_total - credits_used) is the balance, beyond the
 * published members.
 */
export function presentCreditCode(r: CreditCodeRow | CreditCodeView) {
  const out: Record<string, unknown> = {
    id: encodeId('trainingCreditCode', r.id),
    training_credit_code: r.code,
    credits_used: r.credits_used,
    credits_total: r.credits_total,
    credits_remaining: r.credits_total - r.credits_used,
    expiration_date: iso(r.expiration_date),
    expire_content: r.expire_content,
    tracking_identifier: r.tracking_identifier,
    available_to_all_students: r.available_to_all_students,
    available_for_all_offers: r.available_for_all_offers,
  };
  const v = r as CreditCodeView;
  if (v.group_ids) out.student_groups = v.group_ids.map((id) => encodeId('group', id));
  if (v.offer_ids) out.offers = v.offer_ids.map((id) => encodeId('offer', id));
  return out;
}

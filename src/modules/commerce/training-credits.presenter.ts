import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import type { CreditCodeRow, CreditCodeView } from './training-credits.service';

/**
 * TrainingCreditCodesList (lists); TrainingCreditCodesRetrieve / Create / Update add the flags and
 * the linked ids. `credits_remaining` (credits_total - credits_used) is the balance, beyond the
 * published members. The update's answer (TrainingCreditCodesUpdate) shows `student_groups` and
 * `offers` as the published `{add, remove}`: what the request added and removed; the resulting lists
 * are the extensions `student_group_ids` and `offer_ids` (docs/decisions/conformance.md).
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
  const groups = v.group_ids?.map((id) => encodeId('group', id));
  const offers = v.offer_ids?.map((id) => encodeId('offer', id));
  if (v.applied) {
    const { student_groups: g, offers: o } = v.applied;
    out.student_groups = { add: g.add.map((id) => encodeId('group', id)), remove: g.remove.map((id) => encodeId('group', id)) };
    out.offers = { add: o.add.map((id) => encodeId('offer', id)), remove: o.remove.map((id) => encodeId('offer', id)) };
    out.student_group_ids = groups ?? [];
    out.offer_ids = offers ?? [];
    return out;
  }
  if (groups) out.student_groups = groups;
  if (offers) out.offers = offers;
  return out;
}

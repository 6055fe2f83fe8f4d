import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import { DateTime, declaredV1, ext, nullable, PublicId } from '../../core/openapi/declared-shape';
import type { CreditCodeRow, CreditCodeView } from './training-credits.service';

/** What every training-credit-code answer carries: the published list members and the balance. */
const CODE = {
  id: PublicId(),
  training_credit_code: Type.String(),
  credits_used: Type.Integer(),
  credits_total: Type.Integer(),
  credits_remaining: Type.Integer(ext({ description: 'the balance: credits_total - credits_used' })),
  expiration_date: nullable(DateTime()),
  expire_content: Type.Boolean(),
  tracking_identifier: Type.String(),
};

/** TrainingCreditCodesList, with the two availability flags (published on the read) as extensions, declared once. */
export const CreditCodeListItemSchema = declaredV1('TrainingCreditCodesList', Type.Object({ ...CODE, available_to_all_students: Type.Boolean(ext()), available_for_all_offers: Type.Boolean(ext()) }));

/** TrainingCreditCodesRetrieve and TrainingCreditCodesCreate: the flags and the linked ids. */
export const CreditCodeSchema = declaredV1(
  ['TrainingCreditCodesRetrieve', 'TrainingCreditCodesCreate'],
  Type.Object({
    ...CODE,
    available_to_all_students: Type.Boolean(),
    student_groups: Type.Array(PublicId()),
    available_for_all_offers: Type.Boolean(),
    offers: Type.Array(PublicId()),
  }),
);

const AddRemove = () => Type.Object({ add: Type.Array(PublicId()), remove: Type.Array(PublicId()) });

/**
 * TrainingCreditCodesUpdate: `student_groups` and `offers` as the published `{add, remove}` (what the
 * request added and removed); the resulting lists are the extensions `student_group_ids` and
 * `offer_ids` (docs/decisions/conformance.md).
 */
export const CreditCodeUpdateSchema = declaredV1(
  'TrainingCreditCodesUpdate',
  Type.Object({
    ...CODE,
    available_to_all_students: Type.Boolean(),
    student_groups: AddRemove(),
    available_for_all_offers: Type.Boolean(),
    offers: AddRemove(),
    student_group_ids: Type.Array(PublicId(), ext({ description: 'the student groups after the update' })),
    offer_ids: Type.Array(PublicId(), ext({ description: 'the offers after the update' })),
  }),
);

type ListItem = Static<typeof CreditCodeListItemSchema>;

function presentListItem(r: CreditCodeRow): ListItem {
  return {
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
}

const groupIds = (ids: string[]) => ids.map((id) => encodeId('group', id));
const offerIds = (ids: string[]) => ids.map((id) => encodeId('offer', id));

/**
 * The list item (a row without its links), the read and create answer (a view with its links), or
 * the update answer (a view with what the request `applied`): one presenter for the operations of
 * /v1/training-credit-codes, each branch typed by its declaration.
 */
export function presentCreditCode(r: CreditCodeRow | CreditCodeView): ListItem | Static<typeof CreditCodeSchema> | Static<typeof CreditCodeUpdateSchema> {
  const item = presentListItem(r);
  const v = r as CreditCodeView;
  if (!v.group_ids || !v.offer_ids) return item;
  if (v.applied) {
    const { student_groups: g, offers: o } = v.applied;
    return {
      ...item,
      student_groups: { add: groupIds(g.add), remove: groupIds(g.remove) },
      offers: { add: offerIds(o.add), remove: offerIds(o.remove) },
      student_group_ids: groupIds(v.group_ids),
      offer_ids: offerIds(v.offer_ids),
    };
  }
  return { ...item, student_groups: groupIds(v.group_ids), offers: offerIds(v.offer_ids) };
}

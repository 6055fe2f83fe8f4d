import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import { presentUser } from '../students/user-refs.presenter';
import type { CodeView, PoolView } from './access-codes.service';

/** DomainAccessCodePoolDetail (lists drop nothing but keep code_count too: it is computed set-wise). */
export function presentPool(v: PoolView) {
  return {
    id: encodeId('accessCodePool', v.pool.id),
    name: v.pool.name,
    active: v.pool.active,
    start_date: iso(v.pool.startDate),
    end_date: iso(v.pool.endDate),
    expire_linked_to_domain_membership: v.pool.expireLinkedToDomainMembership,
    channel: v.pool.channel,
    code_count: v.codeCount,
  };
}

/** DomainAccessCodeListItem; DomainAccessCodeDetail adds `users`. */
export function presentCode(v: CodeView) {
  const out: Record<string, unknown> = {
    id: encodeId('accessCode', v.code.id),
    code: v.code.code,
    active: v.code.active,
    max_uses: v.code.maxUses,
    use_count: v.useCount,
    duration: v.code.duration,
    duration_unit: v.code.durationUnit,
  };
  if (v.users) out.users = v.users.map((u) => presentUser(u, u.id));
  return out;
}

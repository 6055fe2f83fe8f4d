import { iso } from '../../core/http/v1-rules';
import { isoJson } from '../../core/database/pool-reads';
import { cachedPublicId, encodeId } from '../../core/ids/ids';
import { fullName } from '../students/students.presenter';
import type { AccessCodeInfo, DomainUserListRow, DomainUserRow, SignupValue } from './domain-users.service';

/** The user of an event body (CONVENTIONS §6: id, email, first_name, last_name); API reads add `full_name`. */
export function presentUser(r: { user_id: string; email: string; first_name: string; last_name: string }) {
  return { id: encodeId('student', r.user_id), email: r.email, first_name: r.first_name, last_name: r.last_name };
}

export function presentSignupValue(v: SignupValue) {
  return { signup_field: { id: encodeId('signupField', v.field_id), label: v.label }, value: v.value };
}

/** `iso` of a timestamp column: pg gives a Date, formatted without the copy `iso` makes of it (same text). */
const isoOf = (d: Date | string | null | undefined): string | null => (d instanceof Date ? d.toISOString() : iso(d));

/**
 * A page of 1,000 members is presented per request (issue 16): one object literal per row, no
 * intermediate objects. Members in the order of presentUser + full_name and of the published DomainUser;
 * `access_code` left out for a member who joined without one (optional, not nullable: CONVENTIONS §16).
 */
export function presentDomainUser(r: DomainUserRow, codes: Map<string, AccessCodeInfo>, values?: Map<string, SignupValue[]>) {
  const code = r.access_code_id ? codes.get(r.access_code_id) : undefined;
  const out: Record<string, unknown> = {
    user: { id: encodeId('student', r.user_id), email: r.email, first_name: r.first_name, last_name: r.last_name, full_name: fullName(r.first_name, r.last_name) },
    active: r.active,
    marketing_optin: r.marketing_optin,
    enrolled_at: isoOf(r.enrolled_at),
    expires_at: isoOf(r.expires_at),
  };
  if (code) out.access_code = { id: encodeId('accessCode', code.id), code: code.code, pool: code.pool_id ? { id: encodeId('accessCodePool', code.pool_id), name: code.pool_name ?? '' } : null };
  if (values) out.signup_fields = (values.get(r.user_id) ?? []).map(presentSignupValue);
  return out;
}

/**
 * `JSON.stringify(presentDomainUser(...))` of a list row written directly (the same bytes: the same
 * members in the same order, every string through JSON.stringify), without the objects in between;
 * the timestamps are pg's text, shown as pg's Date would be (isoOfTimestamptz).
 */
export function domainUserJson(r: DomainUserListRow, codes: Map<string, AccessCodeInfo>, values?: Map<string, SignupValue[]>): string {
  const code = r.access_code_id ? codes.get(r.access_code_id) : undefined;
  let out =
    '{"user":{"id":"' +
    cachedPublicId('student', r.user_id) +
    '","email":' +
    JSON.stringify(r.email) +
    ',"first_name":' +
    JSON.stringify(r.first_name) +
    ',"last_name":' +
    JSON.stringify(r.last_name) +
    ',"full_name":' +
    JSON.stringify(fullName(r.first_name, r.last_name)) +
    '},"active":' +
    JSON.stringify(r.active) +
    ',"marketing_optin":' +
    JSON.stringify(r.marketing_optin) +
    ',"enrolled_at":' +
    isoJson(r.enrolled_at) +
    ',"expires_at":' +
    isoJson(r.expires_at) +
    (code
      ? ',"access_code":{"id":"' +
        encodeId('accessCode', code.id) +
        '","code":' +
        JSON.stringify(code.code) +
        ',"pool":' +
        (code.pool_id ? '{"id":"' + encodeId('accessCodePool', code.pool_id) + '","name":' + JSON.stringify(code.pool_name ?? '') + '}' : 'null') +
        '}'
      : '');
  if (values) {
    const list = values.get(r.user_id);
    out += ',"signup_fields":[';
    if (list) {
      for (let i = 0; i < list.length; i++) {
        const v = list[i];
        out +=
          (i === 0 ? '{"signup_field":{"id":"' : ',{"signup_field":{"id":"') +
          encodeId('signupField', v.field_id) +
          '","label":' +
          JSON.stringify(v.label) +
          '},"value":' +
          JSON.stringify(v.value) +
          '}';
      }
    }
    out += ']';
  }
  return out + '}';
}

import { parseTimestamptz } from '../../core/database/pool-reads';
import { declaredViolations } from '../../../test/support/declared-validator';
import { DomainUserSchema, domainUserJson, presentDomainUser } from './domain-users.presenter';
import type { AccessCodeInfo, DomainUserListRow, DomainUserRow, SignupValue } from './domain-users.service';

const row = (over: Partial<DomainUserListRow> = {}): DomainUserListRow => ({
  id: '0f0e2d3c-4b5a-4697-8877-665544332211',
  user_id: '11111111-2222-4333-8444-555555555555',
  email: 'ada@example.com',
  first_name: 'Ada "A"\\ \u2028',
  last_name: 'Lovelace <&>',
  active: true,
  marketing_optin: null,
  enrolled_at: '2026-11-24 20:05:45.123456+00',
  expires_at: null,
  access_code_id: null,
  ...over,
});

const parsed = (r: DomainUserListRow): DomainUserRow => ({
  ...r,
  enrolled_at: parseTimestamptz(r.enrolled_at as string),
  expires_at: r.expires_at === null ? null : parseTimestamptz(r.expires_at as string),
});

const POOLED = '22222222-3333-4444-8555-666666666666';
const POOLLESS = '33333333-4444-4555-8666-777777777777';
const codes = new Map<string, AccessCodeInfo>([
  [POOLED, { id: POOLED, code: 'WELCOME', pool_id: '44444444-3333-4444-8555-666666666666', pool_name: 'Partners' }],
  [POOLLESS, { id: POOLLESS, code: 'SOLO', pool_id: null, pool_name: null }],
]);
const values = new Map<string, SignupValue[]>([['11111111-2222-4333-8444-555555555555', [{ user_id: '11111111-2222-4333-8444-555555555555', field_id: POOLED, label: 'Company', value: 'Acme' }]]]);

const rows = [row(), row({ marketing_optin: true, expires_at: '2027-01-02 03:04:05+02', access_code_id: POOLED, active: false }), row({ marketing_optin: false, access_code_id: POOLLESS })];

describe('domainUserJson (the list page writer)', () => {
  it('writes JSON.stringify(presentDomainUser(row)) of the row with Date timestamps', () => {
    for (const r of rows) for (const v of [undefined, values]) expect(domainUserJson(r, codes, v)).toBe(JSON.stringify(presentDomainUser(parsed(r), codes, v)));
  });

  it('writes what DomainUserSchema declares, nothing else', () => {
    for (const r of rows) for (const v of [undefined, values]) expect(declaredViolations(DomainUserSchema, JSON.parse(domainUserJson(r, codes, v)))).toEqual([]);
  });

  it("leaves an access code's pool out when it has none (optional, not nullable in the published AccessCode)", () => {
    expect(JSON.parse(domainUserJson(rows[2], codes)).access_code).toEqual({ id: expect.any(String), code: 'SOLO' });
    expect(JSON.parse(domainUserJson(rows[1], codes)).access_code).toEqual({ id: expect.any(String), code: 'WELCOME', pool: { id: expect.any(String), name: 'Partners' } });
    expect(JSON.parse(domainUserJson(rows[0], codes))).not.toHaveProperty('access_code');
  });
});

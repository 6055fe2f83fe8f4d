import { holdsSecret } from './idempotency.service';

/** The members whose value is a secret shown once, as the stored-answer scan has always named them. */
const NEEDLES = ['"client_secret"', '"secret"', '"token"', '"invite_url"', '"api_key"', '"access_token"', '"refresh_token"', '"password"'];
/** The scan as it was: each quoted name searched in the UTF-8 bytes of the answer. */
const byBytes = (s: string) => NEEDLES.some((n) => Buffer.from(s).includes(Buffer.from(n)));

describe('holdsSecret', () => {
  const cases = [
    '{"data":{"type":"clients","attributes":{"client_secret":"x"}}}',
    '{"secret":"s"}',
    '{"token":"t","invite_url":"u"}',
    '{"api_key":1}',
    '{"access_token":"a","refresh_token":"r"}',
    '{"password":"p"}',
    '{"data":{"name":"a \\"token\\" in a value"}}',
    '{"note":"token"}',
    '{"secret_name":"x","tokens":[],"my_token":"","Password":"P","api-key":"k"}',
    '{"name":"é\ud800 \u2028 \u00ff \ud83d\ude00","x":"\u0022secret\u0022"}',
    '',
    '"token',
  ];

  it('finds a quoted secret name exactly where the byte scan finds one, in the string or in its bytes', () => {
    for (const c of cases) {
      expect(holdsSecret(c)).toBe(byBytes(c));
      expect(holdsSecret(Buffer.from(c))).toBe(byBytes(c));
    }
    expect(cases.filter((c) => holdsSecret(c))).toHaveLength(8);
  });
});

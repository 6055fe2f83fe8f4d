import { buildHeaders, parseRetryAfter, RETRY_AFTER_CAP_MS } from './sender';
import { signatureOf } from './signing';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-31T12:00:00Z');
  it('reads delay-seconds and HTTP-dates; a past date is 0', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 31 Jan 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 31 Jan 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(['7', '9'], now)).toBe(7000);
  });
  it('caps at 24 h', () => {
    expect(parseRetryAfter('999999999', now)).toBe(RETRY_AFTER_CAP_MS);
    expect(parseRetryAfter('Fri, 31 Dec 2100 00:00:00 GMT', now)).toBe(RETRY_AFTER_CAP_MS);
  });
  it('ignores absent or unreadable values', () => {
    for (const v of [undefined, '', '-5', '1.5', 'soon', 'NaN', '12 May']) expect(parseRetryAfter(v, now)).toBeNull();
  });
});

describe('buildHeaders', () => {
  const target = { targetUrl: 'http://x.test/', secret: 'whsec_' + Buffer.alloc(24, 1).toString('base64'), basicAuthUsername: '', basicAuthPassword: null, additionalHeaders: {} };
  it('Content-Length counts bytes; one signature, or the new and the previous one during a rotation', () => {
    const body = '{"a":"é"}';
    const h = buildHeaders(target, 'msg', 1, body);
    expect(h['content-length']).toBe('10');
    expect(h['webhook-signature']).toBe(signatureOf(target.secret, 'msg', 1, body));
    const old = 'whsec_' + Buffer.alloc(24, 2).toString('base64');
    const both = buildHeaders({ ...target, previousSecret: old }, 'msg', 1, body);
    expect(both['webhook-signature']).toBe(`${signatureOf(target.secret, 'msg', 1, body)} ${signatureOf(old, 'msg', 1, body)}`);
  });
});

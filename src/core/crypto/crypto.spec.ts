import { constantTimeEqual, decrypt, encrypt, signPayload, verifyPayload } from './crypto';

describe('crypto helpers', () => {
  it('signs and verifies payloads, refusing tampering and other purposes', () => {
    const token = signPayload('s3cret-s3cret-s3cret', 'cursor', { a: 1 });
    expect(verifyPayload('s3cret-s3cret-s3cret', 'cursor', token)).toEqual({ a: 1 });
    expect(verifyPayload('s3cret-s3cret-s3cret', 'other', token)).toBeNull();
    const [body, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ a: 2 })).toString('base64url') + '.' + mac;
    expect(verifyPayload('s3cret-s3cret-s3cret', 'cursor', forged)).toBeNull();
    expect(verifyPayload('s3cret-s3cret-s3cret', 'cursor', body)).toBeNull();
    expect(verifyPayload('s3cret-s3cret-s3cret', 'cursor', 12)).toBeNull();
  });

  it('encrypts at rest with authentication', () => {
    const sealed = encrypt('k'.repeat(20), 'private key');
    expect(sealed).not.toContain('private');
    expect(decrypt('k'.repeat(20), sealed)).toBe('private key');
    expect(() => decrypt('j'.repeat(20), sealed)).toThrow();
  });

  it('compares in constant time, including different lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});

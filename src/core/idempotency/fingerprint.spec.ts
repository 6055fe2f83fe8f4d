import { canonicalJson, requestFingerprint } from './fingerprint';

describe('canonicalJson', () => {
  it('sorts members at every level and drops white space', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, true] })).toBe('{"a":[{"c":null,"d":"x"},true],"b":1}');
    expect(canonicalJson(JSON.parse('{ "z" : 1 , "y" : { "b" : 2, "a" : 3 } }'))).toBe(canonicalJson({ y: { a: 3, b: 2 }, z: 1 }));
  });

  it('writes what JSON.stringify writes for plain values', () => {
    for (const v of [0, -1.5, 1e21, 'a"b\\c\n', '\ud800', true, false, null, [], {}]) expect(canonicalJson(v)).toBe(JSON.stringify(v));
  });

  it('keeps lone surrogates apart', () => {
    expect(canonicalJson('\ud800')).not.toBe(canonicalJson('\ud801'));
  });

  it('handles nesting far deeper than the call stack allows', () => {
    const depth = 200_000;
    const deep = JSON.parse('['.repeat(depth) + ']'.repeat(depth));
    expect(canonicalJson(deep)).toBe('['.repeat(depth) + ']'.repeat(depth));
  });
});

describe('requestFingerprint', () => {
  it('is equal for the same JSON written differently, different for another body or query', () => {
    const a = requestFingerprint('', JSON.parse('{"a":1,"b":[1,2]}'));
    expect(requestFingerprint('', JSON.parse('{ "b": [1, 2], "a": 1 }')).equals(a)).toBe(true);
    expect(requestFingerprint('', { a: 1, b: [2, 1] }).equals(a)).toBe(false);
    expect(requestFingerprint('?x=1', { a: 1, b: [1, 2] }).equals(a)).toBe(false);
    expect(requestFingerprint('', undefined).equals(requestFingerprint('', ''))).toBe(false);
    expect(requestFingerprint('', '{}').equals(requestFingerprint('', {}))).toBe(false);
  });
});

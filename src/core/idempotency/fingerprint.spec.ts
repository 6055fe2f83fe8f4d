import { canonicalJson, canonicalJsonFast, requestFingerprint } from './fingerprint';

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

describe('canonicalJsonFast', () => {
  it('writes exactly what canonicalJson writes', () => {
    const values: unknown[] = [
      0,
      -1.5,
      1e21,
      NaN,
      Infinity,
      'a"b\\c\n',
      '\ud800',
      '\ud83d\ude00',
      '\u2028',
      '\u007f',
      'é',
      true,
      false,
      null,
      [],
      {},
      undefined,
      { b: 1, a: [{ d: 'x', c: null }, true] },
      { '10': 1, '9': 2, a: 3, A: 4, _: 5, é: 6, '\ud800': 7, 'q"': 8, '': 9 },
      [undefined, () => 1, Symbol('s'), { u: undefined, f: () => 1 }],
      Object.assign(Object.create(null), { z: 1, y: { x: [1, 'two', null] } }),
      { d: new Date(0), m: new Map([[1, 2]]) },
      JSON.parse('{"data":[{"type":"students","attributes":{"email":"a@b.test","first_name":"F","last_name":"L"}}],"meta":{"x":[1,2,{"b":[],"a":{}}]}}'),
    ];
    for (const v of values) expect(canonicalJsonFast(v)).toBe(canonicalJson(v));
  });

  it('agrees with canonicalJson on random JSON (random member order, escapes, surrogates)', () => {
    let seed = 42;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const units = [0x22, 0x5c, 0x0a, 0x01, 0x41, 0x7a, 0x30, 0xe9, 0x2028, 0xd800, 0xdc00, 0xd83d, 0xde00, 0x5f];
    const str = () => String.fromCharCode(...Array.from({ length: rnd(5) }, () => units[rnd(units.length)]));
    const gen = (d: number): unknown => {
      const k = rnd(d > 4 ? 4 : 7);
      if (k === 0) return str();
      if (k === 1) return rnd(2000) - 1000 + rnd(4) / 8;
      if (k === 2) return rnd(2) === 0;
      if (k === 3) return null;
      if (k === 4) return Array.from({ length: rnd(4) }, () => gen(d + 1));
      return Object.fromEntries(Array.from({ length: rnd(5) }, () => [str(), gen(d + 1)]));
    };
    for (let i = 0; i < 2000; i++) {
      const v = gen(0);
      expect(canonicalJsonFast(v)).toBe(canonicalJson(v));
    }
  });

  it('handles nesting far deeper than the call stack allows', () => {
    const depth = 200_000;
    const deep = JSON.parse('{"a":'.repeat(depth) + '[1]' + '}'.repeat(depth));
    expect(canonicalJsonFast(deep)).toBe(canonicalJson(deep));
  });

  it('throws where canonicalJson throws (a BigInt is not JSON)', () => {
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
    expect(() => canonicalJsonFast({ a: 1n })).toThrow(TypeError);
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

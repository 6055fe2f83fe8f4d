import { cachedPublicId, decodeId, encodeId, ID_PREFIXES, IdType, newUuid } from './ids';

const TYPES = Object.keys(ID_PREFIXES) as IdType[];

describe('ids', () => {
  it('round-trips a uuid through its public form, lowercase letters and digits only (^[0-9a-z]+$)', () => {
    for (const type of TYPES) {
      for (const uuid of [newUuid(), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff']) {
        const id = encodeId(type, uuid);
        expect(id).toMatch(/^[0-9a-z]+$/);
        expect(id.length).toBeLessThanOrEqual(64);
        expect(id.length).toBe(ID_PREFIXES[type].length + 25);
        expect(decodeId(type, id)).toBe(uuid);
      }
    }
  });

  it('encodeId and decodeId answer as their plain definitions (the whole hex in base 36; the value back in hex, checked as a UUID)', () => {
    const plainEncode = (type: IdType, uuid: string) =>
      ID_PREFIXES[type] +
      BigInt('0x' + uuid.replace(/-/g, ''))
        .toString(36)
        .padStart(25, '0');
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const uuids = [...Array.from({ length: 500 }, newUuid), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'ABCDEF01-2345-6789-ABCD-EF0123456789'];
    const odd = ['0123456789abcdef0123456789abcdef', '-0123456-789abcdef0123-456789abcdef', '01234567-89ab-cdef-0123-456789ab-def', '0-1', 'abc'];
    for (const uuid of [...uuids, ...odd]) expect(encodeId('student', uuid)).toBe(plainEncode('student', uuid));
    for (const uuid of uuids) {
      const id = encodeId('student', uuid);
      const back = decodeId('student', id);
      expect(back).toBe(uuid.toLowerCase());
      expect(back).toMatch(UUID);
    }
    // the largest and smallest bodies, and one past 2^128
    expect(decodeId('student', 'stu' + '0'.repeat(25))).toBe('00000000-0000-0000-0000-000000000000');
    expect(decodeId('student', 'stu' + (2n ** 128n - 1n).toString(36).padStart(25, '0'))).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
    expect(decodeId('student', 'stu' + (2n ** 128n).toString(36).padStart(25, '0'))).toBeNull();
  });

  it('prefixes are distinct and lowercase letters only', () => {
    const prefixes = Object.values(ID_PREFIXES);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    for (const p of prefixes) expect(p).toMatch(/^[a-z]+$/);
  });

  it('no id of any type decodes as any other type (also where one prefix starts another: pln/plne, pth/ppth)', () => {
    // uuids whose body starts with the letters that extend a shorter prefix into a longer one
    const uuids = [newUuid(), newUuid(), newUuid(), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'];
    for (let i = 0; i < 200; i++) uuids.push(newUuid());
    for (const from of TYPES) {
      for (const uuid of uuids) {
        const id = encodeId(from, uuid);
        for (const to of TYPES) if (to !== from) expect(decodeId(to, id)).toBeNull();
      }
    }
    // crafted: a plan-enrollment-shaped string is never a plan id and vice versa
    const body = encodeId('plan', newUuid()).slice(3);
    expect(decodeId('planEnrollment', 'plne' + body)).not.toBeNull();
    expect(decodeId('plan', 'plne' + body)).toBeNull();
    expect(decodeId('planEnrollment', 'pln' + body)).toBeNull();
    expect(decodeId('path', 'ppth' + body)).toBeNull();
  });

  it('rejects garbage, non-strings, over-long, upper-case, old-format and non-canonical ids', () => {
    const uuid = newUuid();
    const id = encodeId('student', uuid);
    expect(decodeId('student', 'stu')).toBeNull();
    expect(decodeId('student', 42)).toBeNull();
    expect(decodeId('student', null)).toBeNull();
    expect(decodeId('student', 'stu' + 'a'.repeat(70))).toBeNull();
    expect(decodeId('student', id + '0')).toBeNull();
    expect(decodeId('student', id.slice(0, -1))).toBeNull();
    expect(decodeId('student', id.toUpperCase())).toBeNull();
    expect(decodeId('student', 'stu' + id.slice(3).replace(/[a-z]/, 'A'))).toBe(id.slice(3).match(/[a-z]/) ? null : uuid);
    expect(decodeId('student', "stu'; drop table x;--aaaaaaa")).toBeNull();
    expect(decodeId('student', 'stu_' + Buffer.from(uuid.replace(/-/g, ''), 'hex').toString('base64url'))).toBeNull();
    // 25 base-36 digits go past 2^128: values at or above it are not canonical
    expect(decodeId('student', 'stu' + 'z'.repeat(25))).toBeNull();
    expect(decodeId('student', 'stu' + (1n << 128n).toString(36).padStart(25, '0'))).toBeNull();
    expect(decodeId('student', 'stu' + ((1n << 128n) - 1n).toString(36).padStart(25, '0'))).toBe('ffffffff-ffff-ffff-ffff-ffffffffffff');
    // a tweaked last character is another uuid or rejected, never the same one
    const last = id[id.length - 1];
    const tweaked = id.slice(0, -1) + (last === 'a' ? 'b' : 'a');
    expect(decodeId('student', tweaked)).not.toBe(uuid);
  });
});

describe('cachedPublicId', () => {
  it('answers encodeId of the same type and uuid, also when asked again and for another type', () => {
    const uuid = newUuid();
    expect(cachedPublicId('student', uuid)).toBe(encodeId('student', uuid));
    expect(cachedPublicId('student', uuid)).toBe(encodeId('student', uuid));
    expect(cachedPublicId('course', uuid)).toBe(encodeId('course', uuid));
    expect(cachedPublicId('course', uuid)).not.toBe(cachedPublicId('student', uuid));
  });
});

import { randomUUID } from 'node:crypto';
import { decodeId, encodeId, ID_PREFIXES, type IdType } from './ids';

describe('encodeId (remembered) and decodeId', () => {
  it('gives the same id for a uuid however often and in whichever order it is asked, and decodes back', () => {
    const uuids = [...Array.from({ length: 300 }, () => randomUUID()), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'];
    const types = Object.keys(ID_PREFIXES) as IdType[];
    const first = new Map<string, string>();
    for (const type of types) for (const u of uuids) first.set(`${type}:${u}`, encodeId(type, u));
    for (const type of [...types].reverse()) {
      for (const u of uuids) {
        const id = encodeId(type, u);
        expect(id).toBe(first.get(`${type}:${u}`));
        expect(id.startsWith(ID_PREFIXES[type])).toBe(true);
        expect(decodeId(type, id)).toBe(u);
      }
    }
    // the same uuid under two types: two prefixes over the same body
    const u = uuids[0];
    expect(encodeId('student', u).slice(ID_PREFIXES.student.length)).toBe(encodeId('course', u).slice(ID_PREFIXES.course.length));
    expect(encodeId('student', u)).not.toBe(encodeId('course', u));
  });

  it('still answers correctly past the memo bound (a full type is cleared, not wrong)', () => {
    const uuids = Array.from({ length: 20_500 }, () => randomUUID());
    const ids = uuids.map((u) => encodeId('lesson', u));
    expect(new Set(ids).size).toBe(uuids.length);
    for (let i = 0; i < uuids.length; i += 97) expect(decodeId('lesson', encodeId('lesson', uuids[i]))).toBe(uuids[i]);
    for (let i = 0; i < uuids.length; i += 97) expect(encodeId('lesson', uuids[i])).toBe(ids[i]);
  });
});

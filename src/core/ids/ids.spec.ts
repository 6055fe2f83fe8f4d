import { decodeId, encodeId, newUuid } from './ids';

describe('ids', () => {
  it('round-trips a uuid through its public form', () => {
    const uuid = newUuid();
    const id = encodeId('student', uuid);
    expect(id).toMatch(/^stu_[A-Za-z0-9_-]{22}$/);
    expect(decodeId('student', id)).toBe(uuid);
  });

  it('never decodes one type as another', () => {
    const id = encodeId('student', newUuid());
    expect(decodeId('course', id)).toBeNull();
  });

  it('rejects garbage, non-strings, over-long and non-canonical ids', () => {
    expect(decodeId('student', 'stu_')).toBeNull();
    expect(decodeId('student', 42)).toBeNull();
    expect(decodeId('student', 'stu_' + 'A'.repeat(70))).toBeNull();
    expect(decodeId('student', "stu_'; drop table x;--aaaaaa")).toBeNull();
    const id = encodeId('student', newUuid());
    const last = id[id.length - 1];
    const tweaked = id.slice(0, -1) + (last === 'A' ? 'B' : 'A');
    // a tweaked last character is either another valid id or rejected, never the same uuid
    expect(decodeId('student', tweaked)).not.toBe(decodeId('student', id));
  });
});

import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, isEmail, validateSync } from 'class-validator';
import { plainEmail, quickCreateItem, quickUpdateItem, StudentCreateAttributes, StudentCreateItem, StudentUpdateAttributes, StudentUpdateItem } from './student-batch.dto';

/** Every combination of the given member values (undefined: the member omitted). */
function combos(members: Record<string, unknown[]>): Record<string, unknown>[] {
  let out: Record<string, unknown>[] = [{}];
  for (const [name, values] of Object.entries(members)) {
    out = out.flatMap((o) => values.map((v) => (v === undefined ? { ...o } : { ...o, [name]: v })));
  }
  return out;
}

const EMAILS = [
  undefined,
  null,
  'a@example.com',
  'A.B+c@Sub.Example.ORG',
  'nope',
  '',
  'a@b',
  'é@example.com',
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.com`,
  `${'a'.repeat(250)}@x.io`,
  1,
  ['a@example.com'],
  {},
];
const NAMES = [undefined, null, '', 'Ann', 'x'.repeat(50), 'x'.repeat(51), '😀'.repeat(25), '😀'.repeat(26), 3, true, ['x'], {}];
const FLAGS = [undefined, null, true, false, 'true', 0];
const IDS = [undefined, null, 'stu_x', '', 7, ['stu_x']];

/**
 * The hand-written checks against class-transformer + class-validator (the usual way runBatch takes):
 * an item they accept passes the DTO's rules and is the same item; whatever the rules refuse, they
 * refuse (the usual way then gives the errors).
 */
function agree(cls: new () => object, quick: (raw: Record<string, any>) => object | undefined, raws: Record<string, any>[]): number {
  let accepted = 0;
  for (const raw of raws) {
    const input = JSON.parse(JSON.stringify(raw));
    const instance = plainToInstance(cls, JSON.parse(JSON.stringify(raw)), { exposeDefaultValues: true });
    const errors = validateSync(instance, { whitelist: true, forbidUnknownValues: false });
    const item = quick(input);
    expect(input).toEqual(JSON.parse(JSON.stringify(raw))); // left as it was
    if (item === undefined) continue;
    accepted++;
    expect({ raw, errors: errors.map((e) => e.property) }).toEqual({ raw, errors: [] });
    expect({ raw, item }).toEqual({ raw, item: { ...instance } });
  }
  return accepted;
}

describe('quickCreateItem / quickUpdateItem (the DTO rules, hand-written)', () => {
  it('accept exactly what the create rules accept, as the same item', () => {
    const attrs = combos({ email: EMAILS, first_name: NAMES, last_name: NAMES.slice(0, 6) });
    const raws = [...attrs.map((attributes) => ({ type: 'students', attributes })), { type: 'students' }, { type: 'students', attributes: { email: 'a@example.com', extra: { x: 1 } }, id: 'x' }];
    const accepted = agree(StudentCreateItem, quickCreateItem, raws);
    // the valid ones are taken: emails 2..3 and 6..8 pass, names 0..4 (5 without the long one), last names 0..4
    expect(accepted).toBeGreaterThan(100);
  });

  it('accept exactly what the update rules accept, as the same item', () => {
    const attrs = combos({ email: EMAILS, first_name: NAMES.slice(0, 7), last_name: [undefined, 'L', 'x'.repeat(51)], is_inactive: FLAGS });
    const raws = IDS.flatMap((id) =>
      attrs.slice(0, id === undefined ? attrs.length : 60).map((attributes) => (id === undefined ? { type: 'students', attributes } : { type: 'students', id, attributes })),
    );
    raws.push({ type: 'students', id: 'stu_x' } as any);
    const accepted = agree(StudentUpdateItem, quickUpdateItem, raws);
    expect(accepted).toBeGreaterThan(300);
  });

  it('leave to class-validator what they do not mirror', () => {
    expect(quickCreateItem({ type: 'students', attributes: Object.assign(Object.create({ email: 'a@example.com' }), {}) })).toBeUndefined();
    expect(quickCreateItem({ type: 'students', attributes: [] as any })).toBeUndefined();
    expect(quickUpdateItem({ type: 'students', attributes: null as any })).toBeUndefined();
  });

  it('take for a plain address only what isEmail accepts', () => {
    // a small deterministic generator (no flaky seeds): letters, digits, every atom character, dots, at signs, quotes, spaces, underscores, non-ASCII
    let seed = 12345;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    const pick = (chars: string, n: number) => Array.from({ length: n }, () => chars[rnd(chars.length)]).join('');
    const LOCAL = 'abcXYZ019!#$%&\'*+/=?^_`{|}~-..@" ~é';
    const LABEL = 'abcXYZ019--_.é１';
    const samples: string[] = [
      'a@example.com',
      'A.B+c@Sub.Example.ORG',
      'a..b@example.com',
      '.a@example.com',
      'a.@example.com',
      'a@-x.com',
      'a@x-.com',
      'a@x.c',
      'a@x.c0m',
      'a@x.123',
      'a@x_y.com',
      'a@x.xn--p1ai',
      '"a b"@x.com',
      'a@b@c.com',
      `${'a'.repeat(64)}@x.io`,
      `${'a'.repeat(65)}@x.io`,
      `a@${'b'.repeat(63)}.io`,
      `a@${'b'.repeat(64)}.io`,
      `a@b.${'c'.repeat(63)}`,
      `a@b.${'c'.repeat(64)}`,
    ];
    for (let i = 0; i < 20000; i++) {
      const local = pick(LOCAL, 1 + rnd(i % 50 === 0 ? 70 : 8));
      const labels = Array.from({ length: 1 + rnd(3) }, () => pick(LABEL, 1 + rnd(i % 40 === 0 ? 70 : 6)));
      const tld = pick(i % 3 ? 'abcXYZ' : 'abZ09-é', rnd(i % 30 === 0 ? 70 : 5));
      samples.push(`${local}@${[...labels, tld].join('.')}`);
    }
    let plain = 0;
    for (const s of samples) {
      if (!plainEmail(s)) continue;
      plain++;
      expect([s, isEmail(s, {})]).toEqual([s, true]);
    }
    expect(plain).toBeGreaterThan(1000);
    expect(['a@example.com', 'A.B+c@Sub.Example.ORG', `${'a'.repeat(64)}@x.io`].every(plainEmail)).toBe(true);
  });

  it('know every member the DTO classes have rules for: a member added to a DTO and not to them fails here instead of being dropped', () => {
    const members = (cls: new () => object) =>
      [
        ...new Set(
          getMetadataStorage()
            .getTargetValidationMetadatas(cls, '', false, false)
            .map((m) => m.propertyName),
        ),
      ].sort();
    // every member set to a valid value: the hand check must answer each of them (the usual way would keep them)
    const create = quickCreateItem({ type: 'students', attributes: { email: 'a@example.com', first_name: 'A', last_name: 'B' } })!;
    expect(Object.keys(create).sort()).toEqual(members(StudentCreateItem));
    expect(Object.keys(create.attributes).sort()).toEqual(members(StudentCreateAttributes));
    const update = quickUpdateItem({ type: 'students', id: 'stu_x', attributes: { email: 'a@example.com', first_name: 'A', last_name: 'B', is_inactive: true } })!;
    expect(Object.keys(update).sort()).toEqual(members(StudentUpdateItem));
    expect(Object.keys(update.attributes).sort()).toEqual(members(StudentUpdateAttributes));
    // a member no DTO declares is whitelisted away by both ways (documented in docs/decisions/serialization.md)
    expect(quickCreateItem({ type: 'students', attributes: { email: 'a@example.com', is_inactive: true } })!.attributes).not.toHaveProperty('is_inactive');
  });
});

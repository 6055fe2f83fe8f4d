import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';
import { transformValid, validateWhitelisted } from './fast-validate';
import '../../app.module'; // loads every module, so every DTO class registers its rules

/**
 * Differential test of the validation fast path: for every DTO class the application registers,
 * generated inputs must give exactly class-validator's own result (errors, their order and
 * messages, and the whitelisted object). It also catches a class-validator upgrade that changes
 * the internals the fast path mirrors.
 */
const POOL: unknown[] = [
  undefined,
  null,
  '',
  'x',
  'Ab c',
  'a@example.com',
  'not an email',
  '2026-01-31T12:00:00Z',
  '2026-01-31',
  'https://example.com/a',
  'http://127.0.0.1/',
  'HTML',
  'MODULAR',
  'PUBLIC',
  'MONTHS',
  'true',
  '1',
  'x'.repeat(600),
  0,
  1,
  -1,
  42,
  1.5,
  1e12,
  true,
  false,
  [],
  ['x'],
  [1, 2],
  [{}],
  {},
  { id: 'x' },
  { id: 5 },
  { name: 'n', id: 'cit_AAAAAAAAAAAAAAAAAAAAAA' },
];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const shape = (errors: ValidationError[]): unknown => errors.map((e) => ({ property: e.property, constraints: e.constraints, children: shape(e.children ?? []) }));

describe('fast validation path', () => {
  const storage = getMetadataStorage() as any;
  const classes = [...storage.validationMetadatas.keys()].filter((c: unknown) => typeof c === 'function') as (new () => object)[];

  it('sees the application DTO classes', () => {
    expect(classes.length).toBeGreaterThan(30);
  });

  it("gives class-validator's exact result on generated inputs for every DTO class", () => {
    const next = rng(20261121);
    const pick = () => POOL[Math.floor(next() * POOL.length)];
    let compared = 0;
    let valid = 0;
    for (const cls of classes) {
      const props = [...new Set<string>((storage.validationMetadatas.get(cls) ?? []).map((m: any) => m.propertyName))];
      for (let i = 0; i < 150; i++) {
        const plain: Record<string, unknown> = {};
        for (const p of props) {
          const v = pick();
          if (v !== undefined) plain[p] = v;
          // often nest a plausible object so nested classes are reached
          if (next() < 0.25) plain[p] = Object.fromEntries(props.slice(0, 3).map((q) => [q, pick()]));
        }
        if (next() < 0.3) plain.unknown_member = 'dropped';
        const a = plainToInstance(cls, JSON.parse(JSON.stringify(plain ?? {})));
        const b = plainToInstance(cls, JSON.parse(JSON.stringify(plain ?? {})));
        const fast = validateWhitelisted(a);
        const slow = validateSync(b, { whitelist: true, forbidUnknownValues: false });
        expect({ cls: cls.name, plain, errors: shape(fast), object: JSON.stringify(a) }).toEqual({
          cls: cls.name,
          plain,
          errors: shape(slow),
          object: JSON.stringify(b),
        });
        compared++;
        if (!slow.length) valid++;
      }
    }
    expect(compared).toBeGreaterThan(30 * 150);
    expect(valid).toBeGreaterThan(500); // both outcomes are exercised, not only failures
  });

  it('compiles plainToInstance + validation to the same instance, for valid inputs only, on generated inputs for every DTO class', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const transformer = require('class-transformer/cjs/storage').defaultMetadataStorage;
    const next = rng(20261124);
    const pick = () => POOL[Math.floor(next() * POOL.length)];
    const propsOf = (cls: unknown) => [...new Set<string>((storage.validationMetadatas.get(cls) ?? []).map((m: any) => m.propertyName))];
    /** a plain input for `cls`, nested members filled in the shape of their class most of the time */
    const generate = (cls: any, depth: number): Record<string, unknown> => {
      const plain: Record<string, unknown> = {};
      for (const p of propsOf(cls)) {
        if (next() < 0.15) continue;
        const type = transformer.findTypeMetadata(cls, p);
        const nested = type && typeof type.typeFunction === 'function' && type.typeFunction.length === 0 ? type.typeFunction() : undefined;
        if (typeof nested === 'function' && depth < 3 && next() < 0.8) plain[p] = generate(nested, depth + 1);
        else {
          const v = pick();
          if (v !== undefined) plain[p] = v;
        }
      }
      if (next() < 0.3) plain.unknown_member = next() < 0.5 ? 'dropped' : { nested: true };
      return plain;
    };
    const describeObject = (o: any): unknown =>
      o !== null && typeof o === 'object' && !Array.isArray(o) ? { class: o.constructor?.name, members: Object.keys(o).map((k) => [k, describeObject(o[k])]) } : o;
    let compiled = 0;
    let validSlow = 0;
    for (const cls of classes) {
      for (let i = 0; i < 200; i++) {
        const plain = generate(cls, 0);
        const slowObject = plainToInstance(cls, JSON.parse(JSON.stringify(plain)), { enableImplicitConversion: false, exposeDefaultValues: true });
        const slow = validateSync(slowObject, { whitelist: true, forbidUnknownValues: false });
        const input = JSON.parse(JSON.stringify(plain));
        const fast = transformValid(cls, input);
        if (!slow.length) validSlow++;
        if (fast === undefined) continue;
        compiled++;
        expect({ cls: cls.name, plain, errors: shape(slow), object: describeObject(fast) }).toEqual({ cls: cls.name, plain, errors: [], object: describeObject(slowObject) });
        expect(input).toEqual(JSON.parse(JSON.stringify(plain))); // the input is left as it was
      }
    }
    expect(compiled).toBeGreaterThan(300);
    expect(validSlow).toBeGreaterThan(compiled / 2);
  });

  it('compiles the /v2 student batch items', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { StudentCreateItem, StudentUpdateItem } = require('../../modules/students/dto/student-batch.dto');
    const created = transformValid(StudentCreateItem, { type: 'students', id: 'x', attributes: { email: 'a@example.com', last_name: 'L', extra: 1 } }) as any;
    expect(created).toBeInstanceOf(StudentCreateItem);
    expect(created.attributes).toEqual({ email: 'a@example.com', first_name: '', last_name: 'L' });
    expect(Object.keys(created)).toEqual(['type', 'attributes']);
    const updated = transformValid(StudentUpdateItem, { type: 'students', id: 'stu_x', attributes: { first_name: 'F', is_inactive: null } }) as any;
    expect(updated).toBeInstanceOf(StudentUpdateItem);
    expect(updated.attributes.first_name).toBe('F');
    // anything refused goes the usual way, for class-validator's errors
    expect(transformValid(StudentCreateItem, { type: 'students', attributes: { email: 'nope' } })).toBeUndefined();
    expect(transformValid(StudentCreateItem, { type: 'students', attributes: { email: 'a@example.com', first_name: 'x'.repeat(51) } })).toBeUndefined();
    expect(transformValid(StudentCreateItem, { type: 'students' })).toBeUndefined();
    expect(transformValid(StudentUpdateItem, { type: 'students', attributes: { first_name: ['F'] } })).toBeUndefined();
  });
});

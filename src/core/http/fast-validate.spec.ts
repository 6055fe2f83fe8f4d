import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';
import { validateWhitelisted } from './fast-validate';
import '../../app.module'; // loads every module, so every DTO class registers its rules

/**
 * Differential test of the validation fast path: for every DTO class the application registers,
 * generated inputs must give exactly class-validator's own result (errors, their order and
 * messages, and the whitelisted object). It also catches a class-validator upgrade that changes
 * the internals the fast path mirrors.
 */
const POOL: unknown[] = [
  undefined, null, '', 'x', 'Ab c', 'a@example.com', 'not an email', '2026-01-31T12:00:00Z', '2026-01-31', 'https://example.com/a',
  'http://127.0.0.1/', 'HTML', 'MODULAR', 'PUBLIC', 'MONTHS', 'true', '1', 'x'.repeat(600), 0, 1, -1, 42, 1.5, 1e12, true, false,
  [], ['x'], [1, 2], [{}], {}, { id: 'x' }, { id: 5 }, { name: 'n', id: 'cit_AAAAAAAAAAAAAAAAAAAAAA' },
];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const shape = (errors: ValidationError[]): unknown =>
  errors.map((e) => ({ property: e.property, constraints: e.constraints, children: shape(e.children ?? []) }));

describe('fast validation path', () => {
  const storage = getMetadataStorage() as any;
  const classes = [...storage.validationMetadatas.keys()].filter((c: unknown) => typeof c === 'function') as (new () => object)[];

  it('sees the application DTO classes', () => {
    expect(classes.length).toBeGreaterThan(30);
  });

  it('gives class-validator\'s exact result on generated inputs for every DTO class', () => {
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
});

import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsString, MaxLength, MinLength, validateSync } from 'class-validator';
import { Attributes, Rules } from './rules';

describe('Rules', () => {
  it('applies its decorators as if written one above the other (same failed rules, same order)', () => {
    class Written {
      @IsString()
      @MinLength(3)
      @MaxLength(5)
      name: unknown;
    }
    class Composed {
      @Rules(IsString(), MinLength(3), MaxLength(5))
      name: unknown;
    }
    for (const value of [7, 'ab', 'abcdefg', 'abcd']) {
      const written = Object.assign(new Written(), { name: value });
      const composed = Object.assign(new Composed(), { name: value });
      expect(validateSync(composed).map((e) => Object.keys(e.constraints ?? {}))).toEqual(validateSync(written).map((e) => Object.keys(e.constraints ?? {})));
    }
  });

  it('Attributes: a JSON:API item attributes member is required, an object, and validated as its class', () => {
    class Attrs {
      @IsString() name: string;
    }
    class Item {
      @Attributes(() => Attrs) attributes: Attrs;
    }
    const problems = (raw: object) => validateSync(plainToInstance(Item, raw)).map((e) => [e.property, Object.keys(e.constraints ?? {}), (e.children ?? []).map((c) => c.property)]);
    expect(problems({})).toEqual([['attributes', expect.arrayContaining(['isDefined', 'isObject']), []]]);
    expect(problems({ attributes: 'x' })).toEqual([['attributes', expect.arrayContaining(['isObject']), []]]);
    expect(problems({ attributes: { name: 1 } })).toEqual([['attributes', [], ['name']]]);
    expect(problems({ attributes: { name: 'ok' } })).toEqual([]);
  });
});

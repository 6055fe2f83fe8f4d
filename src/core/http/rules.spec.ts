import 'reflect-metadata';
import { IsString, MaxLength, MinLength, validateSync } from 'class-validator';
import { Rules } from './rules';

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
});

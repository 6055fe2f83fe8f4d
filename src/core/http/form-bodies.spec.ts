import 'reflect-metadata';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsBoolean, IsOptional, ValidateNested } from 'class-validator';
import { ApiError } from './api-error';
import { readForm } from './form-bodies';
import { Bool, Int, Obj, Required, Str, StrList } from './v1-rules';
import { ObjectList } from './array-rules';

class Ref {
  @Required() @Str() id?: string;
}
class Item {
  @Required() @Str() email?: string;
  @Bool() active?: boolean;
}
class Body {
  @Required() @Str({ min: 1 }) title?: string;
  @Bool() flag?: boolean;
  @Required() @Bool() needed?: boolean;
  @Int(0, 100, { nullable: true }) count?: number | null;
  @StrList(50) labels?: string[];
  @Obj() @ValidateNested() @Type(() => Ref) course?: Ref;
  @ObjectList(() => Item, 10) users?: Item[];
  @IsOptional() @IsBoolean() plain?: boolean;
  @ApiProperty({ type: 'integer', required: false }) @Allow() rating?: unknown;
  @Allow() anything?: unknown;
}

const read = (q: string, ...cls: [Function | undefined] | []) => {
  const fields: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(q)) {
    const had = fields[k];
    fields[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return readForm(fields, cls.length ? cls[0] : Body);
};

describe('readForm: a /v1 form read as Django REST framework reads it', () => {
  it('booleans from DRF texts, numbers from their text; other texts stay strings for the rules to refuse', () => {
    for (const t of ['true', 'True', 'TRUE', '1', 'on', 'yes', 't', 'Y']) expect(read(`flag=${t}`)).toEqual({ flag: true });
    for (const f of ['false', 'False', '0', 'off', 'no', 'f', 'N']) expect(read(`flag=${f}`)).toEqual({ flag: false });
    expect(read('flag=maybe&plain=2')).toEqual({ flag: 'maybe', plain: '2' });
    expect(read('count=42')).toEqual({ count: 42 });
    expect(read('count=+7&rating=4')).toEqual({ count: 7, rating: 4 });
    expect(read('count=5.0')).toEqual({ count: 5 });
    expect(read('count=1e3')).toEqual({ count: 1000 });
    expect(read('count=abc')).toEqual({ count: 'abc' });
    expect(read('count=0x10')).toEqual({ count: '0x10' });
    expect(read('title=123')).toEqual({ title: '123' });
  });

  it('a member that is not a list takes the last repeated value; a list member every value', () => {
    expect(read('title=a&title=b')).toEqual({ title: 'b' });
    expect(read('labels=a&labels=b')).toEqual({ labels: ['a', 'b'] });
    expect(read('labels=a')).toEqual({ labels: ['a'] });
    expect(read('labels[1]=b&labels[0]=a')).toEqual({ labels: ['a', 'b'] });
  });

  it("nested objects from dotted names, lists of objects from indexed names (both of DRF's spellings)", () => {
    expect(read('course.id=crs_1')).toEqual({ course: { id: 'crs_1' } });
    expect(read('users[0].email=a@x.test&users[0].active=off&users[1]email=b@x.test')).toEqual({
      users: [{ email: 'a@x.test', active: false }, { email: 'b@x.test' }],
    });
  });

  it('empty values: null when nullable, absent when optional, kept when required; strings keep ""', () => {
    expect(read('count=&flag=&needed=&title=')).toEqual({ count: null, needed: '', title: '' });
    expect(read('labels=')).toEqual({ labels: [''] });
  });

  it('undeclared members and routes without a body class: strings, lists from repeats, objects from dots', () => {
    expect(read('anything=1&other=a&other=b&deep.x.y=z')).toEqual({ anything: '1', other: ['a', 'b'], deep: { x: { y: 'z' } } });
    expect(read('flag=true&n=1&user.email=a', undefined)).toEqual({ flag: 'true', n: '1', user: { email: 'a' } });
  });

  it('refuses names nested past the body depth cap and __proto__, and never sets a prototype', () => {
    expect(() => read(`${'a.'.repeat(70)}b=1`)).toThrow(ApiError);
    expect(() => read('__proto__.x=1')).toThrow(ApiError);
    const out = read('constructor.prototype.x=1', undefined) as any;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as any).x).toBeUndefined();
  });
});

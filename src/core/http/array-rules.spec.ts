import 'reflect-metadata';
import { ArrayMaxSize, getMetadataStorage, IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { plainToInstance, Type } from 'class-transformer';
import { Present, PresentNotNull } from './v1-rules';
import { validateSync } from 'class-validator';
import { MAX_ARRAY_ITEMS, ObjectList } from './array-rules';
import '../../app.module'; // loads every module, so every DTO class registers its rules

const storage = getMetadataStorage() as any;

const constraintName = (m: any): string => (m.type === 'customValidation' ? (storage.getTargetValidatorConstraints(m.constraintCls)[0]?.name ?? '?') : m.type);

/** "Class.member" of every array member of a DTO class that has no maximum size, or whose nested objects may be arrays. */
function uncapped(classes: Function[]): string[] {
  const out: string[] = [];
  for (const cls of classes) {
    const metas: any[] = storage.getTargetValidationMetadatas(cls, undefined, true, false, undefined);
    const byProp = new Map<string, any[]>();
    for (const m of metas) byProp.set(m.propertyName, [...(byProp.get(m.propertyName) ?? []), m]);
    for (const [prop, ms] of byProp) {
      const names = ms.map(constraintName);
      const designType = Reflect.getMetadata('design:type', cls.prototype, prop);
      const isArrayMember = designType === Array || names.includes('isArray') || names.includes('v1StringList') || ms.some((m) => m.each);
      if (isArrayMember && !names.includes('arrayMaxSize')) out.push(`${cls.name}.${prop}: no @ArrayMaxSize`);
      const nestedEach = ms.some((m) => m.type === 'nestedValidation' && m.each);
      if (nestedEach && !ms.some((m) => constraintName(m) === 'isObject' && m.each)) out.push(`${cls.name}.${prop}: nested items not required to be objects`);
    }
  }
  return out;
}

/**
 * "Class.member" of every list or object member that @IsOptional() leaves unvalidated when null:
 * null then reaches the service, which reads it as a list or an object (`"answer_ids": null` was a
 * 500, issue 25 item 15a). Such a member is `Present()` (null refused with "This field may not be
 * null.") or, where the published document makes it nullable, `PresentNotNull()` (null accepted
 * knowingly, the service handling it).
 */
function nullSlipsThrough(classes: Function[]): string[] {
  const out: string[] = [];
  for (const cls of classes) {
    const metas: any[] = storage.getTargetValidationMetadatas(cls, undefined, true, false, undefined);
    const byProp = new Map<string, any[]>();
    for (const m of metas) byProp.set(m.propertyName, [...(byProp.get(m.propertyName) ?? []), m]);
    for (const [prop, ms] of byProp) {
      const names = ms.map(constraintName);
      const designType = Reflect.getMetadata('design:type', cls.prototype, prop);
      const structured =
        designType === Array ||
        ms.some((m) => m.each || m.type === 'nestedValidation') ||
        names.some((n: string) => ['isArray', 'isObject', 'arrayMaxSize', 'v1StringList', 'v1Object', 'v1Obj'].includes(n));
      if (structured && ms.some((m) => m.type === 'conditionalValidation' && m.name === 'isOptional')) out.push(`${cls.name}.${prop}`);
    }
  }
  return out;
}

describe('array members of request DTOs', () => {
  const classes = [...storage.validationMetadatas.keys()].filter((c: unknown) => typeof c === 'function') as Function[];

  it('sees the application DTO classes', () => {
    expect(classes.length).toBeGreaterThan(30);
  });

  it('every array member of every DTO class has a maximum size, and nested lists take only objects', () => {
    expect(uncapped(classes)).toEqual([]);
  });

  it('no list or object member lets null through to the service (@IsOptional)', () => {
    expect(nullSlipsThrough(classes)).toEqual([]);
  });

  it('the check finds a list or object member under @IsOptional (it can fail)', () => {
    class Inner {
      @IsString() name: string;
    }
    class Loose {
      @IsOptional() @IsArray() @ArrayMaxSize(3) tags?: string[];
      @IsOptional() @ValidateNested() @Type(() => Inner) inner?: Inner;
      @Present() @IsArray() @ArrayMaxSize(3) refused?: string[];
      @PresentNotNull() @IsArray() @ArrayMaxSize(3) nullable?: string[] | null;
      @IsOptional() @IsString() text?: string;
    }
    expect(nullSlipsThrough([Loose])).toEqual(['Loose.tags', 'Loose.inner']);
  });

  it('the check finds a member without a cap (it can fail)', () => {
    class Loose {
      @IsArray() @IsString({ each: true }) tags: string[];
      @IsArray() @ArrayMaxSize(3) @ValidateNested({ each: true }) items: object[];
      @ArrayMaxSize(2) @IsString({ each: true }) capped: string[];
    }
    expect(uncapped([Loose])).toEqual(['Loose.tags: no @ArrayMaxSize', 'Loose.items: nested items not required to be objects']);
  });

  it('ObjectList refuses more than its maximum, non-objects and nested arrays', () => {
    class Item {
      @IsString() name: string;
    }
    class Holder {
      @ObjectList(() => Item) items: Item[];
    }
    const errs = (items: unknown) => validateSync(plainToInstance(Holder, { items }) as object).map((e) => Object.keys(e.constraints ?? {}).concat(e.children?.length ? ['children'] : []));
    expect(errs(Array.from({ length: MAX_ARRAY_ITEMS }, () => ({ name: 'x' })))).toEqual([]);
    expect(errs(Array.from({ length: MAX_ARRAY_ITEMS + 1 }, () => ({ name: 'x' })))).toEqual([['arrayMaxSize']]);
    expect(errs([[]])).toEqual([['isObject']]);
    expect(errs(['x'])).toEqual([['isObject', 'children']]);
  });
});

import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, ValidateNested, ValidationOptions } from 'class-validator';

/**
 * Every array member of a request DTO has a maximum size (src/core/http/array-rules.spec.ts walks
 * every DTO class and fails when one lacks it): MAX_ARRAY_ITEMS unless a published document gives a
 * smaller `maxItems` (lesson `content_items` 15, client `ip_allowlist` 100). One request can no
 * longer write tens of thousands of rows. /v2 batch envelopes (`data`) have BATCH_MAX_ITEMS.
 */
export const MAX_ARRAY_ITEMS = 1000;

/**
 * A list of nested objects: an array of at most `maxItems` elements, each an object (not an array:
 * class-validator descends into nested arrays and lets `[[]]` through), each validated as `cls`.
 */
export function ObjectList(cls: () => new () => object, maxItems = MAX_ARRAY_ITEMS, opts: ValidationOptions = {}): PropertyDecorator {
  return (target, key) => {
    const k = key as string;
    IsArray(opts)(target, k);
    ArrayMaxSize(maxItems, opts)(target, k);
    IsObject({ ...opts, each: true })(target, k);
    ValidateNested({ ...opts, each: true })(target, k);
    Type(cls)(target, k);
  };
}

import { Put, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';

/** Handler metadata: this PUT handler answers PATCH too (addPatchTwins below). */
const PATCH_TWIN = 'route:patch-twin';

/**
 * One handler for PUT and PATCH of `path`, where both do the same update with the same body
 * class (the /v1 resources whose PUT, like their PATCH, changes only the members sent).
 *
 * Nest maps a method to one HTTP method (a second @Patch on the same method would replace the
 * @Put), so the PATCH route is a twin method added by the controller's interface decorator
 * (@V1(), @V2() ..., core/http/interfaces.ts, which runs after every method decorator): it is
 * named `partial` + the method's name (`update` → `partialUpdate`, `updateCode` →
 * `partialUpdateCode`, the operation ids the OpenAPI document has always given these PATCH
 * operations), calls this method, and carries all of its metadata (scopes, status code,
 * parameters, OpenAPI annotations), with PATCH as its method.
 */
export function PutAndPatch(path?: string): MethodDecorator {
  return (target, key, descriptor) => {
    Put(path)(target, key, descriptor);
    Reflect.defineMetadata(PATCH_TWIN, true, descriptor.value as object);
    return descriptor;
  };
}

/** The name of the PATCH twin of handler `name`. */
export const patchTwinName = (name: string): string => `partial${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/** Copy every own metadata entry of (`from`, `fromKey`) to (`to`, `toKey`); arrays and objects are copied, not shared. */
function copyMetadata(from: object, to: object, fromKey?: string, toKey?: string) {
  const keys = fromKey === undefined ? Reflect.getOwnMetadataKeys(from) : Reflect.getOwnMetadataKeys(from, fromKey);
  for (const k of keys) {
    const v: unknown = fromKey === undefined ? Reflect.getOwnMetadata(k, from) : Reflect.getOwnMetadata(k, from, fromKey);
    const copy = Array.isArray(v) ? [...v] : v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype ? { ...v } : v;
    if (toKey === undefined) Reflect.defineMetadata(k, copy, to);
    else Reflect.defineMetadata(k, copy, to, toKey);
  }
}

/**
 * Add the PATCH twin of every @PutAndPatch handler of the class (its own methods). Handler
 * metadata lives on the function, parameter types on (prototype, name) and Nest's route
 * arguments on (class, name): all three are copied to the twin.
 */
export function addPatchTwins(cls: Function): void {
  const proto = cls.prototype as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const handler = Object.getOwnPropertyDescriptor(proto, name)?.value;
    if (typeof handler !== 'function' || !Reflect.getOwnMetadata(PATCH_TWIN, handler)) continue;
    const twinName = patchTwinName(name);
    if (Object.prototype.hasOwnProperty.call(proto, twinName)) throw new Error(`${cls.name}.${twinName} exists: @PutAndPatch cannot add the PATCH twin of ${name}`);
    const twin = {
      [twinName](this: unknown, ...args: unknown[]) {
        return (handler as (...a: unknown[]) => unknown).apply(this, args);
      },
    }[twinName];
    copyMetadata(handler, twin);
    Reflect.deleteMetadata(PATCH_TWIN, twin);
    Reflect.defineMetadata(METHOD_METADATA, RequestMethod.PATCH, twin);
    copyMetadata(proto, proto, name, twinName);
    copyMetadata(cls, cls, name, twinName);
    Object.defineProperty(proto, twinName, { value: twin, writable: true, configurable: true, enumerable: false });
  }
}

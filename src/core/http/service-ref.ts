import type { Type } from '@nestjs/common';

/**
 * Which service a generated handler (@V1Resource, @V1Links, @V2Batches) calls, referenced by its
 * class, not by the name of a controller property: the controller's one property holding an
 * instance of `cls` (Nest injects it), or, with `part`, what `part` returns from that instance (a
 * service's sub-object: `serviceIn(PublishedCourseExtrasService, (e) => e.tags)`).
 * A reader opens the class; renaming a property or a method is a compile error, not a silent
 * `undefined` at request time; a controller holding none or two such instances fails at boot
 * (verifyServiceRefs, called by createApp through the route table).
 */
export interface ServiceRef<S> {
  cls: Type;
  part?: (service: any) => S;
}

/** The service of class `cls` itself. */
export type ServiceArg<S> = Type<S> | ServiceRef<S>;

/** A part of the controller's `cls` service: `part(instance)`. */
export function serviceIn<X, S>(cls: Type<X>, part: (service: X) => S): ServiceRef<S> {
  return { cls, part };
}

export const serviceRef = <S>(arg: ServiceArg<S>): ServiceRef<S> => (typeof arg === 'function' ? { cls: arg } : arg);

/** The method of a service a generated operation calls: `(s) => s.createPool` (one member read). */
export type MethodRef<S> = (service: S) => (...args: any[]) => unknown;

/**
 * The name of the method `ref` reads (`(s) => s.createPool` → 'createPool'), found by calling it on
 * a recording proxy at declaration time: anything but one member read throws there.
 */
export function methodName<S>(ref: MethodRef<S>): string {
  const read: string[] = [];
  const probe = new Proxy({}, { get: (_t, key) => (read.push(String(key)), () => undefined) });
  ref(probe as S);
  if (read.length !== 1) throw new Error(`A method reference reads one member of the service: ${ref.toString()}`);
  return read[0];
}

/** Controller instance → resolved service, per reference. */
const resolved = new WeakMap<object, WeakMap<ServiceRef<unknown>, unknown>>();

/** The controller's one property holding an instance of `ref.cls` (else throws, naming the controller). */
export function holderOf(ctl: object, cls: Type): unknown {
  const found = Object.values(ctl).filter((v) => v instanceof cls);
  if (found.length !== 1) throw new Error(`${ctl.constructor.name}: a generated handler calls ${cls.name}, and the controller holds ${found.length} of it (it must hold exactly one)`);
  return found[0];
}

/** The service `ref` names on controller instance `ctl` (cached per instance). */
export function resolveService<S>(ctl: object, ref: ServiceRef<S>): S {
  let perCtl = resolved.get(ctl);
  if (!perCtl) resolved.set(ctl, (perCtl = new WeakMap()));
  if (perCtl.has(ref)) return perCtl.get(ref) as S;
  const holder = holderOf(ctl, ref.cls);
  const service = (ref.part ? ref.part(holder) : holder) as S;
  if (service === undefined || service === null) throw new Error(`${ctl.constructor.name}: the part of ${ref.cls.name} a generated handler calls is ${String(service)}`);
  perCtl.set(ref, service);
  return service;
}

/** Handler metadata: the service method a generated handler calls (`AccessCodesService.createPool`), shown in the route table. */
export const CALLS_KEY = 'route:calls';

/** Class metadata: the service references of the generated handlers of a controller (checked at boot). */
export const SERVICE_REFS = 'route:service-refs';

/** Record that the class's generated handlers call `ref`. */
export function recordServiceRef(cls: Function, ref: ServiceRef<unknown>, methods: string[]): void {
  const list = (Reflect.getOwnMetadata(SERVICE_REFS, cls) as { ref: ServiceRef<unknown>; methods: string[] }[] | undefined) ?? [];
  Reflect.defineMetadata(SERVICE_REFS, [...list, { ref, methods }], cls);
}

/** Resolve every recorded service reference of a controller instance and check its methods exist (throws at boot otherwise). */
export function verifyServiceRefs(ctl: object): void {
  const list = (Reflect.getMetadata(SERVICE_REFS, ctl.constructor) as { ref: ServiceRef<unknown>; methods: string[] }[] | undefined) ?? [];
  for (const { ref, methods } of list) {
    const service = resolveService(ctl, ref) as Record<string, unknown>;
    for (const m of methods) {
      if (typeof service[m] !== 'function') throw new Error(`${ctl.constructor.name}: the generated handler's ${ref.cls.name}${ref.part ? ' part' : ''} has no method ${m}`);
    }
  }
}

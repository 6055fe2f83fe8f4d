import { DynamicModule, RequestMethod, Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, MODULE_METADATA } from '@nestjs/common/constants';
import { PUBLIC_KEY } from '../auth/decorators';
import { IdempotencyInterceptor } from './idempotency.interceptor';

const WRITES = new Set<unknown>([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE]);

/**
 * Put the IdempotencyInterceptor on every POST, PUT, PATCH and DELETE handler (but the public ones) of every controller
 * reachable from `root` (call it before NestFactory.create scans the modules). Global wiring, no
 * decorator in any controller, but only on writes: an APP_INTERCEPTOR would put Nest's interceptor
 * machinery (an rxjs pipeline and two async resources per request) in front of every read too,
 * ~70 µs of CPU per GET measured (docs/performance.md). Idempotent: the same class reference is
 * added once, so several apps in one process (tests) share the metadata and each gets its own
 * instance through its own container.
 */
export function applyIdempotencyToWrites<T extends DynamicModule>(root: T): T {
  const seen = new Set<unknown>();
  const visit = (m: unknown): void => {
    if (!m || seen.has(m) || m instanceof Promise) return;
    seen.add(m);
    let controllers: unknown[] = [];
    let imports: unknown[] = [];
    if (typeof m === 'function') {
      controllers = Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, m) ?? [];
      imports = Reflect.getMetadata(MODULE_METADATA.IMPORTS, m) ?? [];
    } else if (typeof m === 'object' && 'module' in m) {
      const dyn = m as DynamicModule;
      controllers = [...(dyn.controllers ?? []), ...(Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, dyn.module) ?? [])];
      imports = [...(dyn.imports ?? []), ...(Reflect.getMetadata(MODULE_METADATA.IMPORTS, dyn.module) ?? [])];
    } else {
      return; // forwardRef() and the like
    }
    for (const c of controllers) if (typeof c === 'function') markWrites(c as Type);
    for (const i of imports) visit(i);
  };
  visit(root);
  return root;
}

/**
 * Public writes (@Public(): the OAuth token, revoke and registration endpoints, ...) are left out:
 * the interceptor lets every request without a principal straight through, so on them it was only
 * its cost (an rxjs pipeline and two async resources: about a tenth of a token request's CPU).
 */
const isPublic = (target: object): boolean => Reflect.getMetadata(PUBLIC_KEY, target) === true;

function markWrites(controller: Type): void {
  if (isPublic(controller)) return;
  for (let proto = controller.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = name === 'constructor' ? undefined : Object.getOwnPropertyDescriptor(proto, name)?.value;
      if (typeof handler !== 'function' || !WRITES.has(Reflect.getMetadata(METHOD_METADATA, handler)) || isPublic(handler)) continue;
      const existing: unknown[] = Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? [];
      // the interceptor also runs the dry runs (core/dry-run/dry-run.ts): one interceptor per write
      if (!existing.includes(IdempotencyInterceptor)) Reflect.defineMetadata(INTERCEPTORS_METADATA, [IdempotencyInterceptor, ...existing], handler);
    }
  }
}

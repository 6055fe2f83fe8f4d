import { AsyncResource } from 'node:async_hooks';

/**
 * AsyncResource.prototype.bind without its per-call deprecation wrappers.
 *
 * Node 20's bind defines a deprecated `asyncResource` accessor on every bound function through two
 * `util.deprecate` calls (DEP0172): about 9 us per bind against 0.4 us for the same binding without
 * them (microbenchmark). Fastify's content-type parser binds once per request that has a body (every
 * POST, PUT and PATCH: a token, a batch write, a quiz attempt), Nest's interceptor machinery once
 * per intercepted call. This replacement binds the same way (the function runs in the resource's
 * async scope with the caller's `this`, or `thisArg` when given, and the same arguments; the same
 * `length`) and keeps `asyncResource` as a plain property instead of the warning accessor. Installed
 * once, on import, by the API and the worker (app.factory.ts, worker.ts); a non-function goes to
 * Node's own bind, which throws its usual error.
 */
const nodeBind = AsyncResource.prototype.bind;

function bind<F extends (...args: any[]) => any>(this: AsyncResource, fn: F, thisArg?: unknown): F {
  if (typeof fn !== 'function') return (nodeBind as (this: AsyncResource, fn: unknown, thisArg?: unknown) => F).call(this, fn, thisArg);
  const resource = this;
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]) {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : (resource.runInAsyncScope.bind(resource, fn, thisArg) as (...args: unknown[]) => unknown);
  Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, value: fn.length, writable: false });
  Object.defineProperty(bound, 'asyncResource', { configurable: true, enumerable: true, value: resource, writable: true });
  return bound as F;
}

if (AsyncResource.prototype.bind === nodeBind) AsyncResource.prototype.bind = bind as typeof nodeBind;

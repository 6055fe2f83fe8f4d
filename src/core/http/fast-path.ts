import type { INestApplicationContext, Type } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler, RouteOptions } from 'fastify';

/**
 * A route's fast path: a synchronous Fastify preHandler, a method of the route's controller, that
 * either answers the request itself (reply.send, the same answer the handler would give) or calls
 * `done()` to hand it to Nest's pipeline untouched (guards, interceptors, pipes, the handler, the
 * error filter). It runs after every Fastify hook before it (request id, log context, body parsing
 * and the body guard) and its answer goes through every hook after it (onSend: security and media
 * type headers, idempotency; onResponse: the request line), so an answer sent by it differs from
 * the handler's only in what Nest's per-request machinery costs (about 50 promises, each an
 * async-hook round while the request's log context is on). A fast path answers only what it can
 * answer without a promise, and refusals never: every error comes from the handler, so error
 * bodies and headers have one source.
 */
export type FastPathHandler = (req: FastifyRequest, reply: FastifyReply, done: () => void) => void;

interface FastPathConfig {
  fastPath?: { controller: Type; method: string };
}

/** Mark a handler as having a fast path: `method`, a FastPathHandler of the same controller. */
export function FastPath(method: string): MethodDecorator {
  return (target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const existing = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as Record<string, unknown> | undefined;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, fastPath: { controller: target.constructor as Type, method } }, handler);
  };
}

/**
 * Put each declared fast path in front of its route (call before the routes are registered, i.e.
 * before app.init() / listen): the controller instance is Nest's own, taken from the application.
 */
export function installFastPaths(fastify: FastifyInstance, app: INestApplicationContext): void {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const spec = (route.config as FastPathConfig | undefined)?.fastPath;
    if (!spec) return;
    const controller = app.get(spec.controller, { strict: false }) as Record<string, FastPathHandler>;
    const fast = controller[spec.method];
    if (typeof fast !== 'function') throw new Error(`${spec.controller.name}.${spec.method} is not a fast path`);
    const hook = fast.bind(controller) as unknown as preHandlerHookHandler;
    const existing = route.preHandler;
    route.preHandler = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
  });
}

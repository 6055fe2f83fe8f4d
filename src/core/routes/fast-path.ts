import type { INestApplicationContext, Type } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { ApplicationConfig } from '@nestjs/core';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { GlobalAuthGuard } from '../auth/auth.guard';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler, RouteOptions } from 'fastify';
import { AuthService } from '../auth/auth.service';
import { PUBLIC_KEY, SCOPES_KEY } from '../auth/decorators';
import type { Principal } from '../auth/principal';
import { AppConfig } from '../config/config';
import { v2PageOf, type V2Page } from '../pagination/cursor-page';
import { requestBaseUrl } from '../http/base-url';
import { AppValidationPipe } from '../http/validation.pipe';

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
  fastPath?: { controller: Type; handler: object; method: string; mirrors: Function[] };
  fastRead?: { controller: Type; handler: object; read: FastReader<any> };
}

/**
 * What a fast path does itself of what Nest's pipeline would do for its route: the guards and
 * interceptors it mirrors. @FastRead and, by default, @FastPath mirror the global guard
 * (GlobalAuthGuard: a cached Bearer principal holding one of the route's @Scopes, or a @Public
 * route). A route whose pipeline has any other guard or interceptor (a @RateLimit, the
 * IdempotencyInterceptor of writes, an @UseInterceptors) would be skipped by its fast path: the
 * application refuses to start (installFastPaths).
 */
export const FAST_READ_MIRRORS: readonly Function[] = [GlobalAuthGuard];

/**
 * What a FastRead reader gets to call its handler with the arguments Nest's parameter decorators
 * would give it: the request, the reply, the caller, and the values of @Param / @Query (raw),
 * @BaseUrl() and @CursorPaged(scope), computed the same way.
 */
export interface FastReadContext {
  req: FastifyRequest;
  reply: FastifyReply;
  principal: Principal;
  params: Record<string, string>;
  query: Record<string, unknown>;
  baseUrl(): string;
  page(scope: string): V2Page;
  /** `@Query() q: QueryClass`: the query validated and transformed by the global pipe (throws as it does) */
  validQuery<T>(cls: Type<T>): T;
}

const PIPE = new AppValidationPipe();

/** Calls the route's handler (a method of `controller`) with the arguments Nest would pass, and returns what it returns. */
export type FastReader<C> = (controller: C, ctx: FastReadContext) => unknown;

/**
 * Mark a handler as having a fast path: `method`, a FastPathHandler of the same controller, which
 * does itself what the guards and interceptors in `mirrors` do (default: the global guard).
 */
export function FastPath(method: string, opts: { mirrors?: Function[] } = {}): MethodDecorator {
  return (target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const existing = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as Record<string, unknown> | undefined;
    const fastPath = { controller: target.constructor as Type, handler, method, mirrors: opts.mirrors ?? [...FAST_READ_MIRRORS] };
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, fastPath }, handler);
  };
}

/** A guard or interceptor as Nest holds it: a class, or an instance (its class then). */
const classOf = (x: unknown): Function | undefined => (typeof x === 'function' ? x : x && typeof x === 'object' ? x.constructor : undefined);

/**
 * The guards and interceptors Nest's pipeline runs for `handler` of `controller` (the
 * application's global ones, APP_GUARD / APP_INTERCEPTOR providers included, then the
 * controller's and the handler's), by class.
 */
export function pipelineOf(app: INestApplicationContext, controller: Type, handler: object): { guards: Function[]; interceptors: Function[] } {
  const config = (app as unknown as { config?: ApplicationConfig }).config;
  const own = (key: string) => [...((Reflect.getMetadata(key, controller) as unknown[]) ?? []), ...((Reflect.getMetadata(key, handler) as unknown[]) ?? [])];
  const guards = [...(config?.getGlobalGuards() ?? []), ...(config?.getGlobalRequestGuards().map((w) => w.metatype) ?? []), ...own(GUARDS_METADATA)];
  const interceptors = [...(config?.getGlobalInterceptors() ?? []), ...(config?.getGlobalRequestInterceptors().map((w) => w.metatype) ?? []), ...own(INTERCEPTORS_METADATA)];
  const classes = (xs: unknown[]) => [...new Set(xs.map(classOf).filter((c): c is Function => c !== undefined))];
  return { guards: classes(guards), interceptors: classes(interceptors) };
}

/** Throws when the route's pipeline has a guard or interceptor the fast path does not mirror. */
export function checkFastPathMirrors(app: INestApplicationContext, controller: Type, handler: object, mirrors: readonly Function[], what: string): void {
  const { guards, interceptors } = pipelineOf(app, controller, handler);
  const skipped = [...guards, ...interceptors].filter((c) => !mirrors.includes(c));
  if (skipped.length) {
    const name = (handler as { name?: string }).name ?? '?';
    throw new Error(`${controller.name}.${name}: its ${what} would skip ${skipped.map((c) => c.name).join(', ')}, which it does not mirror (core/routes/fast-path.ts)`);
  }
}

/**
 * A GET route's generic fast path: for a caller whose Bearer token is cached as valid
 * (AuthService.cachedBearerPrincipal) and holds one of the route's @Scopes (any-of, as the global
 * guard checks them), `read` calls the handler itself with the arguments Nest's parameter
 * decorators would build, and its result is sent as Nest sends a handler's result (status 200,
 * Fastify's serializer). Anything else, including a reader that throws or rejects (a 404, a bad
 * parameter), goes to Nest's pipeline untouched, which runs the handler again and answers or
 * refuses: every error comes from the pipeline. Use it only on a handler whose parameters need no
 * pipe but these (a plain `@Param`, a raw `@Query() query: Record<string, unknown>` or a query class
 * (validQuery), `@BaseUrl()`, `@CursorPaged`, `@Req`, `@Res({ passthrough: true })`), that has no @Header / @HttpCode / own
 * guard or interceptor, and that reads nothing but does not write.
 */
export function FastRead<C>(read: FastReader<C>): MethodDecorator {
  return (target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const existing = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as Record<string, unknown> | undefined;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, fastRead: { controller: target.constructor as Type, handler, read } }, handler);
  };
}

function fastReadHook(app: INestApplicationContext, spec: NonNullable<FastPathConfig['fastRead']>): preHandlerHookHandler {
  const controller = app.get(spec.controller, { strict: false }) as unknown;
  const auth = app.get(AuthService, { strict: false });
  const config = app.get(AppConfig, { strict: false });
  if (Reflect.getMetadata(PUBLIC_KEY, spec.handler) ?? Reflect.getMetadata(PUBLIC_KEY, spec.controller)) {
    throw new Error(`${spec.controller.name}: @FastRead is for routes behind the guard`);
  }
  // the guard's own reading: the handler's @Scopes, else the controller's (Reflector.getAllAndOverride)
  const needed = (Reflect.getMetadata(SCOPES_KEY, spec.handler) ?? Reflect.getMetadata(SCOPES_KEY, spec.controller)) as string[] | undefined;
  const hook = (req: FastifyRequest & { principal?: unknown }, reply: FastifyReply, done: () => void): void => {
    const principal = auth.cachedBearerPrincipal(req.headers.authorization);
    if (!principal || (needed?.length && !needed.some((s) => principal.scopes.has(s)))) return done();
    let answer: unknown;
    try {
      answer = spec.read(controller, {
        req,
        reply,
        principal,
        params: (req.params ?? {}) as Record<string, string>,
        query: (req.query ?? {}) as Record<string, unknown>,
        baseUrl: () => requestBaseUrl(config, req),
        page: (scope) => v2PageOf(config, req, scope),
        validQuery: <T>(cls: Type<T>) => PIPE.transform(req.query ?? {}, { type: 'query', metatype: cls }) as T,
      });
    } catch {
      return done();
    }
    Promise.resolve(answer).then(
      (body) => {
        req.principal = principal;
        reply.send(body);
      },
      () => done(),
    );
  };
  return hook as unknown as preHandlerHookHandler;
}

/**
 * Put each declared fast path in front of its route (call before the routes are registered, i.e.
 * before app.init() / listen): the controller instance is Nest's own, taken from the application.
 */
export function installFastPaths(fastify: FastifyInstance, app: INestApplicationContext): void {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const config = route.config as FastPathConfig | undefined;
    let hook: preHandlerHookHandler;
    if (config?.fastPath) {
      const spec = config.fastPath;
      checkFastPathMirrors(app, spec.controller, spec.handler, spec.mirrors, `fast path ${spec.method}`);
      const controller = app.get(spec.controller, { strict: false }) as Record<string, FastPathHandler>;
      const fast = controller[spec.method];
      if (typeof fast !== 'function') throw new Error(`${spec.controller.name}.${spec.method} is not a fast path`);
      hook = fast.bind(controller) as unknown as preHandlerHookHandler;
    } else if (config?.fastRead) {
      checkFastPathMirrors(app, config.fastRead.controller, config.fastRead.handler, FAST_READ_MIRRORS, '@FastRead');
      hook = fastReadHook(app, config.fastRead);
    } else return;
    const existing = route.preHandler;
    route.preHandler = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
  });
}

import { Body, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res, Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ApiOkResponse, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { v1PageSchema } from '../openapi/v1-page-schema';
import type { FastifyReply } from 'fastify';
import { Auth, Scopes } from '../auth/decorators';
import type { Principal } from '../auth/principal';
import type { LinkRows } from '../pagination/link-rows';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../pagination/updated-since';
import { Paged, V1_PAGE_CAP, V1_WINDOW, V1Page } from '../pagination/v1-page';
import { ValidationFailed } from '../http/api-error';
import { BaseUrl } from '../http/base-url';
import { patchTwinName, PutAndPatch } from '../http/put-and-patch';
import { CALLS_KEY, MethodRef, methodName, recordServiceRef, resolveService, ServiceArg, serviceRef } from '../http/service-ref';

/**
 * The standard operations of a /v1 resource, declared instead of written out: list, create, read,
 * update (PUT and PATCH) and delete of the objects at `<controller path>/<at>/{<id>}`.
 *
 * Every generated handler calls one method of the controller's service (`service`: its class, or
 * `serviceIn(Class, (x) => x.part)`; each operation's `call`: `(s) => s.method`, core/http/service-ref.ts) with the caller, then the
 * path parameters in URL order (the controller's, `at`'s, and for the object operations the id),
 * then the page (list) or the body (create, update), and presents what it returns:
 * - list: `{rows, count}` → `page.list(rows.map(present), count)` (`@Paged(cap, defaultSize)`);
 *   with `filters`, the handler also takes the query (`@Query()`, of class `query` when given,
 *   validated as a hand-written handler's would be) and the service gets `filters(query)` after the
 *   page;
 * - every list takes `updated_since` (core/pagination/updated-since.ts, declared in the OpenAPI
 *   document beside the list's filters): the handler reads the query, sets `page.updatedSince`, and
 *   the service applies it (`v1SinceSql`, `v1SqlPage`: changed rows only, ordered by (updated_at,
 *   id) on an index) or its `filters` return it as `updatedSince`; a list whose service does
 *   neither answers 400 at `updated_since` rather than ignore it;
 * - create: the row → 201 (`upsert`: `{view, created}` → 201 when created, else 200);
 * - read, update: the row → 200; PUT and PATCH share one handler unless `patchBody` is given
 *   (then PATCH is its own handler `partial<Name>` with that body, as @PutAndPatch names it) or
 *   `putOnly` (no PATCH route); with `queryArg`, the update handler also takes the query (`@Query()`
 *   of class `query`, before the body) and the service gets `queryArg(query)` after the body;
 * - patch (instead of update, where the resource has no PUT): PATCH only, handler `partial<Call>`;
 * - remove: nothing → 204.
 * GETs need `<scopes>:read`, the others `<scopes>:write` (any one of the families, when `scopes`
 * lists several). The handlers carry the same decorators a
 * hand-written handler would (route, scope, status, parameters with their types), so guards,
 * pipes and the OpenAPI document see no difference. Put the decorator between @V1() (which marks
 * the handlers and adds PATCH twins) and @Controller (whose path it reads).
 */
export interface V1ResourceSpec<S> {
  /** the service: its class (the controller's one instance of it), or `serviceIn(Class, (x) => x.part)` (core/http/service-ref.ts) */
  service: ServiceArg<S>;
  /** the path between the controller's path and the object's id ('' or absent: none) */
  at?: string;
  /** the object's id parameter */
  id: string;
  scopes: string | string[];
  /** the operation's answer from the service's result; `ctl` is the controller (for presenters that need its config) */
  present: (row: any, ctl: any) => unknown;
  /**
   * `window`: a read the published document answers as a bare array (V1_WINDOW): the service
   * returns the window's rows (no count), the handler answers `page.window(rows.map(present))`.
   */
  list?: Op<S> & ({ cap: number; defaultSize?: number; window?: never } | { window: true; cap?: never; defaultSize?: never }) & { query?: Type; filters?: (query: any) => unknown };
  create?: Op<S> & { body: Type; upsert?: boolean };
  /** `baseUrl`: the handler also takes the request's base URL (@BaseUrl()) and presents with `present(row, ctl, baseUrl)` (links only a read shows) */
  read?: Op<S> & { baseUrl?: boolean; present?: (row: any, ctl: any, baseUrl: string) => unknown };
  update?: Op<S> & { body: Type; patchBody?: Type; putOnly?: boolean; query?: Type; queryArg?: (query: any) => unknown };
  patch?: Op<S> & { body: Type };
  remove?: Op<S>;
  /**
   * The JSON schema of one object as `present` answers it: declared as the answer of every
   * operation (a page of them for the list, an array for a window) in the OpenAPI document. Needed
   * where the published documents have no answer for the path (extensions); published operations
   * take their published answer.
   */
  schema?: Record<string, unknown>;
}

/** Metadata of a @V1Resource list handler (true): the walk over every such list (test/platform) finds them by it. */
export const V1_RESOURCE_LIST = 'v1-resource:list';

/** The service method (`call`: `(s) => s.method`) and the handler's name (default: the method's name). */
type Op<S> = { call: MethodRef<S>; handler?: string };

/** Upsert results: the object and whether this request made it. */
export interface Upserted<T> {
  view: T;
  created: boolean;
}

const pathParams = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
const join = (...parts: (string | undefined)[]) => parts.filter((x) => x).join('/');

type Impl = (this: Record<string, any>, p: Principal, ...args: any[]) => Promise<unknown>;

/**
 * Define `name` on the prototype as `impl` with its route decorators and its parameters: the
 * caller, the path parameters, then `last` (body class or page) and, for upserts, the reply.
 */
function defineHandler(
  proto: object,
  name: string,
  impl: Impl,
  route: MethodDecorator[],
  params: string[],
  last?: { body: Type; query?: Type } | { page: [number, number?]; query?: Type } | { baseUrl: true },
  reply = false,
) {
  if (Object.prototype.hasOwnProperty.call(proto, name)) throw new Error(`@V1Resource: ${proto.constructor.name}.${name} exists`);
  // a function of the handler's name: Nest and the OpenAPI explorer read parameters by the function's name
  const handler = {
    [name](this: Record<string, any>, p: Principal, ...args: unknown[]) {
      return impl.call(this, p, ...args);
    },
  }[name];
  Object.defineProperty(proto, name, { value: handler, writable: true, configurable: true, enumerable: false });
  const types: unknown[] = [Object, ...params.map(() => String)];
  const decorators: ParameterDecorator[] = [Auth(), ...params.map((n) => Param(n))];
  if (last && 'body' in last) {
    if (last.query) {
      types.push(last.query);
      decorators.push(Query());
    }
    types.push(last.body);
    decorators.push(Body());
  } else if (last && 'baseUrl' in last) {
    types.push(String);
    decorators.push(BaseUrl());
  } else if (last) {
    if (last.query) {
      types.push(last.query);
      decorators.push(Query());
    }
    types.push(V1Page);
    decorators.push(Paged(...last.page));
  }
  if (reply) {
    types.push(Object);
    decorators.push(Res({ passthrough: true }));
  }
  Reflect.defineMetadata('design:paramtypes', types, proto, name);
  Reflect.defineMetadata('design:returntype', Promise, proto, name);
  // as TypeScript applies parameter decorators: last parameter first
  for (let i = decorators.length - 1; i >= 0; i--) decorators[i](proto, name, i);
  const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
  for (const d of route.reverse()) d(proto, name, descriptor);
}

export function V1Resource<S>(spec: V1ResourceSpec<S>): ClassDecorator {
  return (cls) => {
    const base = Reflect.getMetadata(PATH_METADATA, cls) as string | undefined;
    if (base === undefined) throw new Error(`@V1Resource on ${cls.name}: put it above @Controller`);
    const proto = cls.prototype as object;
    const collection = join(spec.at);
    const object = join(spec.at, `:${spec.id}`);
    const parents = pathParams(join(base, collection));
    const own = [...parents, spec.id];
    const families = [spec.scopes].flat();
    const read = Scopes(...families.map((f) => `${f}:read`));
    const write = Scopes(...families.map((f) => `${f}:write`));
    const ref = serviceRef(spec.service);
    const names = new Map<MethodRef<S>, string>();
    const nameOf = (call: MethodRef<S>) => {
      let n = names.get(call);
      if (n === undefined) names.set(call, (n = methodName(call)));
      return n;
    };
    const svc = (ctl: Record<string, any>, call: MethodRef<S>) => {
      const s = resolveService(ctl, ref) as Record<string, any>;
      return (s[nameOf(call)] as (...a: unknown[]) => Promise<any>).bind(s);
    };
    const { list, create, update, patch, remove } = spec;
    // the declared answers (spec.schema): an object, a page of them, or a window (bare array)
    const item = spec.schema;
    const ok = (schema?: object) => (schema ? [ApiOkResponse({ description: 'OK', schema })] : []);
    const itemOk = ok(item);
    // define a handler and record the service method it calls (the route table shows it)
    const def = (call: MethodRef<S>, name: string, ...rest: Parameters<typeof defineHandler> extends [object, string, ...infer R] ? R : never) => {
      defineHandler(proto, name, ...rest);
      Reflect.defineMetadata(CALLS_KEY, `${ref.cls.name}${ref.part ? ' (part)' : ''}.${nameOf(call)}`, (proto as Record<string, object>)[name]);
    };
    recordServiceRef(
      cls,
      ref as never,
      [list, create, spec.read, update, patch, remove].filter((o) => o).map((o) => nameOf(o!.call)),
    );
    if (list) {
      def(
        list.call,
        list.handler ?? nameOf(list.call),
        async function (p, ...args) {
          const page = args[args.length - 1] as V1Page;
          const query = args[args.length - 2] as Record<string, unknown>;
          page.withUpdatedSince(v1UpdatedSince(query));
          // (…path parameters, query, page) → (…path parameters, page[, filters(query)])
          const filters = list.filters?.(query);
          const call = [...args.slice(0, -2), page, ...(list.filters ? [filters] : [])];
          const result = await svc(this, list.call)(p, ...call);
          if (page.updatedSinceIgnored && !(filters && typeof filters === 'object' && 'updatedSince' in filters)) {
            throw new ValidationFailed([{ field: 'updated_since', message: 'This list does not take updated_since yet.' }], 400);
          }
          if (list.window) return page.window((result as unknown[]).map((r) => spec.present(r, this)));
          const { rows, count } = result;
          return page.list(
            rows.map((r: unknown) => spec.present(r, this)),
            count,
          );
        },
        [Get(collection), read, ApiQuery(V1_UPDATED_SINCE_QUERY), ...ok(item && (list.window ? { type: 'array', items: item } : v1PageSchema(item)))],
        parents,
        { page: list.window ? [...V1_WINDOW] : [list.cap, list.defaultSize], query: list.query ?? Object },
      );
      Reflect.defineMetadata(V1_RESOURCE_LIST, true, (proto as Record<string, object>)[list.handler ?? nameOf(list.call)]);
    }
    if (create?.upsert) {
      def(
        create.call,
        create.handler ?? nameOf(create.call),
        async function (p, ...args) {
          const reply = args.pop() as FastifyReply;
          const { view, created } = (await svc(this, create.call)(p, ...args)) as Upserted<unknown>;
          reply.status(created ? 201 : 200);
          return spec.present(view, this);
          // both answers declared (the OpenAPI document lists each status the handler gives)
        },
        [
          Post(collection),
          write,
          ApiResponse({ status: 201, description: 'Created', schema: item }),
          ApiResponse({ status: 200, description: 'Already there: the existing object, unchanged', schema: item }),
        ],
        parents,
        { body: create.body },
        true,
      );
    } else if (create) {
      def(
        create.call,
        create.handler ?? nameOf(create.call),
        async function (p, ...args) {
          return spec.present(await svc(this, create.call)(p, ...args), this);
        },
        [Post(collection), write, ...(item ? [ApiResponse({ status: 201, description: 'Created', schema: item })] : [])],
        parents,
        { body: create.body },
      );
    }
    // before read: a PATCH-only resource lists PATCH first, as its hand-written handlers did
    if (patch) {
      def(
        patch.call,
        patch.handler ?? patchTwinName(nameOf(patch.call)),
        async function (p, ...args) {
          return spec.present(await svc(this, patch.call)(p, ...args), this);
        },
        [Patch(object), write, ...itemOk],
        own,
        { body: patch.body },
      );
    }
    if (spec.read?.baseUrl) {
      const op = spec.read;
      const present = op.present ?? ((row: unknown, ctl: unknown) => spec.present(row, ctl));
      def(
        op.call,
        op.handler ?? nameOf(op.call),
        async function (p, ...args) {
          const base = args.pop() as string;
          return present(await svc(this, op.call)(p, ...args), this, base);
        },
        [Get(object), read, ...itemOk],
        own,
        { baseUrl: true },
      );
    } else if (spec.read) {
      const op = spec.read;
      def(
        op.call,
        op.handler ?? nameOf(op.call),
        async function (p, ...args) {
          return spec.present(await svc(this, op.call)(p, ...args), this);
        },
        [Get(object), read, ...itemOk],
        own,
      );
    }
    if (update) {
      const name = update.handler ?? nameOf(update.call);
      const { queryArg } = update;
      const impl: Impl = async function (p, ...args) {
        // with queryArg: (…path parameters, query, body) → (…path parameters, body, queryArg(query))
        const call = queryArg ? [...args.slice(0, -2), args[args.length - 1], queryArg(args[args.length - 2])] : args;
        return spec.present(await svc(this, update.call)(p, ...call), this);
      };
      const put = update.patchBody || update.putOnly ? Put(object) : PutAndPatch(object);
      def(update.call, name, impl, [put, write, ...itemOk], own, { body: update.body, query: queryArg ? (update.query ?? Object) : undefined });
      if (update.patchBody) def(update.call, patchTwinName(name), impl, [Patch(object), write, ...itemOk], own, { body: update.patchBody });
    }
    if (remove) {
      def(
        remove.call,
        remove.handler ?? nameOf(remove.call),
        async function (p, ...args) {
          await svc(this, remove.call)(p, ...args);
        },
        [Delete(object), HttpCode(204), write],
        own,
      );
    }
  };
}

/**
 * The four operations of a link sub-resource (core/pagination/link-rows.ts: list in pages of up to
 * 1000, add, read, remove) at `<at>/{<id>}`, with the handler names given in that order.
 */
export function V1Links(spec: {
  service: ServiceArg<LinkRows<{ id: string }>>;
  at: string;
  id: string;
  scopes: string;
  present: (row: any) => unknown;
  body: Type;
  handlers: [string, string, string, string];
}): ClassDecorator {
  const [list, add, read, remove] = spec.handlers;
  return V1Resource<LinkRows<{ id: string }>>({
    ...spec,
    list: { call: (s) => s.list, handler: list, cap: V1_PAGE_CAP.large },
    create: { call: (s) => s.add, handler: add, body: spec.body },
    read: { call: (s) => s.read, handler: read },
    remove: { call: (s) => s.remove, handler: remove },
  });
}

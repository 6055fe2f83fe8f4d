import { Body, Delete, Patch, Post, Req, Res, Type } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../auth/decorators';
import type { Principal } from '../auth/principal';
import { BatchHandler, BatchResult, BatchSpec, ItemOutcome, presentResults, runBatch, ValidItem } from '../batch/batch';
import { decodeId, IdType } from '../ids/ids';
import type { AppConfig } from '../config/config';
import { requestBaseUrl } from '../http/base-url';
import { batchBodySchema } from '../http/request-schemas';
import { CALLS_KEY, MethodRef, methodName, recordServiceRef, resolveService, ServiceArg, serviceRef } from '../http/service-ref';

/** Run a /v2 batch (runBatch over the body) and answer its status (200, or 207 when an item failed) and body. */
export async function replyBatch<T, R>(reply: FastifyReply, body: unknown, spec: BatchSpec<T>, handler: BatchHandler<T, R>): Promise<BatchResult<R>['body']> {
  const result = await runBatch(body, spec, handler);
  reply.status(result.status);
  return result.body;
}

/**
 * A /v2 update batch, last write wins: each item's id is decoded as `type` (undecodable:
 * not_found with `notFound` as detail), its changes (`changesOf`: the changes, or that item's
 * failure) merge per id in request order, and `apply` writes every id's merged changes at once,
 * answering the objects it updated (presented, by uuid). Every item of an updated id answers its
 * final object; the others are not_found. `publicIdOf`: the item's id from what `apply` answered
 * (default its `id`, the presented object's), when `apply` answers rows for the controller to present.
 */
export async function updateLastWins<T extends { id: string }, C extends object, R extends { id: string }>(
  items: ValidItem<T>[],
  type: IdType,
  notFound: string,
  changesOf: (v: ValidItem<T>) => C | Extract<ItemOutcome<never>, { ok: false }>,
  apply: (merged: Map<string, C>) => Promise<Map<string, R>>,
  publicIdOf: (r: R) => string = (r) => r.id,
): Promise<Map<number, ItemOutcome<R>>> {
  const out = new Map<number, ItemOutcome<R>>();
  const merged = new Map<string, C>();
  const idOf = new Map<number, string>();
  for (const v of items) {
    const id = decodeId(type, v.item.id);
    if (!id) {
      out.set(v.index, { ok: false, code: 'not_found', detail: notFound, pointer: '/id' });
      continue;
    }
    const changes = changesOf(v);
    if ('ok' in changes && changes.ok === false) {
      out.set(v.index, changes);
      continue;
    }
    merged.set(id, { ...(merged.get(id) ?? {}), ...changes } as C);
    idOf.set(v.index, id);
  }
  const updated = await apply(merged);
  for (const [index, id] of idOf) {
    const res = updated.get(id);
    out.set(index, res ? { ok: true, id: publicIdOf(res), result: res } : { ok: false, code: 'not_found', detail: notFound, pointer: '/id' });
  }
  return out;
}

/** One batch operation: the service method (called with the caller and the valid items, and the request's base URL when `baseUrl`), the item class and its dedupe rule. */
export interface V2BatchOp<S> {
  /** `(s) => s.createMany` */
  call: MethodRef<S>;
  item: Type;
  dedupeKey?: BatchSpec<unknown>['dedupeKey'];
  dedupePointer?: string;
  /** the OpenAPI request body: its description and the item schema the `data` items follow (`_CourseCreateData`) */
  doc?: { description: string; items: string };
  /** more method decorators of the operation (e.g. a @RateLimit) */
  decorators?: MethodDecorator[];
  /** presents each item's result (what the service wrote) with the request's base URL: the service answers rows, the controller presents them */
  present?: (result: any, baseUrl: string) => unknown;
}

/**
 * The /v2 batch operations of a resource (POST create, PATCH update, DELETE remove on the
 * controller's path), declared instead of written out: each runs runBatch over the body (items of
 * JSON:API `type`, at most the configured BATCH_MAX_ITEMS) with the service's set-wise method, and
 * answers its status (200, or 207 when an item failed) and body. Writes need `<scopes>:write`.
 * `service` is the service's class (the controller's one instance of it) or `serviceIn(Class, (x) => x.part)`
 * (core/http/service-ref.ts); the controller has the AppConfig at `config`. Put the decorator
 * between @V2() and @Controller.
 */
export function V2Batches<S>(spec: { service: ServiceArg<S>; type: string; scopes: string; baseUrl?: boolean; create?: V2BatchOp<S>; update?: V2BatchOp<S>; remove?: V2BatchOp<S> }): ClassDecorator {
  const ref = serviceRef(spec.service);
  return (cls) => {
    const proto = cls.prototype as object;
    const ops: [string, V2BatchOp<S> | undefined, MethodDecorator][] = [
      ['create', spec.create, Post()],
      ['update', spec.update, Patch()],
      ['remove', spec.remove, Delete()],
    ];
    recordServiceRef(
      cls,
      ref as never,
      ops.flatMap(([, op]) => (op ? [methodName(op.call)] : [])),
    );
    for (const [name, op, route] of ops) {
      if (!op) continue;
      const method = methodName(op.call);
      if (Object.prototype.hasOwnProperty.call(proto, name)) throw new Error(`@V2Batches: ${cls.name}.${name} exists`);
      const handler = {
        async [name](this: Record<string, any>, p: Principal, body: unknown, req: FastifyRequest, reply: FastifyReply) {
          const config = this.config as AppConfig;
          const service = resolveService(this, ref) as Record<string, (...a: unknown[]) => Promise<any>>;
          const extra = spec.baseUrl ? [requestBaseUrl(config, req)] : [];
          const batch = { itemClass: op.item, type: spec.type, dedupeKey: op.dedupeKey, dedupePointer: op.dedupePointer, maxItems: config.BATCH_MAX_ITEMS };
          const present = op.present;
          if (!present) return replyBatch(reply, body, batch, (items) => service[method](p, items, ...extra));
          const base = requestBaseUrl(config, req);
          return replyBatch(reply, body, batch, async (items) => presentResults(await service[method](p, items, ...extra), (r) => present(r, base)));
        },
      }[name];
      Object.defineProperty(proto, name, { value: handler, writable: true, configurable: true, enumerable: false });
      Reflect.defineMetadata(CALLS_KEY, `${ref.cls.name}${ref.part ? ' (part)' : ''}.${method}`, handler);
      Reflect.defineMetadata('design:paramtypes', [Object, Object, Object, Object], proto, name);
      Reflect.defineMetadata('design:returntype', Promise, proto, name);
      // as TypeScript applies parameter decorators: last parameter first
      const params: ParameterDecorator[] = [Auth(), Body(), Req(), Res({ passthrough: true })];
      for (let i = params.length - 1; i >= 0; i--) params[i](proto, name, i);
      const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
      const decorators: MethodDecorator[] = [route, Scopes(`${spec.scopes}:write`)];
      // the items' schema from the item class's validation rules (request-schemas.ts)
      const items = op.doc ? `items as ${op.doc.items}` : undefined;
      decorators.push(ApiBody({ description: op.doc?.description ?? `Batch of ${spec.type}`, schema: batchBodySchema(op.item, spec.type, items) }));
      decorators.push(...(op.decorators ?? []));
      for (const d of decorators.reverse()) d(proto, name, descriptor);
    }
  };
}

import { INestApplicationContext, RequestMethod, Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { PUBLIC_KEY, SCOPES_KEY } from '../auth/decorators';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { pipelineOf } from './fast-path';
import { API_INTERFACE } from '../http/interfaces';
import { CALLS_KEY, verifyServiceRefs } from '../http/service-ref';

/** One route of the application as Nest registers it. */
export interface RouteRow {
  method: string;
  path: string;
  /** `Controller.method` */
  handler: string;
  /** a generated handler (@V1Resource, @V1Links, @V2Batches): the service method it calls; a written one: undefined */
  calls?: string;
  interface: string;
  /** the @Scopes it needs (any one), `public` (@Public), or none (any authenticated caller) */
  scopes: string[] | 'public';
  /** `@FastPath(method)`, `@FastRead` or undefined */
  fastPath?: string;
  /** the IdempotencyInterceptor runs on it (every authenticated write) */
  idempotent: boolean;
  /** guards and interceptors of its pipeline beyond the global guard */
  pipeline: string[];
  /** @HttpCode, when set */
  status?: number;
}

const asArray = (p: unknown): string[] => (Array.isArray(p) ? p.map(String) : [String(p ?? '')]);
const joinPath = (a: string, b: string) =>
  `/${[a, b]
    .map((x) => x.replace(/^\/+|\/+$/g, ''))
    .filter((x) => x)
    .join('/')}`;

/** The controllers of the application (each class once), with Nest's instance. */
function controllers(app: INestApplicationContext): { cls: Type; instance: object }[] {
  const seen = new Set<unknown>();
  const out: { cls: Type; instance: object }[] = [];
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const cls = wrapper.metatype as Type | null;
      if (!cls || seen.has(cls)) continue;
      seen.add(cls);
      out.push({ cls, instance: wrapper.instance as object });
    }
  }
  return out;
}

/**
 * Every route of the application: method, path, handler (and for a generated one the service
 * method it calls), interface, scopes, fast path, idempotency, the rest of its pipeline, status.
 * Checks on the way that each generated handler's service resolves on its controller (one instance
 * of the referenced class, holding the referenced methods): createApp calls it, so a broken
 * reference fails at boot. Sorted by path, then method.
 */
export function routeTable(app: INestApplicationContext): RouteRow[] {
  const rows: RouteRow[] = [];
  for (const { cls, instance } of controllers(app)) {
    if (instance) verifyServiceRefs(instance);
    const bases = asArray(Reflect.getMetadata(PATH_METADATA, cls));
    const names = new Set<string>();
    for (let proto = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
    }
    for (const name of names) {
      const handler = (cls.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (method === undefined || paths === undefined) continue;
      const isPublic = !!(Reflect.getMetadata(PUBLIC_KEY, handler) ?? Reflect.getMetadata(PUBLIC_KEY, cls));
      const scopes = (Reflect.getMetadata(SCOPES_KEY, handler) ?? Reflect.getMetadata(SCOPES_KEY, cls) ?? []) as string[];
      const config = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as { fastPath?: { method: string }; fastRead?: unknown };
      const { guards, interceptors } = pipelineOf(app, cls, handler);
      const status = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
      for (const base of bases) {
        for (const path of asArray(paths)) {
          rows.push({
            method: RequestMethod[method],
            path: joinPath(base, path),
            handler: `${cls.name}.${name}`,
            calls: Reflect.getMetadata(CALLS_KEY, handler) as string | undefined,
            interface: (Reflect.getMetadata(API_INTERFACE, cls) as string | undefined) ?? '-',
            scopes: isPublic ? 'public' : [...scopes],
            fastPath: config.fastPath ? `@FastPath(${config.fastPath.method})` : config.fastRead ? '@FastRead' : undefined,
            idempotent: interceptors.includes(IdempotencyInterceptor),
            pipeline: [...guards.filter((g) => g.name !== 'GlobalAuthGuard'), ...interceptors.filter((i) => i !== IdempotencyInterceptor)].map((c) => c.name),
            status,
          });
        }
      }
    }
  }
  return rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
}

/** The table as text, one route a line (the committed snapshot: test/platform/route-table.snapshot.txt). */
export function routeTableText(rows: RouteRow[]): string {
  return (
    rows
      .map((r) =>
        [
          `${r.method} ${r.path}`,
          r.handler + (r.calls ? ` -> ${r.calls}` : ''),
          r.interface,
          r.scopes === 'public' ? 'public' : r.scopes.length ? r.scopes.join('|') : 'authenticated',
          r.fastPath ?? '-',
          r.idempotent ? 'idempotent' : '-',
          r.pipeline.length ? r.pipeline.join('+') : '-',
          r.status !== undefined ? String(r.status) : '-',
        ].join('  '),
      )
      .join('\n') + '\n'
  );
}

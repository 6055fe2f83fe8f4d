import { PATH_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyRequest } from 'fastify';
import { addPatchTwins } from './put-and-patch';
import { bodyClassOf } from './request-schemas';

/**
 * Which interface a route belongs to, and so which error envelope it answers in, which credentials
 * it takes and which headers it gets:
 * - `v1`: {"detail"} / DRF field errors, organization API keys (Basic) accepted;
 * - `v2`: JSON:API (`application/vnd.api+json`);
 * - `oauth`: the token endpoints (RFC 6749 errors, `Cache-Control: no-store`);
 * - `register`: dynamic client registration (RFC 7591 errors, `no-store`);
 * - `authorize`: the authorization page (JSON:API errors, `no-store`, its own content types);
 * - `other`: health, discovery, signed file URLs, the OpenAPI document (JSON:API errors).
 */
export type ApiInterface = 'oauth' | 'register' | 'authorize' | 'v1' | 'v2' | 'other';

/** Nest metadata key holding a controller's interface (`Reflect.getMetadata(API_INTERFACE, Controller)`). */
export const API_INTERFACE = 'api:interface';

/** What every route of a declared controller carries in its Fastify route config (`req.routeOptions.config`). */
export interface ApiRouteConfig {
  api?: ApiInterface;
  /** /v1 handlers: the class of the whole-body @Body() parameter, which form bodies are read with (form-bodies.ts) */
  formBody?: Function;
}

/**
 * Declare a controller's interface. Put it on the controller class (next to @Controller): it records
 * the interface as Nest metadata and copies it into the Fastify route config of every handler of the
 * class (`@nestjs/platform-fastify` passes FASTIFY_ROUTE_CONFIG_METADATA to `fastify.route()`), so the
 * Fastify hooks (which run before Nest knows the handler), the guard, the interceptors and the error
 * filter all read the same `req.routeOptions.config.api` (apiOf below) instead of matching the URL.
 * Class decorators run after method decorators, so every handler is already there. Only the class's
 * own methods are marked (a base class shared by two interfaces would otherwise get one of them).
 * It first adds the PATCH twins of the class's @PutAndPatch handlers (core/http/put-and-patch.ts).
 * A /v1 handler's route config also carries its body class (`formBody`), which form bodies are
 * read with (core/http/form-bodies.ts).
 */
export function ApiOf(api: ApiInterface): ClassDecorator {
  return (target) => {
    addPatchTwins(target);
    Reflect.defineMetadata(API_INTERFACE, api, target);
    const proto = (target as unknown as { prototype: object }).prototype;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor') continue;
      const handler = Object.getOwnPropertyDescriptor(proto, name)?.value;
      if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      const existing = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as Record<string, unknown> | undefined;
      const formBody = api === 'v1' ? bodyClassOf(target, name) : undefined;
      Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, api, ...(formBody ? { formBody } : {}) } satisfies ApiRouteConfig, handler);
    }
  };
}

/** A /v1 controller. */
export const V1 = (): ClassDecorator => ApiOf('v1');
/** A /v2 controller. */
export const V2 = (): ClassDecorator => ApiOf('v2');
/** An OAuth endpoint outside /v2's JSON:API: the token endpoints (default), registration or the authorization page. */
export const OAuthApi = (kind: 'oauth' | 'register' | 'authorize' = 'oauth'): ClassDecorator => ApiOf(kind);
/** Neither interface: health, discovery, signed file URLs. */
export const NeutralApi = (): ClassDecorator => ApiOf('other');

/**
 * The interface of the request's route, from its Fastify route config. A request that matched no
 * route (Fastify's 404 handler has no route config) falls back to its URL: unknownRouteInterface.
 */
export function apiOf(req: FastifyRequest): ApiInterface {
  return (req.routeOptions.config as ApiRouteConfig | undefined)?.api ?? unknownRouteInterface(req.url);
}

/**
 * The interface of a URL that matched no declared route (a 404 answered by Fastify's not-found
 * handler, or a route registered outside Nest's controllers such as Swagger's /docs): by its prefix.
 */
export function unknownRouteInterface(url: string): ApiInterface {
  const path = url.split('?', 1)[0];
  if (path.startsWith('/v2/auth/')) return 'oauth';
  if (path.startsWith('/v2/oauth/register')) return 'register';
  if (path.startsWith('/v2/oauth/')) return 'authorize';
  if (path.startsWith('/v1/')) return 'v1';
  if (path.startsWith('/v2/')) return 'v2';
  return 'other';
}

/** The OAuth endpoints: `Cache-Control: no-store`, and no JSON:API content type. */
export const isOAuthInterface = (api: ApiInterface): boolean => api === 'oauth' || api === 'register' || api === 'authorize';

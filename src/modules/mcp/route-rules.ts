import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { PUBLIC_KEY, SCOPES_KEY } from '../../core/auth/decorators';

/** What the global guard will ask of a caller for one route: read from the same metadata the guard reads. */
export interface RouteRule {
  isPublic: boolean;
  /** any-of; undefined or empty = any valid token */
  scopes?: string[];
}

/** `GET /v2/students/{}`: method and path with every parameter written `{}` and no trailing slash. */
export function routeKey(method: string, path: string): string {
  const p = ('/' + path)
    .replace(/\/+/g, '/')
    .replace(/:[A-Za-z0-9_]+/g, '{}')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\/$/, '');
  return `${method.toUpperCase()} ${p || '/'}`;
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : ['']);

/**
 * The guard's rule of every route of the given controller classes, by routeKey. The guard reads
 * @Public() and @Scopes() from the handler, then the class (getAllAndOverride): so does this.
 */
export function routeRules(controllers: Function[]): Map<string, RouteRule> {
  const rules = new Map<string, RouteRule>();
  for (const cls of controllers) {
    const base = asList(Reflect.getMetadata(PATH_METADATA, cls));
    for (let proto = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = name === 'constructor' ? undefined : Object.getOwnPropertyDescriptor(proto, name)?.value;
        if (typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
        if (method === undefined || paths === undefined) continue;
        const read = <T>(key: string): T | undefined => (Reflect.getMetadata(key, handler) as T | undefined) ?? (Reflect.getMetadata(key, cls) as T | undefined);
        const rule: RouteRule = { isPublic: !!read<boolean>(PUBLIC_KEY), scopes: read<string[]>(SCOPES_KEY) };
        for (const b of base)
          for (const p of asList(paths)) {
            const key = routeKey(RequestMethod[method], `${b}/${p}`);
            if (!rules.has(key)) rules.set(key, rule);
          }
      }
    }
  }
  return rules;
}

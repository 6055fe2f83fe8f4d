import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { forbidden } from '../http/api-error';
import { apiOf } from '../http/interfaces';
import { AuthService } from './auth.service';
import type { Principal } from './principal';
import { PUBLIC_KEY, SCOPES_KEY } from './decorators';

/**
 * The one global guard. Deny by default: every route needs a valid credential unless marked
 * @Public(). Bearer tokens everywhere, organization API keys (Basic) on /v1 only. @Scopes() is any-of.
 * The caller's organization is bound to the request as `request.principal`.
 */
@Injectable()
export class GlobalAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  /** @Public() and @Scopes() per handler and controller class, read once (route metadata is fixed after bootstrap). */
  private readonly routes = new WeakMap<object, WeakMap<object, { isPublic: boolean; needed: string[] | undefined }>>();

  private routeOf(ctx: ExecutionContext) {
    const handler = ctx.getHandler();
    const cls = ctx.getClass();
    let perClass = this.routes.get(handler);
    if (!perClass) this.routes.set(handler, (perClass = new WeakMap()));
    let route = perClass.get(cls);
    if (!route) {
      const targets = [handler, cls];
      route = {
        isPublic: !!this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets),
        needed: this.reflector.getAllAndOverride<string[] | undefined>(SCOPES_KEY, targets),
      };
      perClass.set(cls, route);
    }
    return route;
  }

  /** Synchronous when the caller's authentication is cached (no promise of ours per request); a promise otherwise. */
  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    const { isPublic, needed } = this.routeOf(ctx);
    if (isPublic) return true;
    const req = ctx.switchToHttp().getRequest<FastifyRequest & { principal?: unknown }>();
    const principal = this.auth.authenticateFast(req.headers.authorization, apiOf(req) === 'v1');
    if (principal instanceof Promise) return principal.then((p) => this.admit(req, p, needed));
    return this.admit(req, principal, needed);
  }

  private admit(req: FastifyRequest & { principal?: unknown }, principal: Principal, needed: string[] | undefined): boolean {
    req.principal = principal;
    if (needed?.length && !needed.some((s) => principal.scopes.has(s))) {
      // RFC 6750 section 3.1; `scope` lists the operation's scopes, any one of which is enough
      throw forbidden(`This operation needs one of the scopes: ${needed.join(', ')}.`, {
        headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${needed.join(' ')}"` },
      });
    }
    return true;
  }
}

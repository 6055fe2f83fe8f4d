import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { forbidden } from '../http/api-error';
import { interfaceOf } from '../http/interfaces';
import { AuthService } from './auth.service';
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

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const req = ctx.switchToHttp().getRequest<FastifyRequest & { principal?: unknown }>();
    const principal = await this.auth.authenticate(req.headers.authorization, interfaceOf(req.url) === 'v1');
    req.principal = principal;
    const needed = this.reflector.getAllAndOverride<string[] | undefined>(SCOPES_KEY, targets);
    if (needed?.length && !needed.some((s) => principal.scopes.has(s))) {
      throw forbidden(`This operation needs one of the scopes: ${needed.join(', ')}.`);
    }
    return true;
  }
}

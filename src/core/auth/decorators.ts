import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Principal } from './principal';

export const PUBLIC_KEY = 'auth:public';
export const SCOPES_KEY = 'auth:scopes';

/** An open route: the global guard lets it through unauthenticated. */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** Any-of: the caller needs at least one of these scopes. */
export const Scopes = (...scopes: string[]) => SetMetadata(SCOPES_KEY, scopes);

/** The authenticated caller. */
export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  return ctx.switchToHttp().getRequest().principal;
});

import { createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig, issuerUrl } from '../config/config';

/** A Host (or X-Forwarded-Host) value we are willing to echo into a link: a name or address and an optional port. */
const HOST_RE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The base URL of this request's absolute links (CONVENTIONS §9), without a trailing slash:
 * PUBLIC_URL when it is set; otherwise the request's own scheme and host. Fastify's
 * `req.protocol` and `req.host` read `X-Forwarded-Proto` / `X-Forwarded-Host` only when
 * TRUST_PROXY is on (the adapter's `trustProxy`), and the plain `Host` header otherwise. A host
 * that is not a plain name or address (or a missing one) falls back to the issuer.
 * Links made outside a request (the worker's mails, webhook bodies) use `issuerUrl(config)`.
 */
export function requestBaseUrl(config: AppConfig, req: Pick<FastifyRequest, 'protocol' | 'host'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  const protocol = String(req.protocol ?? '').toLowerCase();
  const host = String(req.host ?? '');
  if ((protocol === 'http' || protocol === 'https') && HOST_RE.test(host)) return `${protocol}://${host.toLowerCase()}`;
  return issuerUrl(config).replace(/\/+$/, '');
}

/** An absolute URL on this request's base: `path` starts with `/` and may carry a query. */
export function absoluteUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path.startsWith('/') ? '' : '/'}${path}`;
}

/** Turns the request into its base URL (requestBaseUrl). */
@Injectable()
export class BaseUrlPipe implements PipeTransform<FastifyRequest, string> {
  constructor(private readonly config: AppConfig) {}

  transform(req: FastifyRequest): string {
    return requestBaseUrl(this.config, req);
  }
}

const RequestParam = createParamDecorator((_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<FastifyRequest>());

/** The base URL of this request's absolute links, as a handler parameter (`@BaseUrl() base: string`). */
export const BaseUrl = (): ParameterDecorator => RequestParam(undefined, BaseUrlPipe);

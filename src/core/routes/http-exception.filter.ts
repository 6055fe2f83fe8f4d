import { rememberErrorReason } from '../http/error-reason';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../database/unavailable';
import { ApiError, isBadInputDbError, NoMatch, TITLES, V2_CODES, v1ErrorBody } from '../http/api-error';
import { ApiInterface, apiOf } from '../http/interfaces';
import { catchAllPrefix, methodNotAllowed } from '../http/method-not-allowed';
import { notImplemented } from './not-implemented';
import type { AppConfig } from '../config/config';
import { emptyV2Page } from '../pagination/cursor-page';

const OAUTH_DEFAULTS: Record<number, string> = {
  400: 'invalid_request',
  401: 'invalid_client',
  403: 'access_denied',
  404: 'invalid_request',
  405: 'invalid_request',
  413: 'invalid_request',
  415: 'invalid_request',
  422: 'invalid_request',
  429: 'slow_down',
  500: 'server_error',
  501: 'invalid_request',
  503: 'temporarily_unavailable',
};

/** Seconds a client is asked to wait when the database cannot be reached (503). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Normalise anything thrown into an ApiError. Unknown errors become a logged 500. */
export function toApiError(exception: unknown, logger: Logger, requestId: string): ApiError {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const body = exception.getResponse();
    const message = typeof body === 'string' ? body : Array.isArray((body as any)?.message) ? (body as any).message.join('; ') : ((body as any)?.message ?? exception.message);
    if (status === 404) return new ApiError(404, 'Not found.');
    return new ApiError(status, String(message));
  }
  const fastifyStatus = (exception as any)?.statusCode;
  const fastifyCode = (exception as any)?.code;
  if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) {
    // Body parsing errors raised by Fastify before the route runs.
    if (fastifyStatus === 413 || fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError(413, 'Request body is too large.');
    if (fastifyStatus === 415) return new ApiError(415, 'Unsupported content type.');
    return new ApiError(400, fastifyCode === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'Request body is empty.' : 'Malformed request body.');
  }
  if (exception instanceof SyntaxError) return new ApiError(400, 'Malformed JSON body.');
  if (isDatabaseUnavailable(exception)) {
    // an outage, not a bug: 503 + Retry-After in each interface's envelope (docs/decisions/faults.md)
    logger.warn({ requestId, err: (exception as Error).message }, 'database unavailable');
    return new ApiError(503, 'The service is temporarily unavailable; retry shortly.', {
      oauthError: 'temporarily_unavailable',
      headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    });
  }
  if (isBadInputDbError(exception)) {
    logger.warn({ requestId, code: (exception as any).code }, 'bad input reached the database');
    return new ApiError(400, 'The request contains a value that cannot be stored (for example a NUL character or an out-of-range number).');
  }
  logger.error({ err: exception, requestId }, 'unhandled error');
  return new ApiError(500, 'An unexpected error occurred.');
}

export function renderError(err: ApiError, api: ApiInterface, requestId: string): { status: number; body: unknown; contentType: string } {
  const status = err.status;
  switch (api) {
    case 'oauth':
      return {
        status,
        contentType: 'application/json',
        body: { error: err.oauthError ?? OAUTH_DEFAULTS[status] ?? 'invalid_request', error_description: err.detail },
      };
    case 'register':
      return {
        status,
        contentType: 'application/json',
        body: { error: err.oauthError ?? (status === 400 || status === 422 ? 'invalid_client_metadata' : (OAUTH_DEFAULTS[status] ?? 'invalid_request')), error_description: err.detail },
      };
    case 'v1': {
      if ((status === 400 || status === 422) && err.problems.length) {
        return { status: 400, contentType: 'application/json', body: v1ErrorBody(err.problems) };
      }
      return { status: status === 422 ? 400 : status, contentType: 'application/json', body: { detail: err.detail } };
    }
    default: {
      const code = err.code ?? V2_CODES[status];
      const errors = err.problems.length
        ? err.problems.map((p) => ({
            status: String(status),
            code,
            title: TITLES[status] ?? 'Error',
            detail: `${p.field}: ${p.message}`,
            source: p.pointer !== undefined ? { pointer: p.pointer } : { parameter: p.parameter ?? p.field },
          }))
        : [{ status: String(status), code, title: TITLES[status] ?? 'Error', detail: err.detail, ...(err.source ? { source: err.source } : {}) }];
      return { status, contentType: 'application/vnd.api+json', body: { errors, meta: { request_id: requestId } } };
    }
  }
}

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Http');

  /** `config`: for the /v2 empty page of a filter that matches nothing (its links) */
  constructor(private readonly config?: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const ctx = host.switchToHttp();
    const request = ctx.getRequest<FastifyRequest>();
    const reply = ctx.getResponse<FastifyReply>();
    // a list filter that matches nothing (CONVENTIONS §16): the interface's empty list, no statement run
    if (exception instanceof NoMatch && apiOf(request) === 'v1') {
      reply.status(200).header('Content-Type', 'application/json').send({ count: 0, next: null, previous: null, results: [] });
      return;
    }
    if (exception instanceof NoMatch && apiOf(request) === 'v2' && this.config) {
      try {
        reply.status(200).header('Content-Type', 'application/vnd.api+json').send(emptyV2Page(this.config, request));
        return;
      } catch (err) {
        exception = err; // a bad page[size] or cursor: refused as the list refuses it
      }
    }
    const found = toApiError(exception, this.logger, String(request.id));
    // no route for a published operation: 501 (not-implemented.ts); no route for this method on a path
    // served under others: 405 with Allow (method-not-allowed.ts)
    const err = notImplemented(request, found, !request.is404 && catchAllPrefix(request) !== null) ?? methodNotAllowed(request, found) ?? found;
    const api = apiOf(request);
    // the log line of this request says why (app.factory.ts): the detail, or the refused members
    rememberErrorReason(request, err.problems.length ? err.problems.map((p) => `${p.field}: ${p.message}`).join('; ') : err.detail);
    const { status, body, contentType } = renderError(err, api, String(request.id));
    if (err.status === 401 && api !== 'oauth' && !err.headers['WWW-Authenticate']) {
      reply.header('WWW-Authenticate', 'Bearer error="invalid_token"');
    }
    for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
    if (api === 'oauth') reply.header('Cache-Control', 'no-store');
    reply.status(status).header('Content-Type', contentType).send(body);
  }
}

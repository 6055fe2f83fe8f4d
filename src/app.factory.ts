// first: AsyncResource.bind without Node 20's per-call deprecation wrappers (core/runtime/async-resource-bind.ts)
import './core/runtime/async-resource-bind';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { Store, storage } from 'nestjs-pino/storage';
import type { DestinationStream, Logger as PinoLogger } from 'pino';
import { createRootLogger } from './core/logging/logger';
import { AppModule } from './app.module';
import { AuditRecorder } from './modules/audit/audit.recorder';
import { AppConfig } from './core/config/config';
import { checkBody, checkUrl } from './core/http/body-guard';
import { registerBodyParsers } from './core/http/body-parsers';
import { installFastPaths } from './core/routes/fast-path';
import { installMcpFastPath } from './modules/mcp/mcp-fast-path';
import { routeTable } from './core/routes/route-table';
import { AllExceptionsFilter } from './core/routes/http-exception.filter';
import { apiOf } from './core/http/interfaces';
import { genRequestId } from './core/http/request-id';
import { buildOpenApiDocument } from './core/openapi/document';
import { idempotencyOnSend } from './core/idempotency/idempotency.interceptor';
import { IdempotencyService } from './core/idempotency/idempotency.service';
import { securityHeaders } from './core/http/security-headers';
import { AppValidationPipe } from './core/http/validation.pipe';
import { QuietNestLogger } from './core/runtime/startup';
import { Metrics } from './core/metrics/metrics';
import { errorReasonOf, rememberErrorReason } from './core/http/error-reason';

/** A request's log context: nestjs-pino reads `logger` from it; the child is built on first use. */
function requestStore(root: PinoLogger, requestId: string): Store {
  let child: PinoLogger | undefined;
  return {
    get logger() {
      return (child ??= root.child({ request_id: requestId }));
    },
  } as Store;
}

/**
 * The xAPI endpoint handed to content is `<base>/xapi/`; AU libraries that join it to a resource
 * with another `/` (ADL's cmi5.js: `${endpoint}/statements`) send `/xapi//statements`. Those extra
 * slashes are dropped before routing (docs/decisions/content-runs.md, "Real packages tried").
 */
export function xapiUrl(req: { url?: string }): string {
  const url = req.url ?? '/';
  return url.startsWith('/xapi//') ? url.replace(/^\/xapi\/+/, '/xapi/') : url;
}

/** Request lines are written at info: below that level (warn, error...) no per-request line is built. */
const REQUEST_LINES_AT = new Set(['info', 'debug', 'trace']);

/** Build the API application (used by main.ts and by the tests; tests may capture the log lines). */
export async function createApp(config: AppConfig, opts: { logDestination?: DestinationStream } = {}): Promise<NestFastifyApplication> {
  const logger = createRootLogger(config, 'api', opts.logDestination);
  const adapter = new FastifyAdapter({
    bodyLimit: config.BODY_LIMIT_BYTES,
    genReqId: genRequestId as any,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
    rewriteUrl: xapiUrl,
    return503OnClosing: true,
  } as any);
  // bodyParser: false: the body parsers are registered below, all in one place (core/http/body-parsers.ts)
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, logger), adapter, { bufferLogs: true, abortOnError: false, bodyParser: false });
  // Nest's start-up lines (modules, one per route) at debug: the process says where it listens itself
  app.useLogger(new QuietNestLogger(app.get(Logger)));
  const fastify = app.getHttpAdapter().getInstance();
  // JSON (and the JSON:API media types), url-encoded and multipart forms (read on /v1 as DRF reads them)
  registerBodyParsers(fastify, config.BODY_LIMIT_BYTES);
  // every request before its route: no NUL in path or query parameters; every parsed body, whatever
  // its content type: nesting capped, no lone surrogates, no NUL (body-guard.ts)
  fastify.addHook('preValidation', (req, _reply, done) => {
    const problem = checkUrl(req) ?? (req.body === undefined ? null : checkBody(req.body, apiOf(req)));
    done(problem ?? undefined);
  });
  // the routes' fast paths (@FastPath, core/routes/fast-path.ts: the token endpoint's cached client_credentials grant)
  installFastPaths(fastify, app);
  // every generated handler's service reference resolves on its controller (core/http/service-ref.ts), or the app does not start
  routeTable(app);
  // callback-style hooks: no promise (and no async-context bookkeeping) per request
  const requestLines = REQUEST_LINES_AT.has(config.LOG_LEVEL);
  fastify.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    // A request that carries no body (no Content-Length or 0, not chunked) has nothing to parse,
    // whatever its Content-Type says: clients that send `Content-Type: application/json` on every
    // request (a DELETE, a ping, a /v2 publish) work as against the published platform instead of
    // meeting the JSON parser's "body cannot be empty"; a route that needs a body answers as without one.
    const h = req.raw.headers;
    if (h['content-type'] !== undefined && h['transfer-encoding'] === undefined && (h['content-length'] === undefined || h['content-length'] === '0')) {
      delete h['content-type'];
    }
    // every line logged while serving this request (Nest's Logger included) carries its request_id;
    // the child logger is made only when something is logged
    storage.enterWith(requestStore(logger, String(req.id)));
    done();
  });
  // every answer counted and timed per method, route pattern and status (GET /metrics, core/metrics)
  const metrics = app.get(Metrics);
  fastify.addHook('onResponse', (req, reply, done) => {
    metrics.observeRequest(req.method, req.routeOptions?.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    if (requestLines && !req.url.startsWith('/health')) {
      const status = reply.statusCode;
      // a refused request says why (the reason its error answer gave): 4xx at info, 5xx at error
      const reason = status >= 400 ? errorReasonOf(req) : undefined;
      const line = { request_id: req.id, method: req.method, url: req.url.split('?')[0], status, ms: Math.round(reply.elapsedTime), ...(reason ? { reason } : {}) };
      if (status >= 500) logger.error(line, 'request failed');
      else if (status >= 400) logger.info(line, 'request refused');
      else logger.info(line, 'request completed');
    }
    done();
  });
  // an error that Fastify answers itself (a body it cannot parse, a refused URL): its message is the reason
  fastify.addHook('onError', (req, _reply, error, done) => {
    rememberErrorReason(req, error.message);
    done();
  });
  const addSecurityHeaders = securityHeaders(config.PUBLIC_URL);
  fastify.addHook('onSend', (req, reply, payload, done) => {
    // the route's declared interface (@V1()/@V2()/@OAuthApi()..., core/http/interfaces.ts), read once
    const api = apiOf(req);
    addSecurityHeaders(req, reply, api);
    const ct = reply.getHeader('content-type');
    if (api === 'v2' && typeof ct === 'string' && ct.startsWith('application/json')) {
      reply.header('Content-Type', 'application/vnd.api+json');
    }
    done(null, payload);
  });
  // Idempotency-Key (src/core/idempotency): stores the answer of a claimed write as sent; after the hooks that set the final headers
  fastify.addHook('onSend', idempotencyOnSend(app.get(IdempotencyService)));
  // the audit log (modules/audit): every successful administrative write, recorded once, here
  fastify.addHook('onSend', app.get(AuditRecorder).hook());
  // a tools/call of a read tool is its operation's GET, answered as JSON-RPC (src/modules/mcp/mcp-fast-path.ts); after the hooks above
  installMcpFastPath(app);
  app.useGlobalPipes(new AppValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter(config));
  app.enableShutdownHooks();

  // GET /openapi.json and /docs: built once, on the first request for either (a quarter of an app
  // start's CPU, which no other request needs), completed against the published documents (core/openapi)
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app).doc, { jsonDocumentUrl: 'openapi.json', useGlobalPrefix: false });
  return app;
}

import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, mergeMap, Observable, of } from 'rxjs';
import type { Principal } from '../auth/principal';
import { DryRuns } from '../dry-run/dry-run';
import { ApiError, conflict } from '../http/api-error';
import { apiOf } from '../http/interfaces';
import { requestFingerprint } from './fingerprint';
import { holdsSecret, IdempotencyClaim, IdempotencyService, STORED_HEADERS } from './idempotency.service';
import { KeyedWrite, keyedWrites } from './keyed-write';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const MAX_KEY_LENGTH = 255;
/** Set on the request by the interceptor once its claim succeeded; read (once) by the onSend hook. */
export const IDEMPOTENCY_CLAIM = Symbol('idempotencyClaim');

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type Req = FastifyRequest & { principal?: Principal; [IDEMPOTENCY_CLAIM]?: IdempotencyClaim };

/** The route's path as a key is scoped to it: no query string, no trailing slash (the router ignores it). */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') : path;
}

function queryOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}

/**
 * Idempotency-Key on the authenticated writes of /v1 and /v2 (CONVENTIONS §14). Put on every
 * POST, PUT, PATCH and DELETE handler by applyIdempotencyToWrites (wire.ts); like every interceptor
 * it runs after the global auth guard (the caller is known) and before pipes and the handler.
 * Requests without the header and public routes (the OAuth endpoints) pass straight through.
 *
 * With the header: claim the key (one statement). Claimed: run the handler; the onSend hook of
 * app.factory.ts stores the final answer (or releases the key after a 5xx). A repeat with the same
 * body: the stored status, Content-Type, Location and exact body, with `Idempotent-Replayed: true`,
 * and the handler does not run. Another body: 422. First request still running: 409.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly idem: IdempotencyService,
    private readonly dryRuns: DryRuns,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    // `?dry_run=true` (core/dry-run): the write in a rolled-back transaction, no key claimed, no answer stored
    const dry = this.dryRuns.intercept(ctx, next);
    if (dry) return dry;
    const req = ctx.switchToHttp().getRequest<Req>();
    const raw = req.headers[IDEMPOTENCY_HEADER];
    if (raw === undefined || !req.principal || !WRITES.has(req.method)) return next.handle();
    const api = apiOf(req);
    if (api !== 'v1' && api !== 'v2') return next.handle();
    const key = Array.isArray(raw) ? raw.join(', ') : raw;
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      // 422 validation_error on /v2; the /v1 filter answers 400 {"detail"} as for any bad parameter
      throw new ApiError(422, `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters long.`, {
        code: 'validation_error',
        source: { header: 'Idempotency-Key' },
      });
    }
    const reply = ctx.switchToHttp().getResponse<FastifyReply>();
    const fingerprint = requestFingerprint(queryOf(req.url), req.body);
    return from(this.idem.claim(req.principal, req.method, pathOf(req.url), key, fingerprint)).pipe(
      mergeMap((outcome): Observable<unknown> => {
        switch (outcome.kind) {
          case 'claimed': {
            req[IDEMPOTENCY_CLAIM] = outcome.claim;
            // the handler runs in the keyed write's async context: the commit marker (keyed-write.ts)
            // marks the key committed in the work's own transaction
            const write: KeyedWrite = { claim: outcome.claim, committed: false, marking: false };
            if (this.idem.fault === 'pause-before-commit') write.pauseBeforeCommit = pauseForEver;
            return keyedWrites.run(write, () => next.handle());
          }
          case 'in_flight':
            throw conflict('A request with this Idempotency-Key is still being processed; retry later.');
          case 'lost':
            // the first request's work committed and its process died before storing the answer:
            // never run again; answer what its transaction noted, rebuilt (and stored)
            return from(this.idem.rebuild(outcome.claim, outcome.ref)).pipe(
              mergeMap((answer) => {
                if (!answer)
                  throw conflict('The first request with this Idempotency-Key was carried out but its answer was lost; it will not run again. Read the result, or use a new key for a new request.');
                reply.status(answer.status).header('content-type', answer.headers['content-type']).header('Idempotent-Replayed', 'true');
                return of(answer.body);
              }),
            );
          case 'mismatch': {
            const detail = 'This Idempotency-Key was used with a different request body.';
            if (api === 'v2') throw new ApiError(422, detail, { code: 'validation_error', source: { header: 'Idempotency-Key' } });
            // /v1: 422 with {"detail"} (CONVENTIONS §14), which the /v1 error filter would turn into a 400
            reply.status(422).header('Content-Type', 'application/json; charset=utf-8');
            return of({ detail });
          }
          case 'replay': {
            reply.status(outcome.status);
            for (const name of STORED_HEADERS) {
              const value = outcome.headers[name];
              if (value !== undefined) reply.header(name, value);
            }
            reply.header('Idempotent-Replayed', 'true');
            return of(outcome.body.length ? outcome.body : undefined);
          }
        }
      }),
    );
  }
}

/** Fault injection (IDEMPOTENCY_FAULT, tests only): say where on stderr, then never go on. */
export function pauseForEver(point: string): Promise<never> {
  process.stderr.write(`IDEMPOTENCY_FAULT paused ${point}\n`);
  return new Promise<never>(() => undefined);
}

/**
 * Fastify onSend hook (registered in app.factory.ts after the hooks that set the final headers):
 * stores the answer of a request whose key was claimed, as sent: status, Content-Type, Location,
 * the serialized payload. A 5xx, or a payload that is a stream, releases the key instead.
 * Requests without a claim pass at the cost of one property read.
 */
export function idempotencyOnSend(idem: IdempotencyService) {
  return (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    const claim = (req as Req)[IDEMPOTENCY_CLAIM];
    if (claim === undefined) return done(null, payload);
    (req as Req)[IDEMPOTENCY_CLAIM] = undefined;
    const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : payload == null ? Buffer.alloc(0) : null;
    const headers: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    // a string payload is scanned for secrets as is (one pass, before its encoding: holdsSecret)
    const sealed = body === null || reply.statusCode >= 500 ? undefined : holdsSecret(typeof payload === 'string' ? payload : body);
    if (idem.fault === 'pause-before-answer-store') return void pauseForEver('before-answer-store');
    // a string payload goes out as the bytes just stored (the same bytes: Fastify would encode the string again)
    idem.finish(claim, reply.statusCode, headers, body, sealed).then(() => done(null, typeof payload === 'string' ? body : payload));
  };
}

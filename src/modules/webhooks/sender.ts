import { outboundRequest, OutboundError } from '../../core/net/guarded-http';
import { signatureOf } from './signing';

export const USER_AGENT = 'course-platform-webhooks/1.0';
export const RESPONSE_EXCERPT_BYTES = 1024;
/** A receiver's answer is read up to this size (the excerpt keeps the first KiB). */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** Headers a webhook's additional_headers may not set (compared lower-case; `webhook-*` too). */
export const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'authorization',
  'host',
  'connection',
  'transfer-encoding',
  'expect',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
]);
export const isReservedHeader = (name: string) => RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith('webhook-');

export interface SendTarget {
  targetUrl: string;
  secret: string;
  basicAuthUsername: string;
  basicAuthPassword: string | null;
  additionalHeaders: Record<string, string>;
}

export type AttemptOutcome =
  | { kind: 'success' }
  | { kind: 'redirect' }
  | { kind: 'client_error' }
  | { kind: 'retryable' };

export interface AttemptResult {
  startedAt: Date;
  latencyMs: number;
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
  outcome: AttemptOutcome['kind'];
}

/** The headers of one POST (additional headers first, so the platform's own always win). */
export function buildHeaders(target: SendTarget, msgId: string, timestamp: number, body: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(target.additionalHeaders ?? {})) {
    if (!isReservedHeader(k)) headers[k.toLowerCase()] = v;
  }
  headers['content-type'] = 'application/json';
  headers['user-agent'] = USER_AGENT;
  if (target.basicAuthUsername && target.basicAuthPassword) {
    headers.authorization = `Basic ${Buffer.from(`${target.basicAuthUsername}:${target.basicAuthPassword}`).toString('base64')}`;
  }
  headers['webhook-id'] = msgId;
  headers['webhook-timestamp'] = String(timestamp);
  headers['webhook-signature'] = signatureOf(target.secret, msgId, timestamp, body);
  return headers;
}

/**
 * One signed POST through the guarded client (SSRF policy per connect, no redirects: a 3xx is a
 * failure). Never throws: the result says what happened and how it should count.
 */
export async function sendOnce(target: SendTarget, msgId: string, body: string, opts: { timeoutMs: number; allowPrivate: boolean }): Promise<AttemptResult> {
  const startedAt = new Date();
  const t0 = performance.now();
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  const done = (r: Omit<AttemptResult, 'startedAt' | 'latencyMs'>): AttemptResult => ({ startedAt, latencyMs: Math.round(performance.now() - t0), ...r });
  try {
    const res = await outboundRequest(target.targetUrl, {
      method: 'POST',
      headers: buildHeaders(target, msgId, timestamp, body),
      body,
      timeoutMs: opts.timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
      maxRedirects: 0,
      allowPrivate: opts.allowPrivate,
      userAgent: USER_AGENT,
    });
    const excerpt = res.body.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replace(/\u0000/g, '');
    const s = res.status;
    if (s >= 200 && s < 300) return done({ httpStatus: s, error: null, responseExcerpt: excerpt, outcome: 'success' });
    if (s >= 300 && s < 400) return done({ httpStatus: s, error: `redirect (${s}) not followed`, responseExcerpt: excerpt, outcome: 'redirect' });
    if (s >= 400 && s < 500 && s !== 408 && s !== 429) return done({ httpStatus: s, error: `HTTP ${s}`, responseExcerpt: excerpt, outcome: 'client_error' });
    return done({ httpStatus: s, error: `HTTP ${s}`, responseExcerpt: excerpt, outcome: 'retryable' });
  } catch (err) {
    const e = err as Error;
    const reason = err instanceof OutboundError ? err.reason : 'connection';
    return done({ httpStatus: null, error: `${reason}: ${e.message}`.slice(0, 1000), responseExcerpt: null, outcome: 'retryable' });
  }
}

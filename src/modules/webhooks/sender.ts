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
  /** the current signing secret */
  secret: string;
  /** the secret replaced by a rotation, while its overlap lasts: signed with too */
  previousSecret?: string | null;
  basicAuthUsername: string;
  basicAuthPassword: string | null;
  additionalHeaders: Record<string, string>;
}

export type AttemptOutcome =
  | { kind: 'success' }
  | { kind: 'redirect' }
  /** 410 Gone: the receiver says the endpoint is gone for good */
  | { kind: 'gone' }
  | { kind: 'retryable' };

/** A Retry-After longer than this postpones the next attempt by this much only (24 h). */
export const RETRY_AFTER_CAP_MS = 24 * 3600 * 1000;

/**
 * Retry-After (RFC 9110 section 10.2.3): delay-seconds or an HTTP-date. Answers the delay in ms,
 * capped at RETRY_AFTER_CAP_MS, 0 for a date in the past, null when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return null;
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    // an HTTP-date (IMF-fixdate, RFC 850 or asctime form) always has a day name and a hh:mm:ss time
    if (Number.isNaN(at) || !/^[A-Za-z]{3}/.test(v) || !/\d{2}:\d{2}:\d{2}/.test(v)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(0, ms), RETRY_AFTER_CAP_MS);
}

export interface AttemptResult {
  startedAt: Date;
  latencyMs: number;
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
  outcome: AttemptOutcome['kind'];
  /** a 429 or 503 answer's Retry-After, in ms (capped): the next attempt waits at least this long */
  retryAfterMs?: number | null;
}

/**
 * The headers of one POST (additional headers first, so the platform's own always win). The body
 * goes with a Content-Length (never chunked: some receivers read Content-Length only). During a
 * secret rotation's overlap `webhook-signature` holds two signatures, the new secret's first,
 * space-separated (Standard Webhooks).
 */
export function buildHeaders(target: SendTarget, msgId: string, timestamp: number, body: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(target.additionalHeaders ?? {})) {
    if (!isReservedHeader(k)) headers[k.toLowerCase()] = v;
  }
  headers['content-type'] = 'application/json';
  headers['content-length'] = String(Buffer.byteLength(body, 'utf8'));
  headers['user-agent'] = USER_AGENT;
  if (target.basicAuthUsername && target.basicAuthPassword) {
    headers.authorization = `Basic ${Buffer.from(`${target.basicAuthUsername}:${target.basicAuthPassword}`).toString('base64')}`;
  }
  headers['webhook-id'] = msgId;
  headers['webhook-timestamp'] = String(timestamp);
  const signatures = [signatureOf(target.secret, msgId, timestamp, body)];
  if (target.previousSecret && target.previousSecret !== target.secret) signatures.push(signatureOf(target.previousSecret, msgId, timestamp, body));
  headers['webhook-signature'] = signatures.join(' ');
  return headers;
}

/**
 * One signed POST through the guarded client (SSRF policy per connect, no redirects: a 3xx is a
 * failure). Never throws: the result says what happened and how it should count: 2xx success,
 * 3xx redirect, 410 gone, anything else (other 4xx included) retryable, with the Retry-After of a
 * 429 or 503.
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
    const excerpt = res.body
      .subarray(0, RESPONSE_EXCERPT_BYTES)
      .toString('utf8')
      .replace(/\u0000/g, '');
    const s = res.status;
    if (s >= 200 && s < 300) return done({ httpStatus: s, error: null, responseExcerpt: excerpt, outcome: 'success' });
    if (s >= 300 && s < 400) return done({ httpStatus: s, error: `redirect (${s}) not followed`, responseExcerpt: excerpt, outcome: 'redirect' });
    if (s === 410) return done({ httpStatus: s, error: `HTTP ${s}`, responseExcerpt: excerpt, outcome: 'gone' });
    const retryAfterMs = s === 429 || s === 503 ? parseRetryAfter(res.headers['retry-after']) : null;
    return done({ httpStatus: s, error: `HTTP ${s}`, responseExcerpt: excerpt, outcome: 'retryable', retryAfterMs });
  } catch (err) {
    const e = err as Error;
    const reason = err instanceof OutboundError ? err.reason : 'connection';
    return done({ httpStatus: null, error: `${reason}: ${e.message}`.slice(0, 1000), responseExcerpt: null, outcome: 'retryable' });
  }
}

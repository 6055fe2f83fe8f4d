import { createWriteStream } from 'node:fs';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import tls from 'node:tls';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { isBlockedAddress } from './address-policy';

/**
 * The one way the platform makes outbound HTTP requests (webhook deliveries, asset and web-package
 * downloads). Every URL and every redirect hop is checked against the address policy; the check
 * happens again at connect time inside the socket's DNS lookup, so a name that resolves to a
 * public address when checked and a private one when connecting (DNS rebinding) is still refused.
 * Size and time are capped. Redirects are not followed unless asked for, and each hop is checked.
 */
export class OutboundError extends Error {
  constructor(
    readonly reason: 'blocked_address' | 'bad_url' | 'timeout' | 'too_large' | 'too_many_redirects' | 'connection',
    message: string,
  ) {
    super(message);
  }
}

export interface OutboundOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  maxBytes: number;
  /** how many redirects to follow (0 = none: a 3xx is returned as is) */
  maxRedirects?: number;
  allowPrivate: boolean;
  userAgent?: string;
  /** certificates trusted beside Node's own (https only): a private CA (OUTBOUND_CA_FILE) */
  ca?: Buffer[];
}

export interface OutboundResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
  url: string;
}

/** Parse and vet a URL: http(s) only, no credentials, no blocked literal address. */
export function checkUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('bad_url', 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('bad_url', 'only http and https URLs are allowed');
  if (url.username || url.password) throw new OutboundError('bad_url', 'URLs with credentials are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw new OutboundError('bad_url', 'the URL has no host');
  if (!allowPrivate && isIP(host) && isBlockedAddress(host)) {
    throw new OutboundError('blocked_address', `the address ${host} is not allowed`);
  }
  return url;
}

function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: any, cb: (...args: any[]) => void) => {
    dnsLookup(hostname, { all: true, verbatim: true, family: options?.family ?? 0 }, (err, addresses) => {
      if (err) return cb(err);
      const list = addresses as LookupAddress[];
      if (!list.length) return cb(new OutboundError('connection', `no address for ${hostname}`));
      if (!allowPrivate) {
        const bad = list.find((a) => isBlockedAddress(a.address));
        if (bad) return cb(new OutboundError('blocked_address', `${hostname} resolves to a disallowed address (${bad.address})`));
      }
      if (options?.all) return cb(null, list);
      return cb(null, list[0].address, list[0].family);
    });
  };
}

/**
 * Keep-alive agents, one per scheme and policy. Every new socket resolves its host through the
 * guarded lookup, so a reused connection is always one whose address passed the policy when it
 * was opened (an idle socket is closed after a few seconds).
 */
const agents = new Map<string, http.Agent>();
const caAgents = new WeakMap<Buffer[], Map<string, http.Agent>>();
function agentFor(protocol: string, allowPrivate: boolean, ca?: Buffer[]): http.Agent {
  const key = `${protocol}${allowPrivate}`;
  let byKey = agents;
  if (ca && protocol === 'https:') {
    byKey = caAgents.get(ca) ?? new Map();
    caAgents.set(ca, byKey);
  }
  let agent = byKey.get(key);
  if (!agent) {
    const options = { keepAlive: true, keepAliveMsecs: 1000, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000, lookup: guardedLookup(allowPrivate) as any };
    agent = protocol === 'https:' ? new https.Agent(ca ? { ...options, ca: [...tls.rootCertificates, ...ca.map((c) => c.toString())] } : options) : new http.Agent(options);
    // an idle pooled socket must not keep the process alive; a request using it refs it again
    agent.on('free', (socket) => socket.unref());
    byKey.set(key, agent);
  }
  return agent;
}

/** Close idle keep-alive sockets (process shutdown, tests). */
export function closeOutboundAgents() {
  for (const a of agents.values()) a.destroy();
  agents.clear();
}

function once(url: URL, opts: OutboundOptions, deadline: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const remaining = Math.max(1, deadline - Date.now());
    const req = mod.request(
      url,
      {
        method: opts.method ?? 'GET',
        headers: { 'user-agent': opts.userAgent ?? 'course-platform/1.0', ...(opts.headers ?? {}) },
        agent: agentFor(url.protocol, opts.allowPrivate, opts.ca),
        timeout: remaining,
      },
      (res) => resolve(res),
    );
    const timer = setTimeout(() => req.destroy(new OutboundError('timeout', `no response within ${opts.timeoutMs} ms`)), remaining);
    req.on('socket', (socket) => socket.ref());
    req.on('response', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new OutboundError('timeout', `no response within ${opts.timeoutMs} ms`)));
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err instanceof OutboundError ? err : new OutboundError('connection', err.message));
    });
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** Send a request and return its response head, following (checked) redirects when allowed. */
async function open(rawUrl: string, opts: OutboundOptions): Promise<{ res: IncomingMessage; url: URL; deadline: number }> {
  const deadline = Date.now() + opts.timeoutMs;
  let url = checkUrl(rawUrl, opts.allowPrivate);
  const maxRedirects = opts.maxRedirects ?? 0;
  for (let hop = 0; ; hop++) {
    const res = await once(url, opts, deadline);
    const location = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location && maxRedirects > 0) {
      res.resume();
      if (hop >= maxRedirects) throw new OutboundError('too_many_redirects', `more than ${maxRedirects} redirects`);
      url = checkUrl(new URL(location, url).toString(), opts.allowPrivate);
      continue;
    }
    return { res, url, deadline };
  }
}

function cap(maxBytes: number, deadline: number, timeoutMs: number) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > maxBytes) return cb(new OutboundError('too_large', `response larger than ${maxBytes} bytes`));
      if (Date.now() > deadline) return cb(new OutboundError('timeout', `transfer took longer than ${timeoutMs} ms`));
      cb(null, chunk);
    },
  });
}

/** A request whose whole (capped) body is read into memory. */
export async function outboundRequest(rawUrl: string, opts: OutboundOptions): Promise<OutboundResponse> {
  const { res, url, deadline } = await open(rawUrl, opts);
  const body = await readCapped(res, opts.maxBytes, deadline, opts.timeoutMs);
  return { status: res.statusCode ?? 0, headers: res.headers, body, url: url.toString() };
}

/**
 * The whole body of a response, capped in size and time (the same limits as `cap`). Read with
 * plain listeners rather than a stream pipeline: a webhook answer is a few bytes, and a pipeline
 * per request (abort controller, transform, async iterator) cost more CPU than the request itself.
 */
function readCapped(res: IncomingMessage, maxBytes: number, deadline: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!err) return resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, seen));
      res.destroy();
      reject(err instanceof OutboundError ? err : new OutboundError('connection', err.message));
    };
    const timer = setTimeout(() => finish(new OutboundError('timeout', `transfer took longer than ${timeoutMs} ms`)), Math.max(1, deadline - Date.now()));
    res.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) return finish(new OutboundError('too_large', `response larger than ${maxBytes} bytes`));
      if (Date.now() > deadline) return finish(new OutboundError('timeout', `transfer took longer than ${timeoutMs} ms`));
      chunks.push(chunk);
    });
    res.on('end', () => finish());
    res.on('error', (err) => finish(err));
    res.on('close', () => finish(res.complete ? undefined : new OutboundError('connection', 'Premature close')));
  });
}

/** Download to a file (capped in size and time); non-2xx answers are errors. Returns bytes written. */
export async function outboundDownload(rawUrl: string, dest: string, opts: OutboundOptions): Promise<{ bytes: number; contentType?: string; url: string }> {
  const { res, url, deadline } = await open(rawUrl, { ...opts, maxRedirects: opts.maxRedirects ?? 5 });
  const status = res.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    res.resume();
    throw new OutboundError('connection', `the server answered ${status}`);
  }
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > opts.maxBytes) {
    res.destroy();
    throw new OutboundError('too_large', `response larger than ${opts.maxBytes} bytes`);
  }
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _e, cb) {
      bytes += chunk.length;
      cb(null, chunk);
    },
  });
  const timer = setTimeout(() => res.destroy(new OutboundError('timeout', `transfer took longer than ${opts.timeoutMs} ms`)), Math.max(1, deadline - Date.now()));
  try {
    await pipeline(res, cap(opts.maxBytes, deadline, opts.timeoutMs), counter, createWriteStream(dest));
  } catch (err) {
    throw err instanceof OutboundError ? err : new OutboundError('connection', (err as Error).message);
  } finally {
    clearTimeout(timer);
  }
  return { bytes, contentType: res.headers['content-type'], url: url.toString() };
}

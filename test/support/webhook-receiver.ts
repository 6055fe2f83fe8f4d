import { createHmac } from 'node:crypto';
import http, { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Responder = (req: Received, res: ServerResponse, n: number) => unknown;

/** A local HTTP server on 127.0.0.1 that records every request and answers through `respond`. */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  respond: Responder;
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Responder = (_r, res) => res.writeHead(200).end('ok')): Promise<Receiver> {
  const received: Received[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const r: Receiver = {
    url: '',
    port: 0,
    received,
    respond,
    async waitFor(n, timeoutMs = 15000) {
      const end = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > end) throw new Error(`receiver got ${received.length} of ${n} requests within ${timeoutMs} ms`);
        await new Promise((res) => setTimeout(res, 25));
      }
      return received.slice(0, n);
    },
    close: () =>
      new Promise((res) => {
        for (const s of sockets) s.destroy();
        server.close(() => res());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const rec: Received = { at: Date.now(), method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(rec);
      Promise.resolve(r.respond(rec, res, received.length)).catch(() => res.destroy());
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}/hook`;
  return r;
}

/**
 * An independent Standard Webhooks verifier (https://www.standardwebhooks.com), written from the
 * scheme's text and not from the platform's code: the key is the base64 after `whsec_`; the signed
 * content is `{webhook-id}.{webhook-timestamp}.{body}`; the header holds space-separated
 * `v1,<base64 HMAC-SHA256>` signatures; the timestamp must be within 5 minutes.
 */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sig = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sig !== 'string') return false;
  if (!/^\d+$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
  return sig.split(' ').some((s) => {
    const [version, value] = s.split(',');
    return version === 'v1' && value === expected;
  });
}

/** Remove every Redis key of a test's REDIS_PREFIX (the webhook jobs a test leaves behind). */
export async function dropRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

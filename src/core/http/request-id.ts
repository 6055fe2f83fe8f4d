import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SAFE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Take the caller's X-Request-Id when it is sane, else make one. Shared by Fastify and the logger. */
export function genRequestId(req: IncomingMessage): string {
  const existing = (req as any).id;
  if (typeof existing === 'string') return existing;
  const header = req.headers['x-request-id'];
  const id = typeof header === 'string' && SAFE.test(header) ? header : randomUUID();
  (req as any).id = id;
  return id;
}

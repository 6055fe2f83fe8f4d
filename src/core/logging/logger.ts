import { hostname } from 'node:os';
import pino, { DestinationStream, Logger } from 'pino';
import pretty from 'pino-pretty';
import { AppConfig } from '../config/config';

export const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.client_secret',
  '*.password',
  '*.refresh_token',
  '*.access_token',
];

/** Members a pretty line leaves out: the request line's own members are in its message. */
const PRETTY_IGNORE = 'pid,hostname,service,method,url,status,ms,reason';

/**
 * One human-readable line per entry: `12:00:01.234 INFO (api): GET /v2/students 200 3ms [req-…]`.
 * A request line (it has `method` and `status`) is shown as method, path, status and duration; other
 * entries show their message, with any further members after it on the same line.
 */
export function prettyFormat(log: Record<string, unknown>, messageKey: string): string {
  const rid = log.request_id ? ` [${String(log.request_id)}]` : '';
  if (typeof log.method === 'string' && log.status !== undefined) {
    const reason = log.reason ? ` (${String(log.reason)})` : '';
    return `(${String(log.service)}) ${log.method} ${String(log.url)} ${String(log.status)} ${String(log.ms)}ms${reason}${rid}`;
  }
  return `(${String(log.service)}) ${String(log[messageKey] ?? '')}${rid}`;
}

/** The pretty stream of LOG_FORMAT=pretty (synchronous, in-process: this is for a terminal, not production). */
export function prettyStream(destination?: DestinationStream): DestinationStream {
  return pretty({
    colorize: destination ? false : Boolean(process.stdout.isTTY),
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: `${PRETTY_IGNORE},request_id`,
    messageFormat: prettyFormat as any,
    sync: true,
    destination: (destination as any) ?? 1,
  });
}

/**
 * The process's root logger: JSON lines (LOG_FORMAT=json) or human-readable lines
 * (LOG_FORMAT=pretty), secrets redacted, `service` (api | worker) on every line. In the API, Fastify
 * derives a child per request carrying `request_id`, and that child is bound to the request's async
 * context, so every line logged while serving a request carries its id.
 */
export function createRootLogger(config: AppConfig, service: 'api' | 'worker' | 'migrate', destination?: DestinationStream): Logger {
  const options = {
    level: config.LOG_LEVEL,
    base: { pid: process.pid, hostname: hostname(), service },
    redact: { paths: REDACT, censor: '[redacted]' },
  };
  if (config.LOG_FORMAT === 'pretty') return pino(options, prettyStream(destination));
  return destination ? pino(options, destination) : pino(options);
}

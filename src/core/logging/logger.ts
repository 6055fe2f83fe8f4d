import { hostname } from 'node:os';
import pino, { DestinationStream, Logger } from 'pino';
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

/**
 * The process's root logger: JSON lines, secrets redacted, `service` (api | worker) on every line.
 * In the API, Fastify derives a child per request carrying `request_id`, and that child is bound to
 * the request's async context, so every line logged while serving a request carries its id.
 */
export function createRootLogger(config: AppConfig, service: 'api' | 'worker', destination?: DestinationStream): Logger {
  const options = {
    level: config.LOG_LEVEL,
    base: { pid: process.pid, hostname: hostname(), service },
    redact: { paths: REDACT, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

import type { FastifyRequest } from 'fastify';

/**
 * Why a request was refused, kept on the request for its log line (app.factory.ts): the exception
 * filter stores the detail (or the field problems) of the error answer it renders. Never a secret:
 * the same text the client receives.
 */
const REASON = Symbol('errorReason');

type WithReason = FastifyRequest & { [REASON]?: string };

/** At most this many characters of a reason go to the log line. */
const MAX = 300;

export function rememberErrorReason(req: FastifyRequest, reason: string | undefined) {
  if (!reason) return;
  const r = req as WithReason;
  r[REASON] ??= reason.length > MAX ? `${reason.slice(0, MAX)}…` : reason;
}

export function errorReasonOf(req: FastifyRequest): string | undefined {
  return (req as WithReason)[REASON];
}

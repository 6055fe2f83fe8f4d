/**
 * The retry schedule (CONVENTIONS.md section 6, after Standard Webhooks / Svix): the first attempt
 * is immediate; after each failure the next one waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
 * Eight attempts in all; after the eighth failure the delivery is exhausted. Each delay is scaled by
 * WEBHOOK_RETRY_SCALE and jittered by +-10 %.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Delay before the next attempt after `failedAttempts` failures in a row (1-based), or null when exhausted. */
export function nextDelayMs(failedAttempts: number, scale: number, random: () => number = Math.random): number | null {
  if (failedAttempts < 1 || failedAttempts >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[failedAttempts - 1] * scale;
  return Math.max(0, Math.round(base * (0.9 + 0.2 * random())));
}

/**
 * Polling instead of fixed sleeps: retry `fn` until it stops throwing (an `expect` inside it, or an
 * explicit throw) and return its result; after `timeoutMs` rethrow its last error. A test waits as
 * long as the thing takes, and no longer, and fails with the assertion that never held.
 */
export async function eventually<T>(fn: () => T | Promise<T>, opts: { timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const intervalMs = opts.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() >= deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Wait until `predicate` returns a truthy value and return it; fails after `timeoutMs` with `what`. */
export async function waitFor<T>(predicate: () => T | Promise<T>, opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<NonNullable<T>> {
  return eventually(async () => {
    const value = await predicate();
    if (!value) throw new Error(`timed out waiting for ${opts.what ?? 'a condition'}`);
    return value as NonNullable<T>;
  }, opts);
}

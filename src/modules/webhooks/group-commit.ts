/**
 * Group commit: callers add items one at a time and await their own result; items that arrive
 * while a flush is running are flushed together by the next one (at most `max` per flush, one
 * flush at a time). Under load N concurrent deliveries cost one database round trip instead of
 * N, with no added latency when idle (a lone item is flushed on the next turn of the event loop).
 */
export class GroupCommit<I, O> {
  private queue: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private running = false;

  constructor(
    private readonly flush: (items: I[]) => Promise<O[]>,
    private readonly max = 200,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain() {
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.max);
      try {
        const out = await this.flush(batch.map((b) => b.item));
        batch.forEach((b, i) => b.resolve(out[i]));
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.running = false;
  }
}

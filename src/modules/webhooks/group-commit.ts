/**
 * Group commit: callers add items one at a time and await their own result; items that arrive
 * while flushes are running are flushed together by the next one (at most `max` items per flush,
 * at most `parallel` flushes at a time). Under load N concurrent deliveries cost a couple of
 * database round trips instead of N, with no added latency when idle (a lone item is flushed on
 * the next turn of the event loop).
 */
export class GroupCommit<I, O> {
  private queue: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly flush: (items: I[]) => Promise<O[]>,
    private readonly max = 200,
    private readonly parallel = 2,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.running >= this.parallel || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.runOne();
    });
  }

  private async runOne() {
    if (this.running >= this.parallel || !this.queue.length) return;
    this.running++;
    const batch = this.queue.splice(0, this.max);
    this.schedule(); // what is left over may start the next flush at once
    try {
      const out = await this.flush(batch.map((b) => b.item));
      batch.forEach((b, i) => b.resolve(out[i]));
    } catch (err) {
      for (const b of batch) b.reject(err);
    } finally {
      this.running--;
      this.schedule();
    }
  }
}

/**
 * At most `size` deliveries in flight in this process, whatever jobs they come from (a batch job
 * carries many deliveries, a retry job one). Waiters are served in arrival order, so with one slot
 * the deliveries of a batch go out one at a time, in the batch's order.
 */
export class DeliverySlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

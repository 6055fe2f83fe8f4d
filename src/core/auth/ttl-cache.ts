interface Cached<T> {
  value: T;
  until: number;
}

/** A small bounded TTL cache; cleared wholesale when full (the working set is small). */
export class TtlCache<T> {
  private map = new Map<string, Cached<T>>();
  constructor(private readonly max = 20000) {}
  get(key: string): T | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (hit.until < Date.now()) {
      this.map.delete(key);
      return undefined;
    }
    return hit.value;
  }
  set(key: string, value: T, ttlMs: number) {
    if (ttlMs <= 0) return; // caching off (AUTH_CACHE_SECONDS=0): not even within the same millisecond
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, { value, until: Date.now() + ttlMs });
  }
  delete(key: string) {
    this.map.delete(key);
  }
  /** Drop every entry whose value matches (a walk of the whole cache: for rare events, never per request). */
  deleteWhere(match: (value: T) => boolean) {
    for (const [key, hit] of this.map) if (match(hit.value)) this.map.delete(key);
  }
  clear() {
    this.map.clear();
  }
}

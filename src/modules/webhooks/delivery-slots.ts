/** Whose a delivery is: its organization and its endpoint (the delivery's target_url). */
export interface SlotKey {
  org: string;
  target: string;
}

/** A delivery in flight longer than this is slow: it gives its slot back and its endpoint is degraded. */
export const SLOW_MS = 1_000;
/** A degraded endpoint has at most this many deliveries in flight (slow ones included): a quarter of the slots, at least 2. */
export const degradedCap = (size: number) => Math.max(2, Math.ceil(size / 4));
/** A slow answer keeps its endpoint degraded this long, unless a quick answer comes first. */
export const DEGRADED_FOR_MS = 60_000;
/** Deferred deliveries come back after DEFER_MIN_MS plus up to their endpoint's estimated backlog, at most DEFER_MAX_MS. */
export const DEFER_MIN_MS = 2_000;
export const DEFER_MAX_MS = 300_000;
/** Endpoints whose health is remembered (cleared when full). */
const HEALTH_LIMIT = 10_000;

interface Waiter {
  start(): void;
  /** undefined: this run may not be deferred, it waits its turn */
  defer?: (delayMs: number) => void;
}

interface Lane {
  key: SlotKey;
  id: string;
  waiting: Waiter[];
}

interface Health {
  inFlight: number;
  /** set while the endpoint is degraded (a slow delivery in flight or lately finished) */
  degradedUntil: number;
  /** the longest slow delivery seen lately, ms (estimates a deferred delivery's wait) */
  slowMs: number;
  /** deliveries deferred and not started since (approximate: a delivery deferred twice counts twice) */
  backlog: number;
}

/**
 * The deliveries in flight in this process (issue 25 item 13). At most `size` deliveries hold a slot,
 * whatever jobs they come from, and slots go round-robin between organizations, then between the
 * endpoints of an organization, FIFO per endpoint: with one organization and one endpoint, the
 * deliveries start in arrival order (one slot: one at a time, in outbox order).
 *
 * So that one slow or dead endpoint cannot hold every slot:
 * - a delivery in flight for SLOW_MS gives its slot back (it keeps its socket and its timeout) and
 *   its endpoint becomes degraded; at most `maxSlow` such deliveries are let go at a time (beyond
 *   that they keep their slots);
 * - a degraded endpoint has at most degradedCap(size) deliveries in flight; its other deliveries are
 *   deferred (the caller re-queues them for later, nothing is attempted nor recorded), after an
 *   estimate of its backlog, so a batch job does not wait on them and the worker takes other jobs;
 * - a delivery that answers within SLOW_MS (success or failure) clears the degradation.
 * A healthy endpoint may use every slot (no cap when nobody else waits).
 */
export class DeliverySlots {
  private free: number;
  private slowHeld = 0;
  private readonly cap: number;
  /** organizations with waiting deliveries, in round-robin order (served ones move to the end) */
  private readonly orgs = new Map<string, Map<string, Lane>>();
  private readonly health = new Map<string, Health>();

  constructor(
    private readonly size: number,
    private readonly opts: { slowMs?: number; maxSlow?: number; expectedSlowMs?: number; random?: () => number } = {},
  ) {
    this.free = size;
    this.cap = degradedCap(size);
  }

  private get slowMs() {
    return this.opts.slowMs ?? SLOW_MS;
  }

  /**
   * Run `fn` in a slot when this key's turn comes; or, when `defer` is given and the key's endpoint
   * is degraded and busy, answer `defer(delayMs)` without a slot (the delivery is to be re-queued).
   */
  run<T>(key: SlotKey, fn: () => Promise<T>, defer?: (delayMs: number) => T): Promise<T> {
    const id = laneId(key);
    const h = this.healthOf(id);
    const now = Date.now();
    if (defer && this.degraded(h, now) && h.inFlight + this.waitingOf(key, id) >= this.cap) {
      return Promise.resolve(defer(this.deferMs(h)));
    }
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          const started = Date.now();
          let released = false;
          const timer = setTimeout(() => {
            // slow: give the slot back (the request keeps running); its endpoint is degraded
            const limit = this.opts.maxSlow ?? this.size * 10;
            h.degradedUntil = Date.now() + DEGRADED_FOR_MS;
            h.slowMs = Math.max(h.slowMs, this.slowMs);
            if (this.slowHeld < limit) {
              released = true;
              this.slowHeld++;
              this.free++;
            }
            this.trim(key, id, h);
            this.pump();
          }, this.slowMs);
          const done = () => {
            clearTimeout(timer);
            h.inFlight--;
            if (released) this.slowHeld--;
            else this.free++;
            const took = Date.now() - started;
            if (took < this.slowMs) {
              h.degradedUntil = 0;
              h.slowMs = 0;
              h.backlog = 0;
            } else {
              h.degradedUntil = Date.now() + DEGRADED_FOR_MS;
              h.slowMs = Math.max(h.slowMs, took);
            }
            this.pump();
          };
          fn().then(
            (v) => {
              done();
              resolve(v);
            },
            (e) => {
              done();
              reject(e);
            },
          );
        },
        defer: defer && ((ms) => resolve(defer(ms))),
      };
      let lanes = this.orgs.get(key.org);
      if (!lanes) this.orgs.set(key.org, (lanes = new Map()));
      let lane = lanes.get(id);
      if (!lane) lanes.set(id, (lane = { key, id, waiting: [] }));
      lane.waiting.push(waiter);
      this.pump();
    });
  }

  /** Start waiting deliveries while slots are free: next organization, its next endpoint that may start. */
  private pump() {
    const now = Date.now();
    while (this.free > 0) {
      let served = false;
      for (const [org, lanes] of this.orgs) {
        for (const [id, lane] of lanes) {
          const h = this.healthOf(id);
          if (h.inFlight >= (this.degraded(h, now) ? this.cap : this.size)) continue;
          const w = lane.waiting.shift()!;
          // round robin: this endpoint to the end of its organization, the organization to the end
          lanes.delete(id);
          if (lane.waiting.length) lanes.set(id, lane);
          this.orgs.delete(org);
          if (lanes.size) this.orgs.set(org, lanes);
          this.free--;
          h.inFlight++;
          if (h.backlog > 0) h.backlog--;
          w.start();
          served = true;
          break;
        }
        if (served) break;
      }
      if (!served) return;
    }
  }

  /** A degraded endpoint keeps at most its cap of deliveries in flight or waiting; the rest is deferred. */
  private trim(key: SlotKey, id: string, h: Health) {
    const lanes = this.orgs.get(key.org);
    const lane = lanes?.get(id);
    if (!lanes || !lane) return;
    const keep: Waiter[] = [];
    for (const w of lane.waiting) {
      if (w.defer && h.inFlight + keep.length >= this.cap) w.defer(this.deferMs(h));
      else keep.push(w);
    }
    lane.waiting = keep;
    if (!keep.length) {
      lanes.delete(id);
      if (!lanes.size) this.orgs.delete(key.org);
    }
  }

  private waitingOf(key: SlotKey, id: string): number {
    return this.orgs.get(key.org)?.get(id)?.waiting.length ?? 0;
  }

  private degraded(h: Health, now: number) {
    return h.degradedUntil > now;
  }

  /** How long a deferred delivery stays away: its endpoint's backlog at its recent pace, jittered. */
  private deferMs(h: Health): number {
    h.backlog++;
    const pace = Math.max(h.slowMs, this.opts.expectedSlowMs ?? 0, this.slowMs);
    const estimate = Math.min(DEFER_MAX_MS, (h.backlog / this.cap) * pace);
    return Math.round(Math.min(DEFER_MAX_MS, DEFER_MIN_MS + estimate * (0.5 + (this.opts.random ?? Math.random)())));
  }

  private healthOf(id: string): Health {
    let h = this.health.get(id);
    if (!h) {
      if (this.health.size >= HEALTH_LIMIT) {
        for (const [k, v] of this.health) if (v.inFlight === 0) this.health.delete(k);
      }
      h = { inFlight: 0, degradedUntil: 0, slowMs: 0, backlog: 0 };
      this.health.set(id, h);
    }
    return h;
  }
}

function laneId(key: SlotKey): string {
  return `${key.org} ${key.target}`;
}

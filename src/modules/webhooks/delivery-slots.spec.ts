import { DeliverySlots, degradedCap } from './delivery-slots';
import { DELIVERIES_PER_JOB, deliveryJobs } from './relay.service';

const K = { org: 'o1', target: 'http://a.test/' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DeliverySlots', () => {
  it('runs at most `size` at a time, the waiting ones in arrival order', async () => {
    const slots = new DeliverySlots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) =>
        slots.run(K, async () => {
          started.push(i);
          most = Math.max(most, ++running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });
  it('gives the slot back when the work fails', async () => {
    const slots = new DeliverySlots(1);
    await expect(slots.run(K, async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await slots.run(K, async () => 7)).toBe(7);
  });
  it('round-robin between organizations, then between the endpoints of one, FIFO per endpoint', async () => {
    const slots = new DeliverySlots(1);
    const started: string[] = [];
    const run = (org: string, target: string, n: number) => slots.run({ org, target }, async () => void started.push(`${org}${target}${n}`));
    // while the slot is busy, organization a queues six deliveries (two endpoints), then b and c one each
    const busy = slots.run({ org: 'busy', target: 'q' }, () => sleep(10));
    const all = [busy, run('a', 'x', 1), run('a', 'x', 2), run('a', 'x', 3), run('a', 'y', 1), run('a', 'y', 2), run('a', 'y', 3), run('b', 'x', 1), run('c', 'z', 1)];
    await Promise.all(all);
    expect(started).toEqual(['ax1', 'bx1', 'cz1', 'ay1', 'ax2', 'ay2', 'ax3', 'ay3']);
  });

  it('a slow delivery gives its slot back after slowMs; its endpoint is then capped and its waiting deliveries deferred', async () => {
    const slots = new DeliverySlots(2, { slowMs: 50, random: () => 0.5 });
    const hung = { org: 'a', target: 'http://hung.test/' };
    const release: (() => void)[] = [];
    const hang = () => new Promise<string>((r) => release.push(() => r('late')));
    const deferred: number[] = [];
    // two hung deliveries take both slots; more of the same endpoint wait
    const first = [slots.run(hung, hang, (ms) => `deferred ${ms}`), slots.run(hung, hang, (ms) => `deferred ${ms}`)];
    const more = [3, 4, 5].map(() => slots.run(hung, hang, (ms) => (deferred.push(ms), 'deferred')));
    // another organization waits behind them, but only until they are slow (50 ms), not until they end
    const t0 = Date.now();
    const other = await slots.run({ org: 'b', target: 'http://ok.test/' }, async () => Date.now() - t0);
    expect(other).toBeGreaterThanOrEqual(40);
    expect(other).toBeLessThan(1000);
    // the hung endpoint is degraded: at most degradedCap(2) = 2 in flight, the waiting ones deferred (no slot, nothing run)
    expect(degradedCap(2)).toBe(2);
    expect(await Promise.all(more)).toEqual(['deferred', 'deferred', 'deferred']);
    expect(deferred.every((ms) => ms >= 2000)).toBe(true);
    expect(release).toHaveLength(2);
    // a new one for it is deferred at once while it is degraded and busy
    expect(await slots.run(hung, hang, () => 'at once')).toBe('at once');
    for (const r of release) r();
    expect(await Promise.all(first)).toEqual(['late', 'late']);
    // without a defer callback a delivery waits its turn; a quick answer clears the degradation
    expect(await slots.run(hung, async () => 'quick')).toBe('quick');
    expect(
      await slots.run(
        hung,
        async () => 'runs',
        () => 'deferred',
      ),
    ).toBe('runs');
  });

  it('a healthy endpoint may use every slot', async () => {
    const slots = new DeliverySlots(4);
    let running = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 12 }, () =>
        slots.run(
          K,
          async () => {
            most = Math.max(most, ++running);
            await sleep(5);
            running--;
          },
          () => undefined,
        ),
      ),
    );
    expect(most).toBe(4);
  });
});

describe('deliveryJobs', () => {
  it('DELIVERIES_PER_JOB deliveries to a job in the order given; a lone delivery is a job of its own (job id = delivery id)', () => {
    const ids = Array.from({ length: DELIVERIES_PER_JOB * 2 + 1 }, (_x, i) => `d${i}`);
    const jobs = deliveryJobs(ids);
    expect(jobs.map((j) => j.opts.jobId)).toEqual(['batch-d0', `batch-d${DELIVERIES_PER_JOB}`, `d${DELIVERIES_PER_JOB * 2}`]);
    expect(jobs[0].data).toEqual({ deliveryIds: ids.slice(0, DELIVERIES_PER_JOB) });
    expect(jobs[1].data).toEqual({ deliveryIds: ids.slice(DELIVERIES_PER_JOB, DELIVERIES_PER_JOB * 2) });
    expect(jobs[2].data).toEqual({ deliveryId: ids[DELIVERIES_PER_JOB * 2] });
    expect(deliveryJobs([])).toEqual([]);
  });

  it("one organization's deliveries to a job; each organization's first job without priority, its k-th job priority k (round-robin in BullMQ)", () => {
    const n = DELIVERIES_PER_JOB;
    const ids = Array.from({ length: n * 2 + 1 }, (_x, i) => `a${i}`);
    const orgs = ids.map(() => 'A');
    ids.splice(3, 0, 'b0');
    orgs.splice(3, 0, 'B');
    const jobs = deliveryJobs(ids, orgs);
    expect(jobs.map((j) => [j.opts.jobId, j.opts.priority])).toEqual([
      ['batch-a0', undefined],
      [`batch-a${n}`, 2],
      [`a${n * 2}`, 3],
      ['b0', undefined],
    ]);
    expect(jobs[0].data).toEqual({ deliveryIds: ids.filter((x) => x.startsWith('a')).slice(0, n) });
  });
});

import { DeliverySlots } from './delivery-slots';
import { DELIVERIES_PER_JOB, deliveryJobs } from './relay.service';

describe('DeliverySlots', () => {
  it('runs at most `size` at a time, the waiting ones in arrival order', async () => {
    const slots = new DeliverySlots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) =>
        slots.run(async () => {
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
    await expect(slots.run(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await slots.run(async () => 7)).toBe(7);
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
});

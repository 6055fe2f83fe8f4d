import { nextTurn } from './next-turn';

describe('nextTurn', () => {
  it('resolves waiters one per event-loop iteration, in order, with I/O polled between them', async () => {
    // a self-rescheduling setImmediate counts the loop's iterations
    let iteration = 0;
    let counting = true;
    const tick = () => {
      iteration++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: [string, number][] = [];
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => nextTurn().then(() => seen.push([name, iteration]))));
    counting = false;
    expect(seen.map(([n]) => n)).toEqual(['a', 'b', 'c', 'd']);
    const iterations = seen.map(([, i]) => i);
    expect(new Set(iterations).size).toBe(4); // never two in the same iteration
    for (let k = 1; k < iterations.length; k++) expect(iterations[k]).toBeGreaterThan(iterations[k - 1]);
  });

  it('a waiter added later is served after those already waiting', async () => {
    const order: string[] = [];
    const first = nextTurn().then(() => order.push('first'));
    const second = nextTurn().then(() => {
      order.push('second');
      return nextTurn().then(() => order.push('fourth'));
    });
    const third = nextTurn().then(() => order.push('third'));
    await Promise.all([first, second, third]);
    expect(order).toEqual(['first', 'second', 'third', 'fourth']);
  });
});

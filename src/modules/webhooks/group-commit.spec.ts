import { GroupCommit } from './group-commit';

describe('GroupCommit', () => {
  it('flushes items that arrive together in one call, in order, and answers each caller', async () => {
    const calls: number[][] = [];
    const g = new GroupCommit<number, number>(
      async (xs) => {
        calls.push(xs);
        await new Promise((r) => setTimeout(r, 5));
        return xs.map((x) => x * 2);
      },
      3,
      1,
    );
    const out = await Promise.all([1, 2, 3, 4, 5].map((x) => g.add(x)));
    expect(out).toEqual([2, 4, 6, 8, 10]);
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(await g.add(7)).toBe(14);
  });
  it('rejects every caller of a failed flush, and goes on', async () => {
    let fail = true;
    const g = new GroupCommit<number, number>(async (xs) => {
      if (fail) throw new Error('down');
      return xs;
    });
    await expect(Promise.all([g.add(1), g.add(2)])).rejects.toThrow('down');
    fail = false;
    expect(await g.add(3)).toBe(3);
  });
});

describe('GroupCommit in parallel', () => {
  it('runs at most `parallel` flushes at once', async () => {
    let inFlight = 0;
    let peak = 0;
    const g = new GroupCommit<number, number>(
      async (xs) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 10));
        inFlight--;
        return xs;
      },
      1,
      2,
    );
    expect(await Promise.all([1, 2, 3, 4, 5].map((x) => g.add(x)))).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });
});

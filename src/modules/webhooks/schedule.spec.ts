import { MAX_ATTEMPTS, nextDelayMs, RETRY_DELAYS_MS } from './schedule';

describe('webhook retry schedule', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the immediate first attempt', () => {
    expect(RETRY_DELAYS_MS).toEqual([5e3, 300e3, 1800e3, 7200e3, 18000e3, 36000e3, 36000e3]);
    expect(MAX_ATTEMPTS).toBe(8);
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => nextDelayMs(n, 1, () => 0.5))).toEqual(RETRY_DELAYS_MS);
    expect(nextDelayMs(8, 1)).toBeNull();
  });
  it('jitters by at most 10 % and scales', () => {
    expect(nextDelayMs(1, 1, () => 0)).toBe(4500);
    expect(nextDelayMs(1, 1, () => 1)).toBe(5500);
    expect(nextDelayMs(2, 0.001, () => 0.5)).toBe(300);
  });
});

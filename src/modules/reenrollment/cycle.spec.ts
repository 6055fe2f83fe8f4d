import { addCycles, nextRunAfter } from './cycle';

const d = (s: string) => new Date(s);

describe('re-enrollment cycles (issue 29 point 2)', () => {
  it('months are calendar months, clamped to the month end, counted from the start', () => {
    expect(addCycles(d('2027-01-31T10:00:00Z'), 1, 'MONTHS').toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(addCycles(d('2028-01-31T10:00:00Z'), 1, 'MONTHS').toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(addCycles(d('2027-01-31T10:00:00Z'), 2, 'MONTHS').toISOString()).toBe('2027-03-31T10:00:00.000Z');
    expect(addCycles(d('2027-11-15T00:00:00Z'), 3, 'MONTHS').toISOString()).toBe('2028-02-15T00:00:00.000Z');
    expect(addCycles(d('2027-05-31T23:00:00Z'), 12, 'MONTHS').toISOString()).toBe('2028-05-31T23:00:00.000Z');
    expect(addCycles(d('2027-03-01T00:00:00Z'), 30, 'DAYS').toISOString()).toBe('2027-03-31T00:00:00.000Z');
  });

  it('the next run is one cycle after the current one, or the first still ahead after a long pause', () => {
    const start = d('2027-01-31T10:00:00Z');
    expect(nextRunAfter(start, 1, 'MONTHS', start, start).toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(nextRunAfter(start, 1, 'MONTHS', d('2027-02-28T10:00:00Z'), d('2027-02-28T10:00:01Z')).toISOString()).toBe('2027-03-31T10:00:00.000Z');
    // the worker was down five months: one run, then the next time still ahead
    expect(nextRunAfter(start, 1, 'MONTHS', start, d('2027-06-15T00:00:00Z')).toISOString()).toBe('2027-06-30T10:00:00.000Z');
    expect(nextRunAfter(d('2027-01-01T00:00:00Z'), 7, 'DAYS', d('2027-01-01T00:00:00Z'), d('2027-01-01T00:00:00Z')).toISOString()).toBe('2027-01-08T00:00:00.000Z');
    expect(nextRunAfter(d('2027-01-01T00:00:00Z'), 7, 'DAYS', d('2027-01-01T00:00:00Z'), d('2027-02-01T00:00:00Z')).toISOString()).toBe('2027-02-05T00:00:00.000Z');
  });
});

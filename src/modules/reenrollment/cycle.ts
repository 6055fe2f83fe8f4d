export type CycleUnit = 'MONTHS' | 'DAYS';

/**
 * `start` moved on by `count` units, in UTC. Months are calendar months: the day of the month is
 * kept, clamped to the last day of a shorter month (Jan 31 + 1 month = Feb 28, or 29 in a leap
 * year), and always counted from `start`, so a clamp never drifts later runs (Jan 31 + 2 months is
 * Mar 31, not Mar 28). Days are 24-hour days.
 */
export function addCycles(start: Date, count: number, unit: CycleUnit): Date {
  if (unit === 'DAYS') return new Date(start.getTime() + count * 86_400_000);
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth() + count;
  const targetYear = y + Math.floor(m / 12);
  const targetMonth = ((m % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  const day = Math.min(start.getUTCDate(), lastDay);
  return new Date(Date.UTC(targetYear, targetMonth, day, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()));
}

/**
 * The run after `current` (a run time of the rule that starts at `start` and repeats every
 * `duration` `unit`): the first `start + k·duration` (k ≥ 1) later than both `current` and `notBefore`.
 * A worker that was down for several cycles runs once and moves to the next time still ahead.
 */
export function nextRunAfter(start: Date, duration: number, unit: CycleUnit, current: Date, notBefore: Date): Date {
  const floor = Math.max(current.getTime(), notBefore.getTime());
  // a first guess of k close to the answer, then step (months are not all the same length)
  const approx = unit === 'DAYS' ? 86_400_000 * duration : 28 * 86_400_000 * duration;
  let k = Math.max(1, Math.floor((floor - start.getTime()) / approx) - 1);
  while (addCycles(start, k * duration, unit).getTime() <= floor) k++;
  while (k > 1 && addCycles(start, (k - 1) * duration, unit).getTime() > floor) k--;
  return addCycles(start, k * duration, unit);
}

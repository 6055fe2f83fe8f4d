/**
 * One turn of the event loop per waiter: `await nextTurn()` resolves waiters one at a time, each in
 * its own loop iteration (a setImmediate scheduled from the check phase runs in the next one), so
 * that the loop polls for I/O between them.
 *
 * Why (docs/decisions/performance.md, "Tail latency of batch writes"): a loop iteration runs every
 * callback that was ready when it polled. Under load, the database answers for dozens of batch
 * requests arrive together and one iteration ran all their synchronous work (validating, presenting
 * and serializing 100 items each, milliseconds apiece): iterations of 150-200 ms. Node accepts one
 * new connection per iteration and reads nothing else meanwhile, so a request arriving then waited
 * for several such iterations: the p99 of a 100-item batch create was 5-10 times its median while
 * the bare server's was not. Routes that do milliseconds of synchronous work per request await
 * nextTurn() before each such slice; a request's total CPU is unchanged, the loop's iterations stay
 * short (event-loop delay p99 from ~200 ms to ~30 ms in bench/v2-students.js).
 */
const waiting: (() => void)[] = [];
let scheduled = false;

function release() {
  scheduled = false;
  const next = waiting.shift();
  if (waiting.length) schedule();
  next?.();
}

function schedule() {
  scheduled = true;
  setImmediate(release);
}

export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) schedule();
  });
}

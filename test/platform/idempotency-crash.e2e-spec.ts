import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { ApiProcess, spawnApi } from '../support/api-process';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';

/**
 * Idempotency-Key across a crash (issue 25 item 11; docs/decisions/idempotency.md, "A crash between
 * the work and the answer"), proven on the checkout: the API runs as a child process (src/main.ts)
 * with a fault-injection pause (IDEMPOTENCY_FAULT, NODE_ENV=test only) and is SIGKILLed there; a new
 * process then gets the retry.
 * - killed after the checkout's commit, before its answer is stored: the retry answers the purchase
 *   (201, replayed) and nothing runs again: one purchase, one promo use, credits spent once;
 * - killed before the commit: the retry, at once (no 300 s wait), runs the checkout, once.
 */
describe('Idempotency-Key: a checkout whose API process is killed mid-request', () => {
  let t: TestApp;
  let org: CreatedOrg;
  const procs: ApiProcess[] = [];
  const A = () => ({ basic: org.api_key });
  let n = 0;

  /** a priced offer, a 50% promo code (5 uses) and a 10-credit code: a checkout of it is free (500 - 5 credits), SUCCESS at once, counting its promo use */
  const shop = async () => {
    const c = await journey(t, org).course([{}]);
    const offer = (await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, A())).body.offer.id;
    expect((await t.patch(`/v1/offers/${offer}`, { price_cents: 1000 }, A())).status).toBe(200);
    const pool = await t.post('/v1/promo-code-pools', { name: `Crash ${n++}`, starts_at: '2026-01-01T00:00:00Z', discount_type: 'PERCENT_OFF', percent_off: 50 }, A());
    expect((await t.post(`/v1/promo-code-pools/${pool.body.id}/offers`, { id: offer }, A())).status).toBe(201);
    const code = await t.post('/v1/promo-codes', { code: `CRASH${Date.now()}${n++}`, max_uses: 5, promo_code_pool_id: pool.body.id }, A());
    const credits = await t.post('/v1/training-credit-codes', { training_credit_code: `TC${Date.now()}${n++}`, credits_total: 10 }, A());
    expect([code.status, credits.status]).toEqual([201, 201]);
    const learner = (await journey(t, org).learner()).id;
    return { offer, code: code.body, credits: credits.body, learner };
  };
  type Shop = Awaited<ReturnType<typeof shop>>;
  const body = (s: Shop) => ({ user: { id: s.learner }, offer_id: s.offer, promo_code: s.code.code, training_credit_code: s.credits.training_credit_code });

  const checkout = (api: ApiProcess, s: Shop, key: string) =>
    fetch(`${api.baseUrl}/v1/purchases`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${org.api_key}:`).toString('base64')}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body(s)),
    }).then(async (r) => ({ status: r.status, replayed: r.headers.get('idempotent-replayed'), body: JSON.parse(await r.text()) }));

  const state = async (s: Shop) => {
    const [row] = await t.ds.query(
      `SELECT (SELECT count(*)::int FROM purchases WHERE organization_id = $1 AND offer_id = $2) AS purchases,
              (SELECT count(*)::int FROM promo_code_uses WHERE organization_id = $1 AND promo_code_id = $3) AS use_rows`,
      [orgUuid(org), decodeId('offer', s.offer), decodeId('promoCode', s.code.id)],
    );
    const code = (await t.get(`/v1/promo-codes/${s.code.id}`, A())).body;
    const credits = (await t.get(`/v1/training-credit-codes/${s.credits.id}`, A())).body;
    return { purchases: row.purchases, use_rows: row.use_rows, use_count: code.use_count, credits_used: credits.credits_used };
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.kill();
  });
  afterAll(() => t.close());

  it('killed after the commit, before the answer is stored: the retry answers the purchase (201) and never runs again', async () => {
    const s = await shop();
    const key = `crash-after-commit-${Date.now()}`;
    const first = await spawnApi(t.config, { IDEMPOTENCY_FAULT: 'pause-before-answer-store' });
    procs.push(first);
    const pending = checkout(first, s, key).catch((e: Error) => e);
    await first.waitForStderr('IDEMPOTENCY_FAULT paused before-answer-store');
    // committed: the purchase is there, its promo use and credits counted
    expect(await state(s)).toEqual({ purchases: 1, use_rows: 1, use_count: 1, credits_used: 5 });
    // the first process is alive: a repeat is in flight (409), nothing runs
    const during = await checkout(first, s, key).catch((e: Error) => e);
    expect(during).toMatchObject({ status: 409 });
    await first.kill();
    expect(await pending).toMatchObject({ message: 'fetch failed' }); // the connection died with the process

    const second = await spawnApi(t.config);
    procs.push(second);
    const retry = await checkout(second, s, key);
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe('true');
    const [{ id }] = await t.ds.query(`SELECT id FROM purchases WHERE organization_id = $1 AND offer_id = $2`, [orgUuid(org), decodeId('offer', s.offer)]);
    expect(decodeId('purchase', retry.body.id)).toBe(id);
    expect(retry.body).toEqual((await t.get(`/v1/purchases/${retry.body.id}`, A())).body);
    expect(retry.body).toMatchObject({ state: 'SUCCESS', price_cents: 0, promo_code: s.code.code });
    expect(await state(s)).toEqual({ purchases: 1, use_rows: 1, use_count: 1, credits_used: 5 });
    // the rebuilt answer is stored: the next repeat replays the same bytes
    const again = await checkout(second, s, key);
    expect({ status: again.status, replayed: again.replayed, body: again.body }).toEqual({ status: 201, replayed: 'true', body: retry.body });
    expect(await state(s)).toEqual({ purchases: 1, use_rows: 1, use_count: 1, credits_used: 5 });
  }, 120_000);

  it('killed before the commit: the retry runs the checkout at once, exactly once', async () => {
    const s = await shop();
    const key = `crash-before-commit-${Date.now()}`;
    const first = await spawnApi(t.config, { IDEMPOTENCY_FAULT: 'pause-before-commit' });
    procs.push(first);
    const pending = checkout(first, s, key).catch((e: Error) => e);
    await first.waitForStderr('IDEMPOTENCY_FAULT paused before-commit');
    await first.kill();
    expect(await pending).toMatchObject({ message: 'fetch failed' });
    // nothing committed
    expect(await state(s)).toEqual({ purchases: 0, use_rows: 0, use_count: 0, credits_used: 0 });

    const second = await spawnApi(t.config);
    procs.push(second);
    const started = Date.now();
    const retry = await checkout(second, s, key);
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBeNull(); // it ran
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(retry.body).toMatchObject({ state: 'SUCCESS', price_cents: 0, promo_code: s.code.code });
    expect(await state(s)).toEqual({ purchases: 1, use_rows: 1, use_count: 1, credits_used: 5 });
    const again = await checkout(second, s, key);
    expect({ status: again.status, replayed: again.replayed, body: again.body }).toEqual({ status: 201, replayed: 'true', body: retry.body });
    expect(await state(s)).toEqual({ purchases: 1, use_rows: 1, use_count: 1, credits_used: 5 });
  }, 120_000);
});

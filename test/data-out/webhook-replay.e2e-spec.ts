import { INestApplicationContext } from '@nestjs/common';
import { testEvent } from '../support/events';
import { loadConfig } from '../../src/core/config/config';
import { EventType, recordEvents } from '../../src/core/events/outbox';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { waitFor } from '../support/eventually';
import { dropRedisPrefix, Receiver, startReceiver, verifyStandardWebhook } from '../support/webhook-receiver';

/**
 * Webhook replay (CONVENTIONS §20): POST /v1/webhooks/{id}/replay `{since, until?}` queues the
 * organization's events of that time range again to that webhook: the same body and `webhook-id`
 * as the first delivery, signed anew (the current secret, a new webhook-timestamp); events the
 * webhook never got (recorded before it existed) are delivered too; nothing outside the range,
 * nothing of another type than the webhook's, nothing of another organization.
 */
jest.setTimeout(90_000);

describe('webhook replay', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  let r: Receiver;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
    worker = await createWorker(loadConfig(process.env, { ...t.config, WEBHOOK_RELAY_INTERVAL_MS: 100, WEBHOOK_RETRY_SCALE: 0.001 }));
    await worker.init();
    r = await startReceiver();
  });
  afterAll(async () => {
    await worker?.close();
    await r?.close();
    await t.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
  });

  const emit = (org: CreatedOrg, type: EventType, n: number) =>
    t.ds.transaction((m) =>
      recordEvents(
        m,
        Array.from({ length: n }, (_x, i) => testEvent(orgUuid(org), type, { user: { id: `stu_r${i}`, email: `r${i}@example.com`, first_name: 'R', last_name: `${i}` } })),
      ),
    );
  const pause = (ms: number) => new Promise((res) => setTimeout(res, ms));

  it('delivers the range again with the same webhook-id, signed with the current secret; bounds, types and organizations hold', async () => {
    const o = await t.newOrg();
    const other = await t.newOrg();
    await emit(o, 'COURSE_ENROLLMENT', 1); // before the range
    await pause(20);
    const since = new Date().toISOString();
    await pause(20);
    await emit(o, 'COURSE_COMPLETION', 1); // before the webhook exists: never delivered
    await emit(other, 'COURSE_COMPLETION', 1); // another organization's
    // the relay passes the events above while the organization has no webhook
    await waitFor(async () => (await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE organization_id = $1 AND relayed_at IS NULL`, [orgUuid(o)]))[0].n === 0, {
      timeoutMs: 15_000,
      what: 'the relay',
    });
    const hook = await t.post('/v1/webhooks', { target_url: r.url }, { basic: o.api_key });
    expect(hook.status).toBe(201);
    await emit(o, 'COURSE_ENROLLMENT', 2);
    const first = await r.waitFor(2);
    expect(first.every((x) => verifyStandardWebhook(hook.body.secret, x.headers, x.body))).toBe(true);
    await pause(50);
    const until = new Date().toISOString();
    await pause(50);
    await emit(o, 'COURSE_ENROLLMENT', 1); // after the range
    await r.waitFor(3);

    const rotated = await t.post(`/v1/webhooks/${hook.body.id}/rotate-secret`, {}, { basic: o.api_key });
    expect(rotated.status).toBe(200);
    const res = await t.post(`/v1/webhooks/${hook.body.id}/replay`, { since, until }, { basic: o.api_key });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ replayed: 3, since: new Date(since).toISOString(), until: new Date(until).toISOString() });
    const all = await r.waitFor(6);
    await pause(500);
    expect(r.received).toHaveLength(6);
    const replayed = all.slice(3);
    // the two delivered before carry their first webhook-id and body again; the third is the one recorded before the webhook
    for (const x of first) {
      const again = replayed.find((y) => y.headers['webhook-id'] === x.headers['webhook-id']);
      expect(again).toBeDefined();
      expect(again!.body).toBe(x.body);
    }
    const never = replayed.find((y) => !first.some((x) => x.headers['webhook-id'] === y.headers['webhook-id']))!;
    expect(JSON.parse(never.body).event_type).toBe('COURSE_COMPLETION');
    // signed anew: with the new secret (and the old one during the rotation overlap)
    for (const x of replayed) expect(verifyStandardWebhook(rotated.body.secret, x.headers, x.body)).toBe(true);

    // a webhook of one type replays that type only
    const typed = await t.post('/v1/webhooks', { target_url: r.url + '/typed', event_type: 'COURSE_COMPLETION' }, { basic: o.api_key });
    const typedReplay = await t.post(`/v1/webhooks/${typed.body.id}/replay`, { since }, { basic: o.api_key });
    expect(typedReplay.status).toBe(202);
    expect(typedReplay.body.replayed).toBe(1);

    // bad input: 400 naming the member, nothing queued; another organization's webhook: 404; scopes
    for (const [body, field] of [
      [{}, 'since'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: '2026-01-01T00:00:00' }, 'since'],
      [{ since: 5 }, 'since'],
      [{ since, until: since }, 'until'],
    ] as const) {
      const bad = await t.post(`/v1/webhooks/${hook.body.id}/replay`, body, { basic: o.api_key });
      expect({ body, status: bad.status, keys: Object.keys(bad.body ?? {}) }).toEqual({ body, status: 400, keys: [field] });
    }
    expect((await t.post(`/v1/webhooks/${hook.body.id}/replay`, { since }, { basic: other.api_key })).status).toBe(404);
    expect((await t.post(`/v1/webhooks/${hook.body.id}/replay`, { since }, { token: await t.tokenFor(o, ['webhooks:read']) })).status).toBe(403);
    const inactive = await t.patch(`/v1/webhooks/${hook.body.id}`, { active: false }, { basic: o.api_key });
    expect(inactive.status).toBe(200);
    expect((await t.post(`/v1/webhooks/${hook.body.id}/replay`, { since }, { basic: o.api_key })).status).toBe(400);
    await pause(300);
    expect(r.received.filter((x) => x.path === '/hook')).toHaveLength(6);
  });
});

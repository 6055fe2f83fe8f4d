import { recordEvents, EVENT_TYPES } from '../../src/core/events/outbox';
import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { twoOrgs } from '../support/two-orgs';
import { orgUuid } from '../support/fixtures';
import { startReceiver } from '../support/webhook-receiver';
import { drfFlat } from '../support/drf';

/**
 * /v1/webhooks configuration API with the SSRF policy ON (ALLOW_PRIVATE_URLS=false): list, create,
 * read, update, partial update, delete, the ten sample-* events; scopes, both credentials,
 * cross-organization isolation and 400 field errors. Delivery, ping and deliveries are in
 * webhook-delivery*.e2e-spec.ts.
 */
describe('/v1/webhooks', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  const key = () => org.api_key;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: false });
    ({ a: org, b: other, tokenA: token } = await twoOrgs(t));
  });
  afterAll(() => t.close());

  const create = (body: unknown, auth: { basic?: string; token?: string } = { basic: key() }) => t.post('/v1/webhooks', body, auth);

  describe('auth', () => {
    it('401 without credentials, 403 without the webhooks scope, read scope cannot write', async () => {
      expect((await t.get('/v1/webhooks')).status).toBe(401);
      expect((await t.post('/v1/webhooks', { target_url: 'https://example.com/h' })).status).toBe(401);
      const wrong = await t.tokenFor(org, ['courses:read']);
      const r = await t.get('/v1/webhooks', { token: wrong });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ detail: expect.any(String) });
      expect((await t.get('/v1/webhooks/sample-course-enrollment', { token: wrong })).status).toBe(403);
      const readOnly = await t.tokenFor(org, ['webhooks:read']);
      expect((await t.get('/v1/webhooks', { token: readOnly })).status).toBe(200);
      expect((await t.post('/v1/webhooks', { target_url: 'https://example.com/h' }, { token: readOnly })).status).toBe(403);
      const c = await create({ target_url: 'https://example.com/scoped' });
      expect((await t.patch(`/v1/webhooks/${c.body.id}`, { active: false }, { token: readOnly })).status).toBe(403);
      expect((await t.delete(`/v1/webhooks/${c.body.id}`, { token: readOnly })).status).toBe(403);
      expect((await t.post(`/v1/webhooks/${c.body.id}/ping`, undefined, { token: readOnly })).status).toBe(403);
      expect((await t.get(`/v1/webhooks/${c.body.id}`, { token: readOnly })).status).toBe(200);
      expect((await t.get(`/v1/webhooks/${c.body.id}`, { basic: 'not-a-key' })).status).toBe(401);
      expect((await t.get(`/v1/webhooks/${c.body.id}/deliveries`)).status).toBe(401);
      expect((await t.get(`/v1/webhooks/${c.body.id}/deliveries`, { token: wrong })).status).toBe(403);
      expect((await t.get(`/v1/webhooks/${c.body.id}/deliveries`, { token: readOnly })).body).toMatchObject({ count: 0, results: [] });
      expect((await t.get(`/v1/webhooks/${c.body.id}/deliveries?page=x`, { token: readOnly })).status).toBe(400);
    });
  });

  describe('create, read, list', () => {
    it.each([
      ['API key', () => ({ basic: key() })],
      ['Bearer token', () => ({ token })],
    ])('creates with %s: 201, the whsec_ secret once, then read hides it and masks the password', async (_n, auth) => {
      const res = await create(
        { target_url: 'https://example.com/hooks/a', event_type: 'COURSE_ENROLLMENT', basic_auth_username: 'u', basic_auth_password: 'p4ss', additional_headers: { 'X-Tenant': 'acme' } },
        auth(),
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-z]+$/),
        target_url: 'https://example.com/hooks/a',
        active: true,
        deactivate_reason: null,
        event_type: 'COURSE_ENROLLMENT',
        basic_auth_username: 'u',
        basic_auth_password: '********',
        additional_headers: { 'X-Tenant': 'acme' },
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      });
      expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(24);
      const read = await t.get(`/v1/webhooks/${res.body.id}`, auth());
      expect(read.status).toBe(200);
      const { secret: _s, ...rest } = res.body;
      expect(read.body).toEqual(rest);
      expect(read.text).not.toContain('whsec_');
      expect(read.text).not.toContain('p4ss');
      // stored sealed: neither the secret nor the password is in the row in clear
      const [row] = await t.ds.query(`SELECT secret, basic_auth_password FROM webhooks WHERE id = (SELECT id FROM webhooks ORDER BY created_at DESC LIMIT 1)`);
      expect(row.secret).not.toContain(res.body.secret.slice(6, 20));
      expect(row.basic_auth_password).not.toContain('p4ss');
    });

    it('defaults: event_type null (all events), active true, no auth, no headers', async () => {
      const res = await create({ target_url: 'http://example.com/all' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ event_type: null, active: true, basic_auth_username: '', basic_auth_password: '', additional_headers: {} });
      const inactive = await create({ target_url: 'https://example.com/off', active: false });
      expect(inactive.body.active).toBe(false);
      expect(inactive.body.deactivate_reason).toBeNull();
    });

    it("lists the organization's webhooks in creation order with page numbers (cap 100)", async () => {
      const fresh = await t.newOrg();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await create({ target_url: `https://example.com/l${i}` }, { basic: fresh.api_key })).body.id);
      const all = await t.get('/v1/webhooks', { basic: fresh.api_key });
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ count: 3, next: null, previous: null });
      expect(all.body.results.map((w: any) => w.id)).toEqual(ids);
      expect(all.text).not.toContain('whsec_');
      const p1 = await t.get('/v1/webhooks?page_size=2', { basic: fresh.api_key });
      expect(p1.body.results).toHaveLength(2);
      expect(p1.body.next).toContain('page=2');
      const p2 = await t.get('/v1/webhooks?page_size=2&page=2', { basic: fresh.api_key });
      expect(p2.body.results.map((w: any) => w.id)).toEqual([ids[2]]);
      expect(p2.body.previous).not.toBeNull();
      expect((await t.get('/v1/webhooks?page=9', { basic: fresh.api_key })).status).toBe(404);
      const bad = await t.get('/v1/webhooks?page=abc', { basic: fresh.api_key });
      expect(bad.status).toBe(400);
      expect(bad.body).toHaveProperty('page');
      // capped at 100
      await t.ds.query(`INSERT INTO webhooks (organization_id, target_url, secret) SELECT $1, 'https://example.com/bulk' || g, 'x' FROM generate_series(1, 101) g`, [orgUuid(fresh)]);
      const capped = await t.get('/v1/webhooks?page_size=500', { basic: fresh.api_key });
      expect(capped.body.count).toBe(104);
      expect(capped.body.results).toHaveLength(100);
    });
  });

  describe('bad input: 400 field errors, never 500', () => {
    it.each([
      [{}, 'target_url'],
      [{ target_url: '' }, 'target_url'],
      [{ target_url: 42 }, 'target_url'],
      [{ target_url: 'not a url' }, 'target_url'],
      [{ target_url: 'ftp://example.com/x' }, 'target_url'],
      [{ target_url: 'https://user:pw@example.com/x' }, 'target_url'],
      [{ target_url: 'https://example.com/' + 'a'.repeat(1100) }, 'target_url'],
      [{ target_url: 'https://example.com/x', event_type: 'NOPE' }, 'event_type'],
      [{ target_url: 'https://example.com/x', active: 'yes' }, 'active'],
      [{ target_url: 'https://example.com/x', basic_auth_username: 5 }, 'basic_auth_username'],
      [{ target_url: 'https://example.com/x', basic_auth_username: 'a:b' }, 'basic_auth_username'],
      [{ target_url: 'https://example.com/x', basic_auth_password: 'a\u0000b' }, 'basic_auth_password'],
      [{ target_url: 'https://example.com/x', basic_auth_password: 'x'.repeat(256) }, 'basic_auth_password'],
      [{ target_url: 'https://example.com/x', additional_headers: 'X-A: b' }, 'additional_headers'],
      [{ target_url: 'https://example.com/x', additional_headers: ['a'] }, 'additional_headers'],
      [{ target_url: 'https://example.com/x', additional_headers: { 'X-A': 1 } }, 'additional_headers'],
      [{ target_url: 'https://example.com/x', additional_headers: { 'bad name': 'v' } }, 'additional_headers'],
      [{ target_url: 'https://example.com/x', additional_headers: { 'X-A': 'a\r\nX-B: c' } }, 'additional_headers'],
      [{ target_url: 'https://example.com/x', additional_headers: { Authorization: 'Bearer x' } }, 'additional_headers'],
      [{ target_url: 'https://example.com/x', additional_headers: { 'content-type': 'text/plain' } }, 'additional_headers'],
      [{ target_url: 'https://example.com/x', additional_headers: { 'User-Agent': 'me' } }, 'additional_headers'],
      [{ target_url: 'https://example.com/x', additional_headers: { 'Webhook-Signature': 'v1,forged' } }, 'additional_headers'],
      [{ target_url: 'https://example.com/x', additional_headers: { 'webhook-id': 'x' } }, 'additional_headers'],
      [{ target_url: 'https://example.com/x', additional_headers: { 'X-A': 'a', 'x-a': 'b' } }, 'additional_headers'],
    ])('POST %j -> 400 on %s', async (body, field) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(drfFlat(res.body)[field]).toEqual([expect.any(String)]);
    });

    it('a body that is not an object, or malformed JSON, is a 400', async () => {
      expect((await t.request('POST', '/v1/webhooks', { basic: key(), raw: { contentType: 'application/json', data: '[1]' } })).status).toBe(400);
      expect((await t.request('POST', '/v1/webhooks', { basic: key(), raw: { contentType: 'application/json', data: '{"target_url":' } })).status).toBe(400);
      expect((await t.request('POST', '/v1/webhooks', { basic: key(), raw: { contentType: 'application/json', data: 'null' } })).status).toBe(400);
    });

    it('nothing was created by the refused requests', async () => {
      const fresh = await t.newOrg();
      await create({ target_url: 'ftp://x' }, { basic: fresh.api_key });
      await create({ target_url: 'https://example.com/x', additional_headers: { Authorization: 'x' } }, { basic: fresh.api_key });
      expect((await t.get('/v1/webhooks', { basic: fresh.api_key })).body.count).toBe(0);
    });
  });

  describe('SSRF: private targets refused on create and update', () => {
    it.each([
      'http://127.0.0.1:8080/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://localhost:3000/hook',
      'http://10.0.0.5/hook',
      'http://[::1]/hook',
      'http://2130706433/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ])('%s -> 400 on target_url', async (url) => {
      const res = await create({ target_url: url });
      expect(res.status).toBe(400);
      expect(res.body.target_url[0]).toMatch(/not allowed/);
      const ok = await create({ target_url: 'https://example.com/ssrf' });
      const put = await t.request('PUT', `/v1/webhooks/${ok.body.id}`, { basic: key(), body: { target_url: url } });
      expect(put.status).toBe(400);
      expect((await t.patch(`/v1/webhooks/${ok.body.id}`, { target_url: url }, { basic: key() })).status).toBe(400);
      expect((await t.get(`/v1/webhooks/${ok.body.id}`, { basic: key() })).body.target_url).toBe('https://example.com/ssrf');
    });
  });

  it('ping obeys the SSRF policy: a webhook row aimed at loopback is never reached', async () => {
    const r = await startReceiver();
    try {
      // rows written before the policy was on (or by hand): the API would refuse them now
      const c = await create({ target_url: 'https://example.com/ping-ssrf' });
      for (const url of [r.url, `http://localhost:${r.port}/hook`]) {
        await t.ds.query(`UPDATE webhooks SET target_url = $1 WHERE id = $2`, [url, decodeId('webhook', c.body.id)]);
        const res = await t.post(`/v1/webhooks/${c.body.id}/ping`, undefined, { basic: key() });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ succeeded: false, message: expect.stringMatching(/not allowed|disallowed/) }); // no HTTP answer: http_status_code left out (CONVENTIONS §16)
      }
      expect(r.received).toHaveLength(0);
    } finally {
      await r.close();
    }
  });

  describe('update, partial update, delete', () => {
    it('PUT needs target_url and is otherwise partial; PATCH changes only what it names', async () => {
      const c = await create({ target_url: 'https://example.com/u', event_type: 'COURSE_COMPLETION', basic_auth_username: 'u', basic_auth_password: 'pw', additional_headers: { 'X-A': '1' } });
      const id = c.body.id;
      const noUrl = await t.request('PUT', `/v1/webhooks/${id}`, { token, body: { active: false } });
      expect(noUrl.status).toBe(400);
      expect(noUrl.body.target_url).toBeDefined();
      const put = await t.request('PUT', `/v1/webhooks/${id}`, { token, body: { target_url: 'https://example.com/u2', event_type: null } });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ id, target_url: 'https://example.com/u2', event_type: null, basic_auth_username: 'u', basic_auth_password: '********', additional_headers: { 'X-A': '1' } });
      expect(put.body.secret).toBeUndefined();
      const patch = await t.patch(`/v1/webhooks/${id}`, { event_type: 'LESSON_COMPLETION', additional_headers: { 'X-B': '2' } }, { basic: key() });
      expect(patch.status).toBe(200);
      expect(patch.body).toMatchObject({ target_url: 'https://example.com/u2', event_type: 'LESSON_COMPLETION', additional_headers: { 'X-B': '2' } });
      expect((await t.get(`/v1/webhooks/${id}`, { token })).body).toEqual(patch.body);
      const bad = await t.patch(`/v1/webhooks/${id}`, { event_type: 'X', active: 'no' }, { token });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body).sort()).toEqual(['active', 'event_type']);
    });

    it('the masked password read back keeps the password; "" or null clears it', async () => {
      const c = await create({ target_url: 'https://example.com/pw', basic_auth_username: 'u', basic_auth_password: 'secret1' });
      const [before] = await t.ds.query(`SELECT basic_auth_password FROM webhooks WHERE target_url = 'https://example.com/pw'`);
      const read = await t.get(`/v1/webhooks/${c.body.id}`, { token });
      const { id: _id, deactivate_reason: _r, ...writable } = read.body;
      expect((await t.request('PUT', `/v1/webhooks/${c.body.id}`, { token, body: writable })).status).toBe(200);
      const [after] = await t.ds.query(`SELECT basic_auth_password FROM webhooks WHERE target_url = 'https://example.com/pw'`);
      expect(after.basic_auth_password).toBe(before.basic_auth_password);
      const cleared = await t.patch(`/v1/webhooks/${c.body.id}`, { basic_auth_password: '' }, { token });
      expect(cleared.body.basic_auth_password).toBe('');
    });

    it('deactivating by hand leaves no reason; re-activating clears a deactivate_reason', async () => {
      const c = await create({ target_url: 'https://example.com/react' });
      const off = await t.patch(`/v1/webhooks/${c.body.id}`, { active: false }, { token });
      expect(off.body).toMatchObject({ active: false, deactivate_reason: null });
      await t.ds.query(`UPDATE webhooks SET deactivate_reason = 'RETRY_COUNT' WHERE target_url = 'https://example.com/react'`);
      expect((await t.get(`/v1/webhooks/${c.body.id}`, { token })).body.deactivate_reason).toBe('RETRY_COUNT');
      const on = await t.patch(`/v1/webhooks/${c.body.id}`, { active: true }, { token });
      expect(on.body).toMatchObject({ active: true, deactivate_reason: null });
      // deactivate_reason is read-only
      const ro = await t.patch(`/v1/webhooks/${c.body.id}`, { deactivate_reason: 'RETRY_COUNT' }, { token });
      expect(ro.status).toBe(200);
      expect(ro.body.deactivate_reason).toBeNull();
    });

    it('DELETE answers 204, then the webhook is gone (404)', async () => {
      const c = await create({ target_url: 'https://example.com/del' });
      const del = await t.delete(`/v1/webhooks/${c.body.id}`, { token });
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      expect((await t.get(`/v1/webhooks/${c.body.id}`, { token })).status).toBe(404);
      expect((await t.delete(`/v1/webhooks/${c.body.id}`, { token })).status).toBe(404);
    });

    it("an undecodable id or another type's id is a 404", async () => {
      for (const id of ['nope', 'whk_AAAA', 'crs_AAAAAAAAAAAAAAAAAAAAAA', `whk_${'A'.repeat(22)}`]) {
        const r = await t.get(`/v1/webhooks/${id}`, { token });
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ detail: expect.any(String) });
      }
    });
  });

  describe('cross-organization', () => {
    it('another organization never sees, changes, pings or deletes the webhook', async () => {
      const c = await create({ target_url: 'https://example.com/mine', basic_auth_username: 'u', basic_auth_password: 'pw' });
      const id = c.body.id;
      const theirs = { basic: other.api_key };
      const list = await t.get('/v1/webhooks', theirs);
      expect(list.status).toBe(200);
      expect(list.body.results.map((w: any) => w.id)).not.toContain(id);
      expect((await t.get(`/v1/webhooks/${id}`, theirs)).status).toBe(404);
      expect((await t.request('PUT', `/v1/webhooks/${id}`, { ...theirs, body: { target_url: 'https://evil.example/x' } })).status).toBe(404);
      expect((await t.patch(`/v1/webhooks/${id}`, { active: false }, theirs)).status).toBe(404);
      expect((await t.post(`/v1/webhooks/${id}/ping`, undefined, theirs)).status).toBe(404);
      expect((await t.get(`/v1/webhooks/${id}/deliveries`, theirs)).status).toBe(404);
      expect((await t.delete(`/v1/webhooks/${id}`, theirs)).status).toBe(404);
      const otherToken = await t.tokenFor(other);
      expect((await t.get(`/v1/webhooks/${id}`, { token: otherToken })).status).toBe(404);
      const mine = await t.get(`/v1/webhooks/${id}`, { token });
      expect(mine.body).toMatchObject({ target_url: 'https://example.com/mine', active: true });
    });
  });

  describe('sample events', () => {
    const paths: Record<string, string> = {
      'sample-course-completion': 'COURSE_COMPLETION',
      'sample-course-enrollment': 'COURSE_ENROLLMENT',
      'sample-dashboard-task-created': 'DASHBOARD_TASK_CREATED',
      'sample-domain-enrollment': 'DOMAIN_ENROLLMENT',
      'sample-lesson-completion': 'LESSON_COMPLETION',
      'sample-path-completion': 'PATH_COMPLETION',
      'sample-path-enrollment': 'PATH_ENROLLMENT',
      'sample-purchase-fulfillment': 'PURCHASE_FULFILLMENT',
      'sample-quiz-completion': 'QUIZ_COMPLETION',
      'sample-vilt-registration': 'VILT_EVENT_REGISTRATION',
    };

    it('each of the ten answers a one-item list with a generated event of its type when none exists', async () => {
      expect(Object.values(paths).sort()).toEqual([...EVENT_TYPES].sort());
      const fresh = await t.newOrg();
      for (const [path, type] of Object.entries(paths)) {
        for (const auth of [{ basic: fresh.api_key }, { token: await t.tokenFor(fresh, ['webhooks:read']) }]) {
          const res = await t.get(`/v1/webhooks/${path}`, auth);
          expect(res.status).toBe(200);
          expect(res.body.results).toHaveLength(1);
          const e = res.body.results[0];
          expect(e).toMatchObject({ id: expect.any(String), event_type: type, timestamp: expect.any(String), user: expect.objectContaining({ id: expect.any(String), email: expect.any(String) }) });
          expect(Object.keys(e).slice(0, 3)).toEqual(['id', 'event_type', 'timestamp']);
          expect(new Date(e.timestamp).toISOString()).toBe(e.timestamp);
        }
        expect((await t.get(`/v1/webhooks/${path}/`, { basic: fresh.api_key })).status).toBe(200);
      }
      expect((await t.get('/v1/webhooks/sample-course-enrollment')).status).toBe(401);
    });

    it("answers the most recent real event of the type, of the caller's organization only", async () => {
      const objects = (n: number) => ({
        user: { id: `stu_${n}`, email: `u${n}@example.com`, first_name: 'A', last_name: 'B' },
        course: { id: 'crs_x', published_course_id: 'pcs_x', title: `Course ${n}`, url: 'https://d.test/c' },
        domain: { id: 'dom_x', name: 'd.test' },
      });
      await t.ds.transaction((m) => recordEvents(m, [{ organizationId: orgUuid(org), type: 'COURSE_ENROLLMENT', objects: objects(1) }]));
      await new Promise((r) => setTimeout(r, 10));
      const [latest] = await t.ds.transaction((m) => recordEvents(m, [{ organizationId: orgUuid(org), type: 'COURSE_ENROLLMENT', objects: objects(2) }]));
      await new Promise((r) => setTimeout(r, 10));
      await t.ds.transaction((m) => recordEvents(m, [{ organizationId: orgUuid(other), type: 'COURSE_ENROLLMENT', objects: objects(3) }]));
      const [{ payload }] = await t.ds.query(`SELECT payload FROM outbox_events WHERE id = $1`, [latest]);
      const res = await t.get('/v1/webhooks/sample-course-enrollment', { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ results: [payload] });
      expect(res.body.results[0].course.title).toBe('Course 2');
      // another type still gets generated data
      const other2 = await t.get('/v1/webhooks/sample-path-completion', { token });
      expect(other2.body.results[0].event_type).toBe('PATH_COMPLETION');
      expect(other2.text).not.toContain('u2@example.com');
    });
  });
});

import { randomBytes } from 'node:crypto';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, orgUuid } from '../support/fixtures';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { requestFingerprint } from '../../src/core/idempotency/fingerprint';
import { IdempotencyService } from '../../src/core/idempotency/idempotency.service';
import { IdempotencyInterceptor } from '../../src/core/idempotency/idempotency.interceptor';
import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { CleanupService } from '../../src/modules/maintenance/cleanup.service';

/** Idempotency-Key on the writes of /v1 and /v2 (CONVENTIONS §14; docs/decisions/idempotency.md). */
describe('Idempotency-Key', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  const newKey = () => `key-${randomBytes(8).toString('hex')}`;
  const idem = (key: string) => ({ 'Idempotency-Key': key });
  const students = (n: number, tag = randomBytes(4).toString('hex')) => ({
    data: Array.from({ length: n }, (_, i) => ({ type: 'students', attributes: { email: `s${i}-${tag}@example.test`, first_name: 'F', last_name: `L${i}` } })),
  });
  const countStudents = async (tk: string) => (await t.get('/v2/students/?page[size]=100', { token: tk })).body.data.length as number;
  const labelNamed = async (o: CreatedOrg, name: string) =>
    ((await t.get('/v1/labels?page_size=1000', { basic: o.api_key })).body.results as Array<{ id: string; name: string }>).filter((l) => l.name === name);

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  describe('a repeat answers the first status and body without doing the work again', () => {
    it('/v1 create: 201 replayed byte for byte, one label', async () => {
      const key = newKey();
      const name = `Once ${key}`;
      const first = await t.post('/v1/labels', { name }, { basic: org.api_key, headers: idem(key) });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await t.post('/v1/labels', { name }, { basic: org.api_key, headers: idem(key) });
      expect(again.status).toBe(201);
      expect(again.text).toBe(first.text);
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await labelNamed(org, name)).toHaveLength(1);
      // members in another order and other white space are the same body
      const reordered = await t.request('POST', '/v1/labels', { basic: org.api_key, headers: idem(key), raw: { contentType: 'application/json', data: `{ "name" : ${JSON.stringify(name)} }` } });
      expect(reordered.status).toBe(201);
      expect(reordered.text).toBe(first.text);
      // without the key the same body runs again: label names are unique, so that is a 400
      expect((await t.post('/v1/labels', { name }, { basic: org.api_key })).status).toBe(400);
      expect(await labelNamed(org, name)).toHaveLength(1);
    });

    it('/v2 batch create: same status and body, the students are created once', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['students:read', 'students:write']);
      const key = newKey();
      const body = students(3);
      const first = await t.post('/v2/students/', body, { token: tk, headers: idem(key) });
      expect(first.status).toBe(200);
      expect(first.body.summary).toEqual({ total: 3, succeeded: 3, failed: 0 });
      const again = await t.post('/v2/students/', body, { token: tk, headers: idem(key) });
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await countStudents(tk)).toBe(3);
      // the same path with or without the trailing slash is the same key
      expect((await t.post('/v2/students', body, { token: tk, headers: idem(key) })).text).toBe(first.text);
    });

    it('/v1 DELETE: 204 replayed (a second delete without the key is a 404)', async () => {
      const label = (await t.post('/v1/labels', { name: `Doomed ${newKey()}` }, { basic: org.api_key })).body;
      const key = newKey();
      const first = await t.delete(`/v1/labels/${label.id}`, { basic: org.api_key, headers: idem(key) });
      expect(first.status).toBe(204);
      const again = await t.delete(`/v1/labels/${label.id}`, { basic: org.api_key, headers: idem(key) });
      expect(again.status).toBe(204);
      expect(again.text).toBe('');
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await t.delete(`/v1/labels/${label.id}`, { basic: org.api_key })).status).toBe(404);
    });

    it('/v1 PUT: the replay does not write again (a later change survives it)', async () => {
      const label = (await t.post('/v1/labels', { name: `Put ${newKey()}` }, { basic: org.api_key })).body;
      const key = newKey();
      const first = await t.request('PUT', `/v1/labels/${label.id}`, { token, headers: idem(key), body: { name: 'First name' } });
      expect(first.status).toBe(200);
      expect((await t.request('PUT', `/v1/labels/${label.id}`, { token, body: { name: 'Later name' } })).status).toBe(200);
      const again = await t.request('PUT', `/v1/labels/${label.id}`, { token, headers: idem(key), body: { name: 'First name' } });
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await t.get(`/v1/labels/${label.id}`, { token })).body.name).toBe('Later name');
    });

    it('a 4xx first answer replays as the same 4xx, even once the request would succeed', async () => {
      // /v2: a malformed envelope is a 422; the replay carries the first request's meta.request_id
      const key = newKey();
      const bad = await t.post('/v2/students/', { data: 'nope' }, { token, headers: idem(key) });
      expect(bad.status).toBe(400);
      const again = await t.post('/v2/students/', { data: 'nope' }, { token, headers: idem(key) });
      expect(again.status).toBe(400);
      expect(again.text).toBe(bad.text); // same meta.request_id: not run again
      expect(again.headers.get('idempotent-replayed')).toBe('true');

      // /v1: a delete of another organization's label is a 404, replayed as such
      const label = (await t.post('/v1/labels', { name: `Late ${newKey()}` }, { basic: org.api_key })).body;
      const k2 = newKey();
      const gone = await t.delete(`/v1/labels/${label.id}`, { basic: other.api_key, headers: idem(k2) });
      expect(gone.status).toBe(404);
      const replay = await t.delete(`/v1/labels/${label.id}`, { basic: other.api_key, headers: idem(k2) });
      expect(replay.status).toBe(404);
      expect(replay.body).toEqual({ detail: expect.any(String) });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    });

    it('a 5xx releases the key: the retry runs again', async () => {
      await t.ownerQuery(`CREATE FUNCTION idem_boom() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.name LIKE 'boom%' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$`);
      await t.ownerQuery(`CREATE TRIGGER idem_boom BEFORE INSERT ON labels FOR EACH ROW EXECUTE FUNCTION idem_boom()`);
      const key = newKey();
      const name = `boom ${key}`;
      try {
        const failed = await t.post('/v1/labels', { name }, { basic: org.api_key, headers: idem(key) });
        expect(failed.status).toBe(500);
      } finally {
        await t.ownerQuery(`DROP TRIGGER idem_boom ON labels`);
        await t.ownerQuery(`DROP FUNCTION idem_boom()`);
      }
      const retried = await t.post('/v1/labels', { name }, { basic: org.api_key, headers: idem(key) });
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      expect(await labelNamed(org, name)).toHaveLength(1);
    });
  });

  describe('the same key with another body is a 422 and changes nothing', () => {
    it('/v1: 422 {"detail"}', async () => {
      const key = newKey();
      const name = `First ${key}`;
      expect((await t.post('/v1/labels', { name }, { basic: org.api_key, headers: idem(key) })).status).toBe(201);
      const res = await t.post('/v1/labels', { name: `Second ${key}` }, { basic: org.api_key, headers: idem(key) });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ detail: expect.stringContaining('Idempotency-Key') });
      expect(await labelNamed(org, `Second ${key}`)).toHaveLength(0);
      // another query string is another request too
      const q = await t.post('/v1/labels?x=1', { name }, { basic: org.api_key, headers: idem(key) });
      expect(q.status).toBe(422);
    });

    it('/v2: 422 validation_error naming the header', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['students:read', 'students:write']);
      const key = newKey();
      expect((await t.post('/v2/students/', students(1), { token: tk, headers: idem(key) })).status).toBe(200);
      const res = await t.post('/v2/students/', students(2), { token: tk, headers: idem(key) });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
      expect(res.body.errors[0]).toMatchObject({ status: '422', code: 'validation_error', source: { header: 'Idempotency-Key' } });
      expect(await countStudents(tk)).toBe(1);
    });
  });

  describe('keys are per organization, caller and operation', () => {
    it('another organization, another client and the API key each have their own keys', async () => {
      const key = newKey();
      const tag = randomBytes(4).toString('hex');
      const body = { data: [{ type: 'students', attributes: { email: `same-${tag}@example.test` } }] };
      const mine = await t.post('/v2/students/', body, { token, headers: idem(key) });
      expect(mine.status).toBe(200);

      const theirs = await t.post('/v2/students/', body, { token: await t.tokenFor(other), headers: idem(key) });
      expect(theirs.status).toBe(200);
      expect(theirs.headers.get('idempotent-replayed')).toBeNull();
      expect(theirs.body.data[0].id).not.toBe(mine.body.data[0].id);

      const client = await t.post('/v2/clients/', { name: 'second', scope_codenames: ['students:read', 'students:write'] }, { token });
      expect(client.status).toBe(201);
      const tokenRes = await t.post('/v2/auth/token', { client_id: client.body.data.attributes.client_id, client_secret: client.body.data.attributes.client_secret });
      const secondToken = tokenRes.body.access_token;
      // same organization, same email: the second client's request really runs (and fails its item as a duplicate)
      const second = await t.post('/v2/students/', body, { token: secondToken, headers: idem(key) });
      expect(second.headers.get('idempotent-replayed')).toBeNull();
      expect(second.status).toBe(207);

      // /v1 through the API key and through a token of the organization are two callers as well:
      // the token's request runs (and meets the label the API key's request made: names are unique)
      const name = `Caller ${key}`;
      const byKey = await t.post('/v1/labels', { name }, { basic: org.api_key, headers: idem(key) });
      expect(byKey.status).toBe(201);
      const byToken = await t.post('/v1/labels', { name }, { token, headers: idem(key) });
      expect(byToken.status).toBe(400);
      expect(byToken.headers.get('idempotent-replayed')).toBeNull();
    });

    it('the same key on another path or method is another key', async () => {
      const key = newKey();
      const created = await t.post('/v1/labels', { name: `Path ${key}` }, { basic: org.api_key, headers: idem(key) });
      expect(created.status).toBe(201);
      const tag = await t.post('/v1/tags', { name: `Path ${key}` }, { basic: org.api_key, headers: idem(key) });
      expect(tag.status).toBe(201);
      expect(tag.headers.get('idempotent-replayed')).toBeNull();
    });
  });

  describe('answers holding a secret are stored encrypted, never in plain text', () => {
    const stored = async (o: CreatedOrg) =>
      (await t.ds.query(`SELECT sealed, body FROM idempotency_keys WHERE organization_id = $1 AND body IS NOT NULL`, [orgUuid(o)])) as Array<{ sealed: boolean; body: Buffer }>;

    it('a client create: the row does not hold the secret; the replay gives the same working secret', async () => {
      const o = await t.newOrg();
      const admin = await t.tokenFor(o);
      const key = newKey();
      const first = await t.post('/v2/clients/', { name: 'Replayed', scope_preset: 'read-only' }, { token: admin, headers: idem(key) });
      expect(first.status).toBe(201);
      const secret: string = first.body.data.attributes.client_secret;
      expect(secret).toBeTruthy();
      const rows = await stored(o);
      expect(rows).toHaveLength(1);
      expect(rows[0].sealed).toBe(true);
      expect(rows[0].body.includes(Buffer.from(secret))).toBe(false);
      expect(rows[0].body.includes(Buffer.from('Replayed'))).toBe(false);
      const again = await t.post('/v2/clients/', { name: 'Replayed', scope_preset: 'read-only' }, { token: admin, headers: idem(key) });
      expect(again.status).toBe(201);
      expect(again.text).toBe(first.text);
      const tok = await t.post('/v2/auth/token', { client_id: first.body.data.attributes.client_id, client_secret: secret });
      expect(tok.status).toBe(200);
    });

    it('a webhook create and an invite are sealed too; an answer without a secret is stored as sent', async () => {
      const o = await t.newOrg();
      const hook = await t.post('/v1/webhooks', { target_url: 'https://hooks.example.test/in', events: ['COURSE_ENROLLMENT'] }, { basic: o.api_key, headers: idem(newKey()) });
      expect(hook.status).toBe(201);
      const label = await t.post('/v1/labels', { name: `plain-${newKey()}` }, { basic: o.api_key, headers: idem(newKey()) });
      expect(label.status).toBe(201);
      const rows = await stored(o);
      expect(rows.filter((r) => r.sealed)).toHaveLength(1);
      expect(rows.find((r) => r.sealed)!.body.includes(Buffer.from(String(hook.body.secret)))).toBe(false);
      expect(rows.find((r) => !r.sealed)!.body.toString()).toBe(label.text);
    });

    it('anonymization forgets a sealed answer that shows the person, and keeps the others', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o);
      const email = `sealed-${randomBytes(4).toString('hex')}@example.test`;
      const member = await t.post(`/v1/domains/${o.domain_name}/users`, { user: { email } }, { basic: o.api_key });
      expect(member.status).toBe(201);
      const uid: string = member.body.user.id;
      // a client described with the person's email: its answer holds a secret (sealed) and shows the person
      const mentionKey = newKey();
      const mention = { name: 'Personal export', description: `export for ${email}`, scope_preset: 'read-only' };
      expect((await t.post('/v2/clients/', mention, { token: tk, headers: idem(mentionKey) })).status).toBe(201);
      expect((await t.post('/v2/clients/', { name: 'Unrelated', scope_preset: 'read-only' }, { token: tk, headers: idem(newKey()) })).status).toBe(201);
      expect((await stored(o)).filter((r) => r.sealed)).toHaveLength(2);
      const anon = await t.post(`/v2/students/${uid}/anonymize`, undefined, { token: tk, headers: { 'X-Confirm-Destructive': 'true' } });
      expect(anon.status).toBe(204);
      // the answer showing the person is gone (a retry runs again); the unrelated one stays
      expect((await stored(o)).filter((r) => r.sealed)).toHaveLength(1);
      const retry = await t.post('/v2/clients/', mention, { token: tk, headers: idem(mentionKey) });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
    });
  });

  it('a repeat while the first is in flight is a 409 (v1 {"detail"}, v2 conflict)', async () => {
    const key = newKey();
    const body = { name: `Flight ${key}` };
    // the first request has claimed the key and not answered yet
    await t.app
      .get(IdempotencyService)
      .claim({ organizationId: orgUuid(org), clientId: null, subject: 'api-key', scopes: new Set(), kind: 'api_key' }, 'POST', '/v1/labels', key, requestFingerprint('', body));
    const res = await t.post('/v1/labels', body, { basic: org.api_key, headers: idem(key) });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: expect.any(String) });
    expect(await labelNamed(org, body.name)).toHaveLength(0);
  });

  it('a claim abandoned for 5 minutes (the process died mid-request) is taken over', async () => {
    const org = await t.newOrg();
    const key = `abandoned-${randomBytes(6).toString('hex')}`;
    const body = { name: `Abandoned ${key}` };
    await t.app
      .get(IdempotencyService)
      .claim({ organizationId: orgUuid(org), clientId: null, subject: 'api-key', scopes: new Set(), kind: 'api_key' }, 'POST', '/v1/labels', key, requestFingerprint('', body));
    expect((await t.post('/v1/labels', body, { basic: org.api_key, headers: { 'Idempotency-Key': key } })).status).toBe(409);
    // time passes (the only way to move the claim's clock back)
    await t.ds.query(`UPDATE idempotency_keys SET created_at = created_at - interval '301 seconds' WHERE organization_id = $1`, [orgUuid(org)]);
    const res = await t.post('/v1/labels', body, { basic: org.api_key, headers: { 'Idempotency-Key': key } });
    expect(res.status).toBe(201);
  });

  it('parallel requests with one key: exactly one does the work, the others get 409 or its answer', async () => {
    const o = await t.newOrg();
    const tk = await t.tokenFor(o, ['students:read', 'students:write']);
    await t.get('/v2/students/', { token: tk }); // token verified and cached before the race
    const key = newKey();
    const body = students(3);
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.post('/v2/students/', body, { token: tk, headers: idem(key) })));
    const worked = answers.filter((a) => a.status === 200 && a.headers.get('idempotent-replayed') === null);
    expect(worked).toHaveLength(1);
    for (const a of answers) {
      if (a === worked[0]) continue;
      if (a.status === 409) expect(a.body.errors[0].code).toBe('conflict');
      else {
        expect(a.status).toBe(200);
        expect(a.headers.get('idempotent-replayed')).toBe('true');
        expect(a.text).toBe(worked[0].text);
      }
    }
    expect(await countStudents(tk)).toBe(3);
  });

  describe('bad keys', () => {
    it('over 255 characters or empty: 422 validation_error on /v2, 400 {"detail"} on /v1, nothing written', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['students:read', 'students:write']);
      for (const key of ['k'.repeat(256), '']) {
        const v2 = await t.post('/v2/students/', students(1), { token: tk, headers: idem(key) });
        expect(v2.status).toBe(422);
        expect(v2.body.errors[0]).toMatchObject({ code: 'validation_error', source: { header: 'Idempotency-Key' } });
        const name = `Bad key ${key.length}`;
        const v1 = await t.post('/v1/labels', { name }, { basic: o.api_key, headers: idem(key) });
        expect(v1.status).toBe(400);
        expect(v1.body).toEqual({ detail: expect.stringContaining('Idempotency-Key') });
        expect(await labelNamed(o, name)).toHaveLength(0);
      }
      expect(await countStudents(tk)).toBe(0);
      const longest = await t.post('/v2/students/', students(1), { token: tk, headers: idem('k'.repeat(255)) });
      expect(longest.status).toBe(200);
    });
  });

  it('is on every authenticated write handler of every controller, and on no read', () => {
    const writes = new Set([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE]);
    let checked = 0;
    for (const mod of t.app.get(ModulesContainer).values()) {
      for (const wrapper of mod.controllers.values()) {
        const proto = (wrapper.metatype as any)?.prototype;
        if (!proto) continue;
        for (const name of Object.getOwnPropertyNames(proto)) {
          const handler = name === 'constructor' ? undefined : proto[name];
          const method = typeof handler === 'function' ? Reflect.getMetadata(METHOD_METADATA, handler) : undefined;
          if (method === undefined || method === RequestMethod.ALL) continue;
          const has = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []).includes(IdempotencyInterceptor);
          // public writes (OAuth endpoints) never have a principal, so the interceptor is left off them (core/idempotency/wire.ts)
          const isPublic = Reflect.getMetadata('auth:public', handler) === true || Reflect.getMetadata('auth:public', wrapper.metatype as object) === true;
          expect({ handler: `${(wrapper.metatype as any).name}.${name}`, has }).toEqual({ handler: `${(wrapper.metatype as any).name}.${name}`, has: writes.has(method) && !isPublic });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  describe('what the header does not apply to', () => {
    it('the OAuth token endpoint ignores it (each request issues a new token)', async () => {
      const key = newKey();
      const a = await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret }, { headers: idem(key) });
      const b = await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret }, { headers: idem(key) });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.headers.get('idempotent-replayed')).toBeNull();
      expect(b.body.access_token).not.toBe(a.body.access_token);
    });

    it('reads ignore it, even a bad one', async () => {
      const res = await t.get('/v2/students/', { token, headers: idem('') });
      expect(res.status).toBe(200);
    });
  });

  describe('statements', () => {
    it('without the header a write sends no extra statement; with it, the claim and the store; a replay only the claim', async () => {
      const o = await t.newOrg();
      const tk = await t.tokenFor(o, ['students:read', 'students:write']);
      await t.get('/v2/students/', { token: tk }); // token cached
      const plain = await countQueries(() => t.post('/v2/students/', students(3), { token: tk }));
      expect(plain.result.status).toBe(200);
      expect(plain.statements.some((s) => s.includes('idempotency_keys'))).toBe(false);

      const key = newKey();
      const body = students(3);
      const keyed = await countQueries(() => t.post('/v2/students/', body, { token: tk, headers: idem(key) }));
      expect(keyed.result.status).toBe(200);
      expect(keyed.count).toBe(plain.count + 2);
      expect(keyed.statements.filter((s) => s.includes('idempotency_keys'))).toHaveLength(2);

      const replay = await countQueries(() => t.post('/v2/students/', body, { token: tk, headers: idem(key) }));
      expect(replay.result.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.count).toBe(1);
    });
  });
});

describe('Idempotency-Key expiry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ IDEMPOTENCY_KEY_TTL_SECONDS: 1 });
  });
  afterAll(() => t.close());

  it('after IDEMPOTENCY_KEY_TTL_SECONDS the key is new again, and the clean-up deletes expired keys', async () => {
    const org = await t.newOrg();
    const key = `exp-${randomBytes(6).toString('hex')}`;
    const name = `Expiring ${key}`;
    const first = await t.post('/v1/labels', { name }, { basic: org.api_key, headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    expect((await t.post('/v1/labels', { name }, { basic: org.api_key, headers: { 'Idempotency-Key': key } })).headers.get('idempotent-replayed')).toBe('true');
    await new Promise((r) => setTimeout(r, 1100));
    // the same request runs again (a 400: label names are unique), and the key takes another body
    const later = await t.post('/v1/labels', { name }, { basic: org.api_key, headers: { 'Idempotency-Key': key } });
    expect(later.status).toBe(400);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    await new Promise((r) => setTimeout(r, 1100));
    const reused = await t.post('/v1/labels', { name: `${name} again` }, { basic: org.api_key, headers: { 'Idempotency-Key': key } });
    expect(reused.status).toBe(201);

    // a second key left to expire, then the maintenance clean-up
    expect((await t.post('/v1/labels', { name: `${name} 2` }, { basic: org.api_key, headers: { 'Idempotency-Key': `${key}-2` } })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 1100));
    const cleanup = new CleanupService(t.ds, t.config);
    const result = await cleanup.run({ batchSize: 1 });
    expect(result.idempotencyKeys).toBe(2);
    expect((await cleanup.run()).idempotencyKeys).toBe(0);
  });
});

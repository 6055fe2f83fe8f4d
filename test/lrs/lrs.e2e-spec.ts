import { createHash } from 'node:crypto';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';

jest.setTimeout(60_000);

/**
 * The LRS at /xapi/ through HTTP (CONVENTIONS §18; ADL's conformance suite is run by hand against
 * a local server, docs/lrs-conformance.md): keys, statements with filters, paging, voiding and
 * references, attachments, documents with ETags, versions, and organizations kept apart.
 */
describe('the LRS (/xapi/)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function lrsKey(org: Awaited<ReturnType<TestApp['newOrg']>>, body: Record<string, unknown> = {}) {
    const res = await t.post('/v1/lrs-keys', body, { basic: org.api_key });
    expect(res.status).toBe(201);
    return `Basic ${Buffer.from(`${res.body.key}:${res.body.secret}`).toString('base64')}`;
  }
  const x = (auth: string, version = '1.0.3', extra: Record<string, string> = {}) => ({ headers: { Authorization: auth, 'X-Experience-API-Version': version, ...extra } });
  const agent = (n: string) => ({ objectType: 'Agent', mbox: `mailto:${n}@example.test`, name: n });
  const verb = (v: string) => ({ id: `http://adlnet.gov/expapi/verbs/${v}`, display: { 'en-US': v } });
  const act = (id: string) => ({ objectType: 'Activity', id: `http://example.test/act/${id}`, definition: { name: { 'en-US': id, 'fr-FR': `fr-${id}` } } });

  it('keys, statements, filters, more, voiding, versions and organizations apart', async () => {
    const org = await t.newOrg();
    const auth = await lrsKey(org);
    const readOnly = await lrsKey(org, { write: false });
    expect((await t.post('/v1/lrs-keys', {}, { token: await t.tokenFor(org, ['students:read']) })).status).toBe(403);

    expect((await t.get('/xapi/about')).body.version).toContain('2.0.0');
    expect((await t.get('/xapi/statements', { headers: { 'X-Experience-API-Version': '1.0.3' } })).status).toBe(401);
    expect((await t.get('/xapi/statements', { headers: { Authorization: 'Basic bm9wZTpub3Bl', 'X-Experience-API-Version': '1.0.3' } })).status).toBe(401);
    expect((await t.get('/xapi/statements', { headers: { Authorization: auth } })).status).toBe(400);
    expect((await t.get('/xapi/statements', { headers: { Authorization: auth, 'X-Experience-API-Version': '3.0' } })).status).toBe(400);

    const s1 = { actor: agent('ada'), verb: verb('completed'), object: act('a1'), context: { registration: '0b0ad6a6-3a5c-4a36-9b8b-6d6b1f0a0a01', contextActivities: { parent: act('course') } } };
    const posted = await t.post('/xapi/statements', [s1, { actor: agent('bob'), verb: verb('attempted'), object: act('a2') }], x(auth));
    expect(posted.status).toBe(200);
    expect(posted.body).toHaveLength(2);
    expect(posted.headers.get('x-experience-api-version')).toBe('1.0.3');
    expect((await t.post('/xapi/statements', [s1], x(readOnly))).status).toBe(403);

    // bad statements change nothing
    for (const bad of [
      { ...s1, actor: { mbox: 'ada@example.test' } },
      { ...s1, actor: { mbox: 'mailto:a@b.c', openid: 'http://x.test/a' } },
      { ...s1, verb: { id: 'completed' } },
      { ...s1, result: { score: { scaled: 2 } } },
      { ...s1, timestamp: '2026-01-01T00:00:00' },
      { ...s1, extra: 1 },
    ]) {
      const res = await t.post('/xapi/statements', [bad], x(auth));
      expect(res.status).toBe(400);
    }
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM lrs_statements`);
    expect(n).toBe(2);

    // the same statement again is no change; a different one with the id is 409
    const id = posted.body[0];
    expect((await t.request('PUT', `/xapi/statements?statementId=${id}`, { ...x(auth), body: s1 })).status).toBe(204);
    expect((await t.request('PUT', `/xapi/statements?statementId=${id}`, { ...x(auth), body: { ...s1, verb: verb('passed') } })).status).toBe(409);

    const one = await t.get(`/xapi/statements?statementId=${id}`, x(auth));
    expect(one.body).toMatchObject({ id, actor: s1.actor, stored: expect.any(String), authority: { objectType: 'Agent' }, version: '1.0.0' });
    expect(one.body.context.contextActivities.parent).toEqual([s1.context.contextActivities.parent]);
    expect(one.headers.get('x-experience-api-consistent-through')).toBeTruthy();

    const by = async (q: string) => (await t.get(`/xapi/statements?${q}`, x(auth))).body.statements.map((s: any) => s.id);
    expect(await by(`agent=${encodeURIComponent(JSON.stringify(agent('ada')))}`)).toEqual([id]);
    expect(await by(`verb=${encodeURIComponent('http://adlnet.gov/expapi/verbs/attempted')}`)).toEqual([posted.body[1]]);
    expect(await by(`activity=${encodeURIComponent('http://example.test/act/course')}`)).toEqual([]);
    expect(await by(`activity=${encodeURIComponent('http://example.test/act/course')}&related_activities=true`)).toEqual([id]);
    expect(await by(`registration=0b0ad6a6-3a5c-4a36-9b8b-6d6b1f0a0a01`)).toEqual([id]);
    expect(await by('ascending=true')).toEqual(posted.body);
    expect((await t.get('/xapi/statements?bogus=1', x(auth))).status).toBe(400);
    expect((await t.get(`/xapi/statements?statementId=${id}&verb=x`, x(auth))).status).toBe(400);
    const ids = await t.get(`/xapi/statements?statementId=${id}&format=ids`, x(auth));
    expect(ids.body.actor).toEqual({ mbox: 'mailto:ada@example.test' });
    const canonical = await t.get(`/xapi/statements?statementId=${id}&format=canonical`, x(auth, '1.0.3', { 'Accept-Language': 'fr-FR' }));
    expect(canonical.body.object.definition.name).toEqual({ 'fr-FR': 'fr-a1' });

    // paging by `more`
    const page1 = await t.get('/xapi/statements?limit=1', x(auth));
    expect(page1.body.statements).toHaveLength(1);
    expect(page1.body.more).toMatch(/^\/xapi\/statements\?more=/);
    const page2 = await t.get(page1.body.more, x(auth));
    expect(page2.body.statements.map((s: any) => s.id)).toEqual([posted.body[0]]);
    expect(page2.body.more).toBe('');
    expect((await t.get('/xapi/statements?more=tampered', x(auth))).status).toBe(400);

    // voiding: the voided statement leaves queries, is read by voidedStatementId only; the voiding one cannot be voided
    const voiding = await t.post('/xapi/statements', { actor: agent('ada'), verb: { id: 'http://adlnet.gov/expapi/verbs/voided' }, object: { objectType: 'StatementRef', id } }, x(auth, '2.0.0'));
    expect(voiding.status).toBe(200);
    expect((await t.get(`/xapi/statements?statementId=${id}`, x(auth))).status).toBe(404);
    expect((await t.get(`/xapi/statements?voidedStatementId=${id}`, x(auth))).body.id).toBe(id);
    expect(await by(`verb=${encodeURIComponent('http://adlnet.gov/expapi/verbs/completed')}`)).toEqual([voiding.body[0]]);
    expect(
      (await t.post('/xapi/statements', { actor: agent('ada'), verb: { id: 'http://adlnet.gov/expapi/verbs/voided' }, object: { objectType: 'StatementRef', id: voiding.body[0] } }, x(auth))).status,
    ).toBe(400);

    // another organization's key sees none of it
    const other = await t.newOrg();
    const otherAuth = await lrsKey(other);
    expect((await t.get('/xapi/statements', x(otherAuth))).body.statements).toEqual([]);
    expect((await t.get(`/xapi/statements?voidedStatementId=${id}`, x(otherAuth))).status).toBe(404);
  });

  it('versions by endpoint: /xapi/ speaks 1.0.x and 2.0.x (2.0.0 when none is named), /xapi/1.0.3/ is a 1.0.3 LRS over the same statements', async () => {
    const org = await t.newOrg();
    const auth = await lrsKey(org);
    const statement = { actor: agent('vera'), verb: verb('attended'), object: act('versions') };
    const version = (res: { headers: Headers }) => res.headers.get('x-experience-api-version');

    // no version named: 400 on both, answered in each endpoint's own version (ADL's 1.0.3 and 2.0 batteries each ask this of their endpoint)
    for (const [path, answered] of [
      ['/xapi', '2.0.0'],
      ['/xapi/1.0.3', '1.0.3'],
    ]) {
      const get = await t.get(`${path}/statements`, { headers: { Authorization: auth } });
      const post = await t.post(`${path}/statements`, statement, { headers: { Authorization: auth } });
      const put = await t.request('PUT', `${path}/statements?statementId=8a4c7bb5-2c2e-4c53-a25b-0c9a1d1b7f11`, { headers: { Authorization: auth }, body: statement });
      for (const res of [get, post, put]) {
        expect(res.status).toBe(400);
        expect(version(res)).toBe(answered);
      }
    }

    // the 1.0.3 endpoint refuses 2.0.x (1.0.3 refuses every version from 1.1.0 on) and stores nothing; /xapi/ takes it
    const refused = await t.post('/xapi/1.0.3/statements', statement, x(auth, '2.0.0'));
    expect(refused.status).toBe(400);
    expect(version(refused)).toBe('1.0.3');
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM lrs_statements WHERE organization_id = $1`, [orgUuid(org)]))[0].n).toBe(0);
    const two = await t.post('/xapi/statements', statement, x(auth, '2.0.0'));
    expect(two.status).toBe(200);
    expect(version(two)).toBe('2.0.0');

    // 1.0.x on the 1.0.3 endpoint: the same LRS (the statement /xapi/ stored), answered 1.0.3, paged under its own path
    const one = await t.post('/xapi/1.0.3/statements', { ...statement, verb: verb('attempted') }, x(auth, '1.0.1'));
    expect(one.status).toBe(200);
    expect(version(one)).toBe('1.0.3');
    const read = await t.get(`/xapi/1.0.3/statements?statementId=${two.body[0]}`, x(auth, '1.0.3'));
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(two.body[0]);
    const page = await t.get('/xapi/1.0.3/statements?limit=1', x(auth, '1.0'));
    expect(page.body.statements.map((s: any) => s.id)).toEqual(one.body);
    expect(page.body.more).toMatch(/^\/xapi\/1\.0\.3\/statements\?more=/);
    expect((await t.get(page.body.more, x(auth))).body.statements.map((s: any) => s.id)).toEqual(two.body);
    expect((await t.get('/xapi/statements?limit=1', x(auth, '2.0.0'))).body.more).toMatch(/^\/xapi\/statements\?more=/);

    // about: each endpoint lists its own versions, with no version header
    const about = await t.get('/xapi/1.0.3/about');
    expect(about.status).toBe(200);
    expect(about.body.version).toEqual(['1.0.0', '1.0.1', '1.0.2', '1.0.3']);
    expect(version(about)).toBe('1.0.3');
    expect((await t.get('/xapi/about')).body.version).toEqual(['1.0.0', '1.0.1', '1.0.2', '1.0.3', '2.0.0']);
  });

  it('attachments in multipart/mixed, checked against their hash, answered with attachments=true', async () => {
    const org = await t.newOrg();
    const auth = await lrsKey(org);
    const content = Buffer.from('hello attachment');
    const sha2 = createHash('sha256').update(content).digest('hex');
    const statement = {
      actor: agent('ada'),
      verb: verb('completed'),
      object: act('att'),
      attachments: [{ usageType: 'http://example.test/usage', display: { 'en-US': 'a' }, contentType: 'text/plain', length: content.length, sha2 }],
    };
    const body = (hash: string) =>
      Buffer.concat([
        Buffer.from(
          `--b1\r\nContent-Type: application/json\r\n\r\n${JSON.stringify(statement)}\r\n--b1\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${hash}\r\n\r\n`,
        ),
        content,
        Buffer.from('\r\n--b1--'),
      ]);
    const wrong = await t.request('POST', '/xapi/statements', { ...x(auth), raw: { contentType: 'multipart/mixed; boundary=b1', data: body('0'.repeat(64)) } });
    expect(wrong.status).toBe(400);
    const missing = await t.post('/xapi/statements', statement, x(auth));
    expect(missing.status).toBe(400);
    const ok = await t.request('POST', '/xapi/statements', { ...x(auth), raw: { contentType: 'multipart/mixed; boundary=b1', data: body(sha2) } });
    expect(ok.status).toBe(200);
    const back = await fetch(`${t.baseUrl}/xapi/statements?statementId=${ok.body[0]}&attachments=true`, { headers: { Authorization: auth, 'X-Experience-API-Version': '1.0.3' } });
    expect(back.headers.get('content-type')).toMatch(/^multipart\/mixed; boundary=/);
    const text = Buffer.from(await back.arrayBuffer()).toString();
    expect(text).toContain(`X-Experience-API-Hash: ${sha2}`);
    expect(text).toContain('hello attachment');
  });

  it('documents: state, activity and agent profiles with ETags, merge, lists and deletes', async () => {
    const org = await t.newOrg();
    const auth = await lrsKey(org);
    const a = encodeURIComponent(JSON.stringify(agent('ada')));
    const activity = encodeURIComponent('http://example.test/act/doc');
    const state = `/xapi/activities/state?activityId=${activity}&agent=${a}&stateId=bookmark`;
    expect((await t.request('PUT', state, { ...x(auth), body: { page: 1 } })).status).toBe(204);
    expect((await t.post(state, { score: 3 }, x(auth))).status).toBe(204);
    const got = await t.get(state, x(auth));
    expect(got.body).toEqual({ page: 1, score: 3 });
    const etag = got.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect((await t.request('PUT', state, { ...x(auth, '1.0.3', { 'If-Match': '"nope"' }), body: { page: 9 } })).status).toBe(412);
    expect((await t.request('PUT', state, { ...x(auth, '1.0.3', { 'If-Match': etag }), body: { page: 2 } })).status).toBe(204);
    expect((await t.request('PUT', state, { ...x(auth, '2.0.0'), body: { page: 3 } })).status).toBe(409);
    expect((await t.get(`/xapi/activities/state?activityId=${activity}&agent=${a}`, x(auth))).body).toEqual(['bookmark']);
    expect((await t.get(`/xapi/activities/state?activityId=${activity}&agent=%7B%7D`, x(auth))).status).toBe(400);

    const profile = `/xapi/activities/profile?activityId=${activity}&profileId=p1`;
    expect((await t.request('PUT', profile, { ...x(auth), raw: { contentType: 'text/plain', data: 'plain text' } })).status).toBe(400);
    expect((await t.request('PUT', profile, { ...x(auth, '1.0.3', { 'If-None-Match': '*' }), raw: { contentType: 'text/plain', data: 'plain text' } })).status).toBe(204);
    const text = await t.get(profile, x(auth));
    expect(text.text).toBe('plain text');
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await t.post(profile, { a: 1 }, x(auth))).status).toBe(400); // a text document does not merge
    const agentProfile = `/xapi/agents/profile?agent=${a}&profileId=prefs`;
    expect((await t.request('PUT', agentProfile, { ...x(auth, '1.0.3', { 'If-None-Match': '*' }), body: { lang: 'en' } })).status).toBe(204);
    expect((await t.request('DELETE', agentProfile, x(auth))).status).toBe(204);
    expect((await t.get(agentProfile, x(auth))).status).toBe(404);
    expect((await t.get(`/xapi/agents?agent=${a}`, x(auth))).body).toEqual({ objectType: 'Person', name: ['ada'], mbox: ['mailto:ada@example.test'] });

    const other = await lrsKey(await t.newOrg());
    expect((await t.get(state, x(other))).status).toBe(404);
  });

  it("agents and activities with quotes, backslashes, commas and braces are stored and found, with the LRS's ids and with their own", async () => {
    const org = await t.newOrg();
    const auth = await lrsKey(org);
    const odd = { objectType: 'Agent', account: { homePage: 'http://example.test', name: 'a"b\\c,{d} e' } };
    const oddActivity = { objectType: 'Activity', id: 'http://example.test/act/"x",{y}\\z' };
    const fresh = await t.post('/xapi/statements', [{ actor: odd, verb: verb('experienced'), object: oddActivity }], x(auth));
    expect(fresh.status).toBe(200);
    const ownId = 'b1c2d3e4-0000-4000-8000-00000000abcd';
    const own = await t.post('/xapi/statements', [{ id: ownId, actor: odd, verb: verb('attempted'), object: act('plain') }], x(auth));
    expect(own.status).toBe(200);
    expect(own.body).toEqual([ownId]);
    const found = await t.get(`/xapi/statements?agent=${encodeURIComponent(JSON.stringify(odd))}&ascending=true`, x(auth));
    expect(found.body.statements.map((s: any) => s.id)).toEqual([fresh.body[0], ownId]);
    const byActivity = await t.get(`/xapi/statements?activity=${encodeURIComponent(oddActivity.id)}`, x(auth));
    expect(byActivity.body.statements.map((s: any) => s.id)).toEqual([fresh.body[0]]);
    const [row] = await t.ds.query(`SELECT agents, related_activities FROM lrs_statements WHERE id = $1`, [fresh.body[0]]);
    expect(row.agents).toEqual(['account::http://example.test|a"b\\c,{d} e']);
    expect(row.related_activities).toEqual([oddActivity.id]);
    // the same batch again (own ids): no change; with a different statement: 409, nothing stored
    expect((await t.post('/xapi/statements', [{ id: ownId, actor: odd, verb: verb('attempted'), object: act('plain') }], x(auth))).status).toBe(200);
    expect((await t.post('/xapi/statements', [{ id: ownId, actor: odd, verb: verb('passed'), object: act('plain') }], x(auth))).status).toBe(409);
  });
});

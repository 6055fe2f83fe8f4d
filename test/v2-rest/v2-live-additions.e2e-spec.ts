import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/**
 * The live /v2 additions of CONVENTIONS §17 (issue 29 point 5): /v2/assets (+{id}),
 * /v2/students/{id}/relationships/domain-memberships/ (+{domain_id}), and ASSET content items
 * answered with their asset_id on /v2.
 */
const rnd = () => newUuid().slice(0, 8);
const M = (student: string) => `/v2/students/${student}/relationships/domain-memberships/`;

describe('live /v2 additions', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    const scopes = [
      'students:read',
      'students:write',
      'domains:read',
      'courses:read',
      'courses:write',
      'published-courses:read',
      'published-courses:write',
      'enrollments:read',
      'enrollments:write',
      'assets:read',
      'assets:write',
      'lessons:read',
    ];
    token = await t.tokenFor(org, scopes);
    otherToken = await t.tokenFor(other, scopes);
  });
  afterAll(() => t?.close());

  it('a /v2-only integration creates a student, puts it on a domain and enrolls it (no /v1 call)', async () => {
    const email = `v2only-${rnd()}@example.test`;
    const student = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email, first_name: 'Vee', last_name: 'Two' } }] }, { token });
    expect(student.status).toBe(200);
    const sid = student.body.data[0].id;
    const domainId = (await t.get('/v2/domains/', { token })).body.data[0].id;
    const course = (await t.post('/v2/courses/', { data: [{ type: 'courses', attributes: { title: `Course ${rnd()}` } }] }, { token })).body.data[0].id;
    const pub = await t.post(
      '/v2/published-courses/',
      {
        data: [{ type: 'published-courses', relationships: { course: { data: { type: 'courses', id: course } }, domain: { data: { type: 'domains', id: domainId } } } }],
      },
      { token },
    );
    expect(pub.status).toBe(200);
    const pcId = pub.body.data[0].id;
    const enrollBody = { published_course_id: pcId, data: [{ type: 'enrollments', attributes: { email } }] };

    // not on the domain yet: the enrollment is refused per item
    const before = await t.post('/v2/enrollments/', enrollBody, { token });
    expect(before.status).toBe(207);
    expect(before.body.data[0].error.code).toBe('not_in_domain');
    expect((await t.get(M(sid), { token })).body.data).toEqual([]);

    const joined = await t.post(M(sid), { data: [{ type: 'domains', id: domainId }] }, { token });
    expect(joined.status).toBe(200);
    expect(joined.body.summary).toEqual(expect.objectContaining({ succeeded: 1, failed: 0 }));
    const m = joined.body.data[0].result;
    expect(m).toEqual({
      type: 'domain-memberships',
      id: expect.stringMatching(/^dmb/),
      attributes: { domain_id: domainId, domain_name: org.domain_name, active: true, enrolled_at: expect.any(String), expires_at: null, created_at: expect.any(String) },
      relationships: { student: { data: { type: 'students', id: sid } }, domain: { data: { type: 'domains', id: domainId } } },
      links: { self: expect.stringMatching(new RegExp(`/v2/students/${sid}/relationships/domain-memberships/${domainId}$`)) },
    });
    // the same row as a /v1 domain user, with DOMAIN_ENROLLMENT in the outbox
    const [row] = await t.ds.query(`SELECT count(*)::int AS n FROM domain_users WHERE user_id = (SELECT id FROM users WHERE lower(email) = lower($1))`, [email]);
    expect(row.n).toBe(1);
    const [ev] = await t.ownerQuery(`SELECT count(*)::int AS n FROM outbox_events WHERE event_type = 'DOMAIN_ENROLLMENT' AND payload::text LIKE '%' || $1 || '%'`, [email]);
    expect(ev.n).toBe(1);

    // idempotent: again is the same membership, no second row
    const again = await t.post(M(sid), { data: [{ type: 'domains', id: domainId }] }, { token });
    expect(again.status).toBe(200);
    expect(again.body.data[0].result.id).toBe(m.id);

    const enrolled = await t.post('/v2/enrollments/', enrollBody, { token });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.data[0].status).toBe('succeeded');

    // read, list, remove
    const one = await t.get(`${M(sid)}${domainId}`, { token });
    expect(one.status).toBe(200);
    expect(one.body.data.id).toBe(m.id);
    const list = await t.get(M(sid), { token });
    expect(list.body.data.map((d: any) => d.id)).toEqual([m.id]);
    expect(list.body.has_more).toBe(false);
    expect((await t.delete(`${M(sid)}${domainId}`, { token })).status).toBe(204);
    expect((await t.get(`${M(sid)}${domainId}`, { token })).status).toBe(404);
    expect((await t.delete(`${M(sid)}${domainId}`, { token })).status).toBe(404);
  });

  it('memberships: unknown domains fail per item, another organization sees nothing, scopes, pages', async () => {
    const sid = (await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: `p-${rnd()}@example.test`, first_name: 'P', last_name: 'Q' } }] }, { token })).body.data[0].id;
    const domainId = (await t.get('/v2/domains/', { token })).body.data[0].id;
    const otherDomain = (await t.get('/v2/domains/', { token: otherToken })).body.data[0].id;
    const res = await t.post(
      M(sid),
      {
        data: [
          { type: 'domains', id: otherDomain },
          { type: 'domains', id: 'nope' },
          { type: 'domains', id: domainId },
          { type: 'domains', id: domainId },
        ],
      },
      { token },
    );
    expect(res.status).toBe(207);
    expect(res.body.data.map((d: any) => (d.status === 'succeeded' ? 'ok' : d.error.code))).toEqual(['not_found', 'not_found', 'ok', 'duplicate_in_batch']);
    // the student of another organization: 404 whatever the body; the bad body on a known student: 400/422
    for (const [method, path] of [
      ['GET', M(sid)],
      ['POST', M(sid)],
      ['GET', `${M(sid)}${domainId}`],
      ['DELETE', `${M(sid)}${domainId}`],
    ] as const) {
      const r = await t.request(method, path, { token: otherToken, body: method === 'POST' ? { data: [{ type: 'domains', id: otherDomain }] } : undefined });
      expect({ method, path, status: r.status }).toEqual({ method, path, status: 404 });
    }
    expect((await t.get(M(encodeId('student', newUuid())), { token })).status).toBe(404);
    const bad = await t.post(M(sid), { data: 'x' }, { token });
    expect([400, 422]).toContain(bad.status);
    const readOnly = await t.tokenFor(org, ['students:read']);
    expect((await t.post(M(sid), { data: [{ type: 'domains', id: domainId }] }, { token: readOnly })).status).toBe(403);
    expect((await t.get(M(sid), { token: await t.tokenFor(org, ['courses:read']) })).status).toBe(403);
    // a page of one with a cursor to the next
    const page = await t.get(`${M(sid)}?page[size]=1`, { token });
    expect(page.body.data).toHaveLength(1);
    expect(page.body.has_more).toBe(false);
    // an anonymized student cannot join a domain
    expect((await t.post(`/v2/students/${sid}/anonymize/`, {}, { token: await t.tokenFor(org, ['students:anonymize']), headers: { 'x-confirm-destructive': 'true' } })).status).toBe(204);
    const anon = await t.post(M(sid), { data: [{ type: 'domains', id: domainId }] }, { token });
    expect(anon.status).toBe(409);
  });

  it('/v2/assets: create (embed link READY, bad URL fails its item), list pages, read, patch, delete; isolation', async () => {
    const created = await t.post(
      '/v2/assets/',
      {
        data: [
          { type: 'assets', attributes: { embed_link_url: 'https://video.example.test/embed/1', name: 'Intro video', aspect_ratio: '4:3' } },
          { type: 'assets', attributes: { embed_link_url: 'not a url' } },
          { type: 'assets', attributes: {} },
        ],
      },
      { token },
    );
    expect(created.status).toBe(207);
    expect(created.body.data.map((d: any) => (d.status === 'succeeded' ? 'ok' : d.error.code))).toEqual(['ok', 'validation_error', 'validation_error']);
    const a = created.body.data[0].result;
    expect(a).toEqual({
      type: 'assets',
      id: expect.stringMatching(/^ast/),
      attributes: {
        name: 'Intro video',
        type: 'HTML',
        state: 'READY',
        embed_link_url: 'https://video.example.test/embed/1',
        aspect_ratio: '4:3',
        sync_completion: false,
        failure_reason: null,
        created_at: expect.any(String),
        modified_at: expect.any(String),
      },
      links: { self: expect.stringMatching(new RegExp(`/v2/assets/${a.id}$`)) },
    });
    // the same row on /v1
    expect((await t.get(`/v1/assets/${a.id}`, { basic: org.api_key })).body.name).toBe('Intro video');
    const second = (await t.post('/v2/assets/', { data: [{ type: 'assets', attributes: { embed_link_url: 'https://video.example.test/embed/2' } }] }, { token })).body.data[0].result;

    const p1 = await t.get('/v2/assets/?page[size]=1', { token });
    expect(p1.body.data.map((d: any) => d.id)).toEqual([a.id]);
    expect(p1.body.has_more).toBe(true);
    const p2 = await t.get(p1.body.links.next.replace(t.baseUrl, ''), { token });
    expect(p2.body.data.map((d: any) => d.id)).toEqual([second.id]);

    expect((await t.get(`/v2/assets/${a.id}`, { token })).body.data).toEqual(a);
    const patched = await t.patch(`/v2/assets/${a.id}`, { data: { type: 'assets', id: a.id, attributes: { name: 'Renamed', sync_completion: true } } }, { token });
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toEqual(expect.objectContaining({ name: 'Renamed', sync_completion: true, aspect_ratio: '4:3' }));
    expect((await t.patch(`/v2/assets/${a.id}`, { data: { type: 'assets', attributes: { aspect_ratio: '1:1' } } }, { token })).status).toBe(422);
    expect((await t.patch(`/v2/assets/${a.id}`, { data: { type: 'assets', id: second.id, attributes: { name: 'x' } } }, { token })).status).toBe(409);
    expect((await t.get(`/v2/assets/${a.id}`, { token })).body.data.attributes.name).toBe('Renamed');

    // another organization: 404 on every operation, and its list does not show ours
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { data: { type: 'assets', attributes: { name: 'x' } } }],
      ['DELETE', undefined],
    ] as const) {
      expect((await t.request(method, `/v2/assets/${a.id}`, { token: otherToken, body })).status).toBe(404);
    }
    expect((await t.get('/v2/assets/', { token: otherToken })).body.data).toEqual([]);
    expect((await t.get('/v2/assets/', { token: await t.tokenFor(org, ['courses:read']) })).status).toBe(403);
    expect((await t.post('/v2/assets/', { data: [] }, { token: await t.tokenFor(org, ['assets:read']) })).status).toBe(403);

    // an ASSET content item of a MODULAR lesson answers its asset_id on /v2; the asset in use cannot be deleted (409)
    const course = (await t.post('/v1/courses', { title: `C ${rnd()}`, short_description: 's', enforce_sequential_navigation: false }, { basic: org.api_key })).body.id;
    const lesson = (await t.post('/v1/lessons', { course_id: course, order: 1, title: 'Modular', type: 'MODULAR' }, { basic: org.api_key })).body.id;
    const item = await t.post(`/v1/lessons/${lesson}/content-items`, { type: 'ASSET', order: 1, header: 'Watch', content_asset_id: a.id }, { basic: org.api_key });
    expect(item.status).toBe(201);
    const v2lesson = await t.get(`/v2/lessons/${lesson}`, { token });
    expect(v2lesson.body.data.attributes.content_items).toEqual([expect.objectContaining({ type: 'ASSET', asset_id: a.id })]);
    const inUse = await t.delete(`/v2/assets/${a.id}`, { token });
    expect(inUse.status).toBe(409);
    expect((await t.delete(`/v2/assets/${second.id}`, { token })).status).toBe(204);
    expect((await t.get(`/v2/assets/${second.id}`, { token })).status).toBe(404);
  });
});

import { getQueueToken } from '@nestjs/bullmq';
import * as argon2 from 'argon2';
import type { Queue } from 'bullmq';
import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import { QUEUES } from '../../src/core/queue/queues';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { verifyResetToken } from '../../src/modules/mail/password-reset-token';
import { StudentsService } from '../../src/modules/students/students.service';
import { startTestApp, TestApp } from '../support/app';
import { domainOf, insertCourse, insertDomain, insertStudent, orgUuid, rate } from '../support/fixtures';

const ALL = ['students:read', 'students:write', 'students:deactivate', 'students:anonymize', 'students:manage-password'];

describe('/v2/students', () => {
  let t: TestApp;
  let seq = 0;
  const email = (tag = 's') => `${tag}-${++seq}-${Math.random().toString(36).slice(2, 8)}@example.test`;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function orgWithToken(scopes: string[] = ALL): Promise<{ org: CreatedOrg; token: string }> {
    const org = await t.newOrg();
    return { org, token: await t.tokenFor(org, scopes) };
  }

  async function create(token: string, items: Record<string, unknown>[]) {
    return t.post('/v2/students/', { data: items.map((attributes) => ({ type: 'students', attributes })) }, { token });
  }

  async function createOne(token: string, attributes: Record<string, unknown> = {}) {
    const res = await create(token, [{ email: email(), ...attributes }]);
    expect(res.status).toBe(200);
    return res.body.data[0].result as { id: string; attributes: Record<string, any> };
  }

  const row = async (uuidOrId: string) => {
    const uuid = decodeId('student', uuidOrId) ?? uuidOrId;
    const [r] = await t.ds.query(`SELECT * FROM users WHERE id = $1`, [uuid]);
    return r;
  };

  const pathOf = (url: string) => {
    const u = new URL(url);
    return u.pathname + u.search;
  };

  describe('authentication and scopes', () => {
    const routes: [string, string, string][] = [
      ['GET', '/v2/students/', 'students:read'],
      ['POST', '/v2/students/', 'students:write'],
      ['PATCH', '/v2/students/', 'students:write'],
      ['GET', '/v2/students/stu_AAAAAAAAAAAAAAAAAAAAAA', 'students:read'],
      ['DELETE', '/v2/students/stu_AAAAAAAAAAAAAAAAAAAAAA', 'students:deactivate'],
      ['POST', '/v2/students/stu_AAAAAAAAAAAAAAAAAAAAAA/anonymize/', 'students:anonymize'],
      ['POST', '/v2/students/stu_AAAAAAAAAAAAAAAAAAAAAA/send-password-reset/?domain=x.test', 'students:manage-password'],
      ['POST', '/v2/students/stu_AAAAAAAAAAAAAAAAAAAAAA/set-password/', 'students:manage-password'],
    ];

    it('401 without a token, 403 with a token lacking the scope, on every route', async () => {
      const org = await t.newOrg();
      for (const [method, path, scope] of routes) {
        const body = method === 'GET' ? undefined : { data: [] };
        const none = await t.request(method, path, { body });
        expect([method, path, none.status]).toEqual([method, path, 401]);
        // every students scope except the one the route needs
        const others = ALL.filter((s) => s !== scope);
        const token = await t.tokenFor(org, others);
        const res = await t.request(method, path, { token, body });
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expect(res.body.errors[0].code).toBe('forbidden');
      }
    });
  });

  describe('POST /v2/students/ (batch create)', () => {
    it('creates students: lowercased email, default names, external_id, date_joined', async () => {
      const { token } = await orgWithToken();
      const e = email('Mixed').replace('mixed', 'MiXeD');
      const res = await create(token, [{ email: e, first_name: 'Ada', last_name: 'Lovelace' }, { email: email() }]);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
      expect(res.body.summary).toEqual({ total: 2, succeeded: 2, failed: 0 });
      const [a, b] = res.body.data;
      expect(a.status).toBe('succeeded');
      expect(a.id).toMatch(/^[0-9a-z]+$/);
      expect(a.result).toEqual({
        type: 'students',
        id: a.id,
        attributes: {
          email: e.toLowerCase(),
          first_name: 'Ada',
          last_name: 'Lovelace',
          is_inactive: false,
          external_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
          date_joined: expect.any(String),
        },
      });
      expect(new Date(a.result.attributes.date_joined).toISOString()).toBe(a.result.attributes.date_joined);
      expect(b.result.attributes.first_name).toBe('');
      expect(b.result.attributes.last_name).toBe('');
      expect(b.result.attributes.external_id).not.toBe(a.result.attributes.external_id);
      const got = await t.get(`/v2/students/${a.id}`, { token });
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ data: a.result });
    });

    it('marks case-insensitive repeats of an email in the batch duplicate_in_batch (first wins)', async () => {
      const { token } = await orgWithToken();
      const e = email();
      const res = await create(token, [{ email: e, first_name: 'First' }, { email: email() }, { email: e.toUpperCase(), first_name: 'Second' }]);
      expect(res.status).toBe(207);
      expect(res.body.summary).toEqual({ total: 3, succeeded: 2, failed: 1 });
      expect(res.body.data[0].result.attributes.first_name).toBe('First');
      expect(res.body.data[2]).toEqual({
        status: 'failed',
        id: null,
        error: { code: 'duplicate_in_batch', detail: expect.any(String), source: { pointer: '/data/2/attributes/email' } },
      });
      const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM users WHERE lower(email) = $1`, [e]);
      expect(n).toBe(1);
    });

    it('fails an item whose email already exists in the organization (any case) with validation_error; other orgs may reuse it', async () => {
      const { token } = await orgWithToken();
      const other = await orgWithToken();
      const e = email();
      await createOne(token, { email: e });
      const res = await create(token, [{ email: email() }, { email: e.toUpperCase() }]);
      expect(res.status).toBe(207);
      expect(res.body.data[0].status).toBe('succeeded');
      expect(res.body.data[1].error).toEqual({ code: 'validation_error', detail: expect.stringContaining('already exists'), source: { pointer: '/data/1/attributes/email' } });
      const elsewhere = await create(other.token, [{ email: e }]);
      expect(elsewhere.status).toBe(200);
    });

    it('concurrent creates of the same emails never 500: each email is created exactly once', async () => {
      const { token } = await orgWithToken();
      const emails = Array.from({ length: 20 }, () => email('race'));
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          create(
            token,
            emails.map((e) => ({ email: e })),
          ),
        ),
      );
      for (const r of results) expect([200, 207]).toContain(r.status);
      const succeeded = results.flatMap((r) => r.body.data.filter((d: any) => d.status === 'succeeded'));
      expect(succeeded).toHaveLength(20);
      for (const r of results) for (const d of r.body.data) if (d.status === 'failed') expect(d.error.code).toBe('validation_error');
    });

    it('validates each item with a pointer: email required and valid, names strings of at most 50', async () => {
      const { token } = await orgWithToken();
      const res = await t.post(
        '/v2/students/',
        {
          data: [
            { type: 'students', attributes: { first_name: 'No email' } },
            { type: 'students', attributes: { email: 'not-an-email' } },
            { type: 'students', attributes: { email: 42 } },
            { type: 'students', attributes: { email: email(), first_name: 'x'.repeat(51) } },
            { type: 'students', attributes: { email: email(), last_name: ['array'] } },
            { type: 'students', attributes: { email: email(), first_name: null } },
            { type: 'students', attributes: { email: email(), first_name: 'x'.repeat(50) } },
          ],
        },
        { token },
      );
      expect(res.status).toBe(207);
      const errs = res.body.data.map((d: any) => d.error && [d.error.code, d.error.source.pointer]);
      expect(errs).toEqual([
        ['validation_error', '/data/0/attributes/email'],
        ['validation_error', '/data/1/attributes/email'],
        ['validation_error', '/data/2/attributes/email'],
        ['validation_error', '/data/3/attributes/first_name'],
        ['validation_error', '/data/4/attributes/last_name'],
        undefined,
        undefined,
      ]);
      expect(res.body.data[5].result.attributes.first_name).toBe('');
    });

    it('bad envelopes and items: never a 500', async () => {
      const { token } = await orgWithToken();
      const tooMany = Array.from({ length: 101 }, () => ({ type: 'students', attributes: { email: email() } }));
      expect((await t.post('/v2/students/', { data: tooMany }, { token })).status).toBe(400);
      expect((await t.post('/v2/students/', { data: [] }, { token })).status).toBe(400);
      expect((await t.post('/v2/students/', { data: 'students' }, { token })).status).toBe(400);
      expect((await t.post('/v2/students/', { data: { type: 'students' } }, { token })).status).toBe(400);
      expect((await t.post('/v2/students/', [], { token })).status).toBe(400);
      expect((await t.post('/v2/students/', undefined, { token })).status).toBe(400);
      expect((await t.request('POST', '/v2/students/', { token, raw: { contentType: 'application/json', data: '{"data": [' } })).status).toBe(400);
      const [{ n: before }] = await t.ds.query(`SELECT count(*)::int AS n FROM users`);
      const res = await t.post(
        '/v2/students/',
        {
          data: [
            'a string',
            null,
            [1, 2],
            { attributes: { email: email() } },
            { type: 'courses', attributes: { email: email() } },
            { type: 'students' },
            { type: 'students', attributes: 'email' },
            { type: 'students', attributes: [] },
          ],
        },
        { token },
      );
      expect(res.status).toBe(207);
      expect(res.body.summary).toEqual({ total: 8, succeeded: 0, failed: 8 });
      expect(res.body.data.map((d: any) => d.error.code)).toEqual(Array(8).fill('validation_error'));
      expect(res.body.data[3].error.source.pointer).toBe('/data/3/type');
      expect(res.body.data[4].error.source.pointer).toBe('/data/4/type');
      const [{ n: after }] = await t.ds.query(`SELECT count(*)::int AS n FROM users`);
      expect(after).toBe(before);
    });

    it('accepts exactly 100 items', async () => {
      const { token } = await orgWithToken();
      const res = await create(
        token,
        Array.from({ length: 100 }, () => ({ email: email('hundred') })),
      );
      expect(res.status).toBe(200);
      expect(res.body.summary.succeeded).toBe(100);
    });
  });

  describe('GET /v2/students/ (list)', () => {
    it('lists only the caller organization, in creation order, with the list document', async () => {
      const { token } = await orgWithToken();
      const other = await orgWithToken();
      const mine = [await createOne(token), await createOne(token), await createOne(token)];
      await createOne(other.token);
      await insertStudent(t, other.org);
      const res = await t.get('/v2/students/', { token });
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: any) => d.id)).toEqual(mine.map((m) => m.id));
      expect(res.body.data[0]).toEqual(mine[0]);
      expect(res.body.meta).toEqual({ page_size: 25 });
      expect(res.body.has_more).toBe(false);
      expect(res.body.next_cursor).toBeNull();
      expect(res.body.links).toEqual({ self: expect.stringContaining('/v2/students/'), next: null, prev: null });
    });

    it('page[size] bounds: 1..100, else 422 naming the parameter', async () => {
      const { token } = await orgWithToken();
      for (const bad of ['0', '101', '1000000000000', '-1', 'abc', '1.5']) {
        const res = await t.get(`/v2/students/?page[size]=${encodeURIComponent(bad)}`, { token });
        expect([bad, res.status]).toEqual([bad, 422]);
        expect(res.body.errors[0].source).toEqual({ parameter: 'page[size]' });
      }
      expect((await t.get('/v2/students/?page[size]=1', { token })).status).toBe(200);
      expect((await t.get('/v2/students/?page[size]=100', { token })).body.meta.page_size).toBe(100);
      expect((await t.get('/v2/students/?page[size]=5&page[size]=6', { token })).status).toBe(422);
    });

    it('links.next walks every row exactly once, even while rows are inserted between pages', async () => {
      const { token } = await orgWithToken();
      const first = await create(
        token,
        Array.from({ length: 23 }, () => ({ email: email('walk') })),
      );
      const originals = first.body.data.map((d: any) => d.id as string);
      const seen: string[] = [];
      let next: string | null = '/v2/students/?page[size]=5';
      let pages = 0;
      while (next) {
        const res: { status: number; body: any } = await t.get(next, { token });
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(5);
        seen.push(...res.body.data.map((d: any) => d.id));
        expect(res.body.has_more).toBe(res.body.links.next !== null);
        next = res.body.links.next ? pathOf(res.body.links.next) : null;
        if (next) expect(new URL(res.body.links.next).searchParams.get('page[cursor]')).toBe(res.body.next_cursor);
        // insert between pages: they come after every original row, so they may appear at the end, once
        await createOne(token);
        if (++pages > 20) throw new Error('pagination does not end');
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of originals) expect(seen.filter((s) => s === id)).toHaveLength(1);
      // rows of one INSERT share created_at, so among themselves they come in id order (the keyset is (created_at, id))
      expect([...seen.slice(0, 23)].sort()).toEqual([...originals].sort());
    });

    it('a tampered or foreign cursor is 400', async () => {
      const { token } = await orgWithToken();
      await create(token, [{ email: email() }, { email: email() }]);
      const res = await t.get('/v2/students/?page[size]=1', { token });
      const cursor: string = res.body.next_cursor;
      expect(cursor).toBeTruthy();
      const [body, mac] = cursor.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), id: newUuid() })).toString('base64url');
      for (const bad of [`${forged}.${mac}`, `${cursor}x`, 'garbage', '.', 'a'.repeat(5000)]) {
        const r = await t.get(`/v2/students/?page[cursor]=${encodeURIComponent(bad)}`, { token });
        expect([bad.slice(0, 20), r.status]).toEqual([bad.slice(0, 20), 400]);
        expect(r.body.errors[0].source).toEqual({ parameter: 'page[cursor]' });
      }
      expect((await t.get(`/v2/students/?page[cursor]=${encodeURIComponent(cursor)}`, { token })).status).toBe(200);
    });

    it('filters: email exact case-insensitive, names exact, is_inactive boolean', async () => {
      const { token } = await orgWithToken();
      const e = email();
      const a = await createOne(token, { email: e, first_name: 'Grace', last_name: 'Hopper' });
      const b = await createOne(token, { first_name: 'grace', last_name: 'Hopper' });
      const c = await createOne(token, { first_name: 'Gracey', last_name: 'Other' });
      await t.delete(`/v2/students/${c.id}`, { token });
      const other = await t.newOrg();
      await insertStudent(t, other, { email: e, first_name: 'Grace' });
      const ids = async (q: string) => {
        const res = await t.get(`/v2/students/?${q}`, { token });
        expect(res.status).toBe(200);
        return res.body.data.map((d: any) => d.id);
      };
      expect(await ids(`filter[email]=${encodeURIComponent(e.toUpperCase())}`)).toEqual([a.id]);
      expect(await ids(`filter[email]=${encodeURIComponent(e.slice(0, 5))}`)).toEqual([]);
      expect(await ids('filter[first_name]=Grace')).toEqual([a.id]);
      expect(await ids('filter[first_name]=grace')).toEqual([b.id]);
      expect(await ids('filter[first_name]=Grac')).toEqual([]);
      expect(await ids('filter[last_name]=Hopper')).toEqual([a.id, b.id]);
      expect(await ids('filter[last_name]=Hopper&filter[first_name]=grace')).toEqual([b.id]);
      expect(await ids('filter[is_inactive]=true')).toEqual([c.id]);
      expect(await ids('filter[is_inactive]=false')).toEqual([a.id, b.id]);
    });

    it('bad filters are 422 naming the parameter, never 500', async () => {
      const { token } = await orgWithToken();
      for (const q of ['filter[is_inactive]=yes', 'filter[is_inactive]=1', 'filter[is_inactive]=', 'filter[is_inactive]=true&filter[is_inactive]=false']) {
        const res = await t.get(`/v2/students/?${q}`, { token });
        expect([q, res.status]).toEqual([q, 422]);
        expect(res.body.errors[0].code).toBe('validation_error');
        expect(res.body.errors[0].source).toEqual({ parameter: 'filter[is_inactive]' });
      }
      const twice = await t.get('/v2/students/?filter[email]=a@b.c&filter[email]=d@e.f', { token });
      expect(twice.status).toBe(422);
      expect(twice.body.errors[0].source).toEqual({ parameter: 'filter[email]' });
      const long = await t.get(`/v2/students/?filter[first_name]=${'x'.repeat(3000)}`, { token });
      expect(long.status).toBe(200);
    });

    it('the email filter is served by the (organization_id, lower(email)) index', async () => {
      const { org } = await orgWithToken();
      await t.ds.query(`INSERT INTO users (organization_id, email, first_name, last_name) SELECT $1, 'bulk-' || g || '@example.test', 'Same', 'Same' FROM generate_series(1, 2000) g`, [orgUuid(org)]);
      await t.ownerQuery(`ANALYZE users`);
      const plan = await t.ds.query(`EXPLAIN SELECT * FROM users s WHERE s.organization_id = $1 AND lower(s.email) = lower($2) ORDER BY s.created_at, s.id LIMIT 26`, [
        orgUuid(org),
        'BULK-7@example.test',
      ]);
      expect(JSON.stringify(plan)).toContain('users_org_email_uq');
    });
  });

  describe('GET /v2/students/{id}', () => {
    it('404 for undecodable ids, ids of another type, missing ids and ids of another organization', async () => {
      const { token } = await orgWithToken();
      const other = await orgWithToken();
      const theirs = await createOne(other.token);
      const uuid = (await row(theirs.id)).id;
      for (const id of ['nope', 'stu_', 'stu_!!!!', encodeId('course', uuid), encodeId('student', newUuid()), theirs.id, 'x'.repeat(90)]) {
        const res = await t.get(`/v2/students/${encodeURIComponent(id)}`, { token });
        expect([id, res.status]).toEqual([id, 404]);
        expect(res.body.errors[0].code).toBe('not_found');
      }
      const long = await t.get(`/v2/students/${'x'.repeat(3000)}`, { token });
      expect(long.status).toBeLessThan(500);
      expect((await t.get(`/v2/students/${theirs.id}`, { token: other.token })).status).toBe(200);
    });

    it('an inactive student is still readable', async () => {
      const { token } = await orgWithToken();
      const s = await createOne(token);
      expect((await t.delete(`/v2/students/${s.id}`, { token })).status).toBe(204);
      const res = await t.get(`/v2/students/${s.id}`, { token });
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.is_inactive).toBe(true);
    });
  });

  describe('PATCH /v2/students/ (batch update)', () => {
    const upd = (token: string, items: unknown[]) => t.patch('/v2/students/', { data: items }, { token });

    it('updates names by id, and by email (case-insensitive) when there is no id', async () => {
      const { token } = await orgWithToken();
      const a = await createOne(token, { first_name: 'A', last_name: 'One' });
      const b = await createOne(token, { first_name: 'B', last_name: 'Two' });
      const res = await upd(token, [
        { type: 'students', id: a.id, attributes: { first_name: 'Alpha' } },
        { type: 'students', attributes: { email: b.attributes.email.toUpperCase(), last_name: 'Beta', first_name: null } },
      ]);
      expect(res.status).toBe(200);
      expect(res.body.data[0]).toEqual({ status: 'succeeded', id: a.id, result: { ...a, attributes: { ...a.attributes, first_name: 'Alpha' } } });
      expect(res.body.data[1].id).toBe(b.id);
      expect(res.body.data[1].result.attributes).toMatchObject({ first_name: 'B', last_name: 'Beta', email: b.attributes.email });
      expect((await t.get(`/v2/students/${a.id}`, { token })).body.data.attributes.first_name).toBe('Alpha');
    });

    it('id and email together: the email must be the current one (any case), else validation_error; email never changes', async () => {
      const { token } = await orgWithToken();
      const a = await createOne(token);
      const newEmail = email('new');
      const res = await upd(token, [
        { type: 'students', id: a.id, attributes: { email: a.attributes.email.toUpperCase(), first_name: 'Same' } },
        { type: 'students', id: a.id, attributes: { email: newEmail, first_name: 'Changed' } },
      ]);
      expect(res.status).toBe(207);
      expect(res.body.data[0].status).toBe('succeeded');
      // the id repeats, so the second is a duplicate; send it alone to see the email rule
      expect(res.body.data[1].error.code).toBe('duplicate_in_batch');
      const res2 = await upd(token, [{ type: 'students', id: a.id, attributes: { email: newEmail, first_name: 'Changed' } }]);
      expect(res2.status).toBe(207);
      expect(res2.body.data[0].error).toEqual({ code: 'validation_error', detail: expect.any(String), source: { pointer: '/data/0/attributes/email' } });
      const r = await row(a.id);
      expect(r.email).toBe(a.attributes.email);
      expect(r.first_name).toBe('Same');
    });

    it('not_found for missing, undecodable, wrong-type and other-organization ids or emails, never touching the other org', async () => {
      const { token } = await orgWithToken();
      const other = await orgWithToken();
      const theirs = await createOne(other.token, { first_name: 'Theirs' });
      const mine = await createOne(token);
      const theirUuid = (await row(theirs.id)).id;
      const res = await upd(token, [
        { type: 'students', id: theirs.id, attributes: { first_name: 'Hacked' } },
        { type: 'students', attributes: { email: theirs.attributes.email, first_name: 'Hacked' } },
        { type: 'students', id: 'garbage', attributes: { first_name: 'x' } },
        { type: 'students', id: encodeId('course', theirUuid), attributes: { first_name: 'x' } },
        { type: 'students', id: encodeId('student', newUuid()), attributes: { first_name: 'x' } },
        { type: 'students', attributes: { email: email('nobody'), first_name: 'x' } },
        { type: 'students', id: mine.id, attributes: { first_name: 'Mine' } },
      ]);
      expect(res.status).toBe(207);
      expect(res.body.data.map((d: any) => d.error?.code ?? d.status)).toEqual(['not_found', 'not_found', 'not_found', 'not_found', 'not_found', 'not_found', 'succeeded']);
      expect(res.body.data.map((d: any) => d.error?.source.pointer)).toEqual([
        '/data/0/id',
        '/data/1/attributes/email',
        '/data/2/id',
        '/data/3/id',
        '/data/4/id',
        '/data/5/attributes/email',
        undefined,
      ]);
      expect((await row(theirs.id)).first_name).toBe('Theirs');
    });

    it('duplicate ids, and an id and an email naming the same student, are duplicate_in_batch (first wins)', async () => {
      const { token } = await orgWithToken();
      const a = await createOne(token);
      const res = await upd(token, [
        { type: 'students', id: a.id, attributes: { first_name: 'First' } },
        { type: 'students', id: a.id, attributes: { first_name: 'Second' } },
        { type: 'students', attributes: { email: a.attributes.email, first_name: 'Third' } },
      ]);
      expect(res.status).toBe(207);
      expect(res.body.data[0].status).toBe('succeeded');
      expect(res.body.data[1].error).toEqual({ code: 'duplicate_in_batch', detail: expect.any(String), source: { pointer: '/data/1/id' } });
      expect(res.body.data[2].error).toEqual({ code: 'duplicate_in_batch', detail: expect.any(String), source: { pointer: '/data/2/attributes/email' } });
      expect((await row(a.id)).first_name).toBe('First');
    });

    it('anonymized, single-sign-on and inactive students cannot be updated (validation_error)', async () => {
      const { token, org } = await orgWithToken();
      const anon = await createOne(token, { first_name: 'Anon' });
      expect((await t.post(`/v2/students/${anon.id}/anonymize/`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } })).status).toBe(204);
      const sso = await insertStudent(t, org, { sso_provider: 'okta', first_name: 'Sso' });
      const inactive = await createOne(token, { first_name: 'Inactive' });
      await t.delete(`/v2/students/${inactive.id}`, { token });
      const res = await upd(token, [
        { type: 'students', id: anon.id, attributes: { first_name: 'Back' } },
        { type: 'students', id: sso.id, attributes: { first_name: 'Changed' } },
        { type: 'students', id: inactive.id, attributes: { first_name: 'Changed' } },
      ]);
      expect(res.status).toBe(207);
      expect(res.body.data.map((d: any) => [d.error.code, d.error.source.pointer])).toEqual([
        ['validation_error', '/data/0/id'],
        ['validation_error', '/data/1/id'],
        ['validation_error', '/data/2/id'],
      ]);
      expect(res.body.data[0].error.detail).toMatch(/anonymized/);
      expect(res.body.data[1].error.detail).toMatch(/single-sign-on/);
      expect(res.body.data[2].error.detail).toMatch(/inactive/);
      expect((await row(anon.id)).first_name).toBe('');
      expect((await row(sso.uuid)).first_name).toBe('Sso');
      expect((await row(inactive.id)).first_name).toBe('Inactive');
      // sso students cannot be deactivated or reactivated through PATCH either
      const ssoFlag = await upd(token, [{ type: 'students', id: sso.id, attributes: { is_inactive: true } }]);
      expect(ssoFlag.body.data[0].error.code).toBe('validation_error');
      expect((await row(sso.uuid)).is_inactive).toBe(false);
    });

    it('is_inactive: true deactivates; is_inactive: false alone reactivates; with other attributes it does not', async () => {
      const { token } = await orgWithToken();
      const a = await createOne(token, { first_name: 'A' });
      const off = await upd(token, [{ type: 'students', id: a.id, attributes: { is_inactive: true } }]);
      expect(off.status).toBe(200);
      expect(off.body.data[0].result.attributes.is_inactive).toBe(true);
      const r1 = await row(a.id);
      expect(r1.is_inactive).toBe(true);
      expect(r1.deactivated_at).toBeInstanceOf(Date);

      const again = await upd(token, [{ type: 'students', id: a.id, attributes: { is_inactive: true } }]);
      expect(again.body.data[0].error.code).toBe('validation_error');

      const mixed = await upd(token, [{ type: 'students', id: a.id, attributes: { is_inactive: false, first_name: 'B' } }]);
      expect(mixed.status).toBe(207);
      expect(mixed.body.data[0].error.code).toBe('validation_error');
      expect((await row(a.id)).is_inactive).toBe(true);

      const back = await upd(token, [{ type: 'students', attributes: { email: a.attributes.email, is_inactive: false } }]);
      expect(back.status).toBe(200);
      expect(back.body.data[0].result.attributes).toMatchObject({ is_inactive: false, first_name: 'A' });
      const r2 = await row(a.id);
      expect(r2.is_inactive).toBe(false);
      expect(r2.deactivated_at).toBeNull();

      const then = await upd(token, [{ type: 'students', id: a.id, attributes: { first_name: 'B', is_inactive: false } }]);
      expect(then.status).toBe(200);
      expect(then.body.data[0].result.attributes.first_name).toBe('B');
    });

    it('validates items: identifier required, something to update, types, lengths; bad envelopes are 400', async () => {
      const { token } = await orgWithToken();
      const a = await createOne(token);
      const [b, c, d, e, f] = [await createOne(token), await createOne(token), await createOne(token), await createOne(token), await createOne(token)];
      const res = await upd(token, [
        { type: 'students', attributes: { first_name: 'No identifier' } },
        { type: 'students', id: a.id, attributes: {} },
        { type: 'students', id: b.id, attributes: { email: null, first_name: null } },
        { type: 'students', id: 12, attributes: { first_name: 'x' } },
        { type: 'students', id: c.id, attributes: { is_inactive: 'yes' } },
        { type: 'students', id: d.id, attributes: { first_name: 5 } },
        { type: 'students', id: e.id, attributes: { last_name: 'y'.repeat(51) } },
        { type: 'students', attributes: { email: 'not-an-email', first_name: 'x' } },
        { type: 'students', id: f.id },
        { type: 'courses', id: a.id, attributes: { first_name: 'x' } },
        { id: a.id, attributes: { first_name: 'x' } },
        'string',
        null,
      ]);
      expect(res.status).toBe(207);
      expect(res.body.data.map((d: any) => [d.error.code, d.error.source.pointer])).toEqual([
        ['validation_error', '/data/0/id'],
        ['validation_error', '/data/1/attributes'],
        ['validation_error', '/data/2/attributes'],
        ['validation_error', '/data/3/id'],
        ['validation_error', '/data/4/attributes/is_inactive'],
        ['validation_error', '/data/5/attributes/first_name'],
        ['validation_error', '/data/6/attributes/last_name'],
        ['validation_error', '/data/7/attributes/email'],
        ['validation_error', '/data/8/attributes'],
        ['validation_error', '/data/9/type'],
        ['validation_error', '/data/10/type'],
        ['validation_error', '/data/11'],
        ['validation_error', '/data/12'],
      ]);
      const tooMany = Array.from({ length: 101 }, () => ({ type: 'students', id: a.id, attributes: { first_name: 'x' } }));
      expect((await upd(token, tooMany)).status).toBe(400);
      expect((await upd(token, [])).status).toBe(400);
      expect((await t.patch('/v2/students/', { data: 'x' }, { token })).status).toBe(400);
      expect((await t.patch('/v2/students/', { nodata: [] }, { token })).status).toBe(400);
    });
  });

  describe('SQL statements per batch of 100', () => {
    it('a batch create and a batch update of 100 take at most 10 statements each', async () => {
      const { token } = await orgWithToken();
      const logger = t.ds.logger as any;
      const original = logger.logQuery;
      const statements: string[] = [];
      let counting = false;
      logger.logQuery = function (query: string, ...rest: unknown[]) {
        if (counting) statements.push(query);
        return original.call(this, query, ...rest);
      };
      try {
        await t.get('/v2/students/', { token }); // warm the token cache the way any client would
        counting = true;
        const created = await create(
          token,
          Array.from({ length: 100 }, () => ({ email: email('count') })),
        );
        counting = false;
        expect(created.status).toBe(200);
        const createCount = statements.length;
        expect(createCount).toBeGreaterThanOrEqual(1);
        expect(createCount).toBeLessThanOrEqual(10);

        statements.length = 0;
        const ids: string[] = created.body.data.map((d: any) => d.id);
        counting = true;
        const updated = await t.patch(
          '/v2/students/',
          {
            data: ids.map((id, i) =>
              i % 2 ? { type: 'students', id, attributes: { first_name: `N${i}` } } : { type: 'students', attributes: { email: created.body.data[i].result.attributes.email, last_name: `L${i}` } },
            ),
          },
          { token },
        );
        counting = false;
        expect(updated.status).toBe(200);
        expect(updated.body.summary.succeeded).toBe(100);
        expect(statements.length).toBeGreaterThanOrEqual(2);
        expect(statements.length).toBeLessThanOrEqual(10);
        // eslint-disable-next-line no-console
        console.log(`SQL statements: create 100 = ${createCount}, update 100 = ${statements.length}`);
      } finally {
        logger.logQuery = original;
      }
    });
  });

  describe('DELETE /v2/students/{id} (deactivate)', () => {
    it('204 sets is_inactive and deactivated_at; again is 409; anonymized is 409', async () => {
      const { token } = await orgWithToken();
      const a = await createOne(token);
      const res = await t.delete(`/v2/students/${a.id}`, { token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const r = await row(a.id);
      expect(r.is_inactive).toBe(true);
      expect(r.deactivated_at).toBeInstanceOf(Date);
      const again = await t.delete(`/v2/students/${a.id}`, { token });
      expect(again.status).toBe(409);
      expect(again.body.errors[0].code).toBe('conflict');
      const b = await createOne(token);
      await t.post(`/v2/students/${b.id}/anonymize/`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } });
      expect((await t.delete(`/v2/students/${b.id}`, { token })).status).toBe(409);
    });

    it('404 for other-organization, undecodable and unknown ids; the other org row is untouched', async () => {
      const { token } = await orgWithToken();
      const other = await orgWithToken();
      const theirs = await createOne(other.token);
      for (const id of [theirs.id, 'garbage', encodeId('student', newUuid())]) {
        const res = await t.delete(`/v2/students/${id}`, { token });
        expect([id, res.status]).toEqual([id, 404]);
      }
      expect((await row(theirs.id)).is_inactive).toBe(false);
    });
  });

  describe('POST /v2/students/{id}/anonymize/', () => {
    it('422 without X-Confirm-Destructive: true, before any change', async () => {
      const { token } = await orgWithToken();
      const a = await createOne(token, { first_name: 'Keep' });
      for (const headers of [{}, { 'X-Confirm-Destructive': 'false' }, { 'X-Confirm-Destructive': 'yes' }] as Record<string, string>[]) {
        const res = await t.post(`/v2/students/${a.id}/anonymize/`, undefined, { token, headers });
        expect(res.status).toBe(422);
        expect(res.body.errors[0].code).toBe('validation_error');
        expect(res.body.errors[0].source).toEqual({ parameter: 'X-Confirm-Destructive' });
      }
      const r = await row(a.id);
      expect(r.first_name).toBe('Keep');
      expect(r.is_anonymized).toBe(false);
    });

    it('erases personal data for good, blanks rating feedback, frees the email; later updates fail', async () => {
      const { token, org } = await orgWithToken();
      const a = await createOne(token, { first_name: 'Erase', last_name: 'Me' });
      const keep = await createOne(token, { first_name: 'Keep' });
      const aUuid = (await row(a.id)).id;
      const keepUuid = (await row(keep.id)).id;
      await t.ds.query(`UPDATE users SET password_hash = 'x', password_changed_at = now(), external_id = 'ext-1' WHERE id = $1`, [aUuid]);
      const course = await insertCourse(t, org);
      await rate(t, org, course.uuid, aUuid, 4, { feedback: 'My name is Erase Me and I loved it' });
      await rate(t, org, course.uuid, keepUuid, 5, { feedback: 'Kept' });

      const res = await t.post(`/v2/students/${a.id}/anonymize/`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } });
      expect(res.status).toBe(204);
      const r = await row(a.id);
      expect(r.email).toMatch(/^anonymized-[0-9a-f-]{36}@anonymized\.invalid$/);
      expect(r).toMatchObject({ first_name: '', last_name: '', external_id: '', password_hash: null, sso_provider: null, is_anonymized: true, is_inactive: true });
      expect(r.anonymized_at).toBeInstanceOf(Date);
      expect(r.deactivated_at).toBeInstanceOf(Date);
      const ratings = await t.ds.query(`SELECT user_id, rating, feedback FROM course_ratings WHERE course_id = $1 ORDER BY rating`, [course.uuid]);
      expect(ratings).toEqual([
        { user_id: aUuid, rating: 4, feedback: null },
        { user_id: keepUuid, rating: 5, feedback: 'Kept' },
      ]);
      expect((await row(keep.id)).first_name).toBe('Keep');

      const got = await t.get(`/v2/students/${a.id}`, { token });
      expect(got.body.data.attributes).toMatchObject({ email: r.email, first_name: '', last_name: '', is_inactive: true, external_id: '' });
      const listed = await t.get(`/v2/students/?filter[email]=${encodeURIComponent(a.attributes.email)}`, { token });
      expect(listed.body.data).toEqual([]);

      const patch = await t.patch('/v2/students/', { data: [{ type: 'students', id: a.id, attributes: { is_inactive: false } }] }, { token });
      expect(patch.body.data[0].error.code).toBe('validation_error');
      expect((await row(a.id)).is_inactive).toBe(true);

      // idempotent: anonymizing again changes nothing and answers 204
      const again = await t.post(`/v2/students/${a.id}/anonymize/`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } });
      expect(again.status).toBe(204);
      expect((await row(a.id)).email).toBe(r.email);

      // the old email is free again
      const recreated = await create(token, [{ email: a.attributes.email }]);
      expect(recreated.status).toBe(200);
    });

    it('works on inactive and single-sign-on students too', async () => {
      const { token, org } = await orgWithToken();
      const inactive = await insertStudent(t, org, { is_inactive: true, first_name: 'In' });
      const sso = await insertStudent(t, org, { sso_provider: 'okta', first_name: 'Sso' });
      for (const s of [inactive, sso]) {
        const res = await t.post(`/v2/students/${s.id}/anonymize/`, undefined, { token, headers: { 'X-Confirm-Destructive': 'TRUE' } });
        expect(res.status).toBe(204);
        expect(await row(s.uuid)).toMatchObject({ is_anonymized: true, is_inactive: true, first_name: '', sso_provider: null });
      }
    });

    it('404 for another organization (untouched), undecodable and unknown ids', async () => {
      const { token } = await orgWithToken();
      const other = await orgWithToken();
      const theirs = await createOne(other.token, { first_name: 'Theirs' });
      for (const id of [theirs.id, 'garbage', encodeId('student', newUuid())]) {
        const res = await t.post(`/v2/students/${id}/anonymize/`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } });
        expect([id, res.status]).toEqual([id, 404]);
      }
      const r = await row(theirs.id);
      expect(r.first_name).toBe('Theirs');
      expect(r.is_anonymized).toBe(false);
    });
  });

  describe('POST /v2/students/{id}/send-password-reset/', () => {
    const jobsFor = async (studentUuid: string) => {
      const q = t.app.get<Queue>(getQueueToken(QUEUES.mail));
      const jobs = await q.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
      return jobs.filter((j) => j?.data?.studentId === studentUuid);
    };

    it('202 and a password-reset job on the mail queue whose signed link verifies, expires and dies once used', async () => {
      const { token, org } = await orgWithToken();
      const a = await createOne(token);
      const uuid = (await row(a.id)).id;
      const domain = await domainOf(t, org);
      const before = Math.floor(Date.now() / 1000);
      const res = await t.post(`/v2/students/${a.id}/send-password-reset/?domain=${encodeURIComponent(domain.name.toUpperCase())}`, undefined, { token });
      expect(res.status).toBe(202);
      const jobs = await jobsFor(uuid);
      expect(jobs).toHaveLength(1);
      const job = jobs[0];
      expect(job.name).toBe('password-reset');
      expect(job.data).toEqual({ kind: 'password-reset', organizationId: orgUuid(org), studentId: uuid, domainName: domain.name, resetUrl: expect.any(String), requestId: expect.any(String) });
      // the mail is recorded first (queued again by the worker's sweeper if Redis did not take the job)
      expect(job.id).toBe(`password-reset-${job.data.requestId}`);
      const link = new URL(job.data.resetUrl);
      expect(`${link.protocol}//${link.host}${link.pathname}`).toBe(`https://${domain.name}/auth/reset-password`);
      const tokenParam = link.searchParams.get('token')!;
      const claims = verifyResetToken(t.config.APP_SECRET, tokenParam);
      expect(claims).toEqual({ sid: uuid, exp: expect.any(Number), pca: null });
      expect(claims!.exp).toBeGreaterThanOrEqual(before + t.config.PASSWORD_RESET_TTL);
      expect(claims!.exp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + t.config.PASSWORD_RESET_TTL);
      // expires
      expect(verifyResetToken(t.config.APP_SECRET, tokenParam, (claims!.exp + 1) * 1000)).toBeNull();
      // tampered or signed with another secret
      expect(verifyResetToken('another-secret-of-enough-length', tokenParam)).toBeNull();
      expect(
        verifyResetToken(
          t.config.APP_SECRET,
          tokenParam.replace(/^./, (c) => (c === 'e' ? 'f' : 'e')),
        ),
      ).toBeNull();
      // good now; dies once a password is set
      const svc = t.app.get(StudentsService);
      expect((await svc.studentForResetToken(tokenParam))?.id).toBe(uuid);
      const set = await t.post(`/v2/students/${a.id}/set-password/`, { data: { type: 'password-sets', attributes: { password: 'correct horse battery' } } }, { token });
      expect(set.status).toBe(204);
      expect(await svc.studentForResetToken(tokenParam)).toBeNull();
      // a new link carries the new password_changed_at
      await t.post(`/v2/students/${a.id}/send-password-reset/?domain=${domain.name}`, undefined, { token });
      const second = (await jobsFor(uuid)).find((j) => j.id !== job.id)!;
      const t2 = new URL(second.data.resetUrl).searchParams.get('token')!;
      expect(verifyResetToken(t.config.APP_SECRET, t2)!.pca).toBe((await row(uuid)).password_changed_at.toISOString());
      expect((await svc.studentForResetToken(t2))?.id).toBe(uuid);
    });

    it('422 for a missing, empty, unknown or other-organization domain; no job queued', async () => {
      const { token, org } = await orgWithToken();
      const other = await t.newOrg();
      const a = await createOne(token);
      const uuid = (await row(a.id)).id;
      const theirDomain = await insertDomain(t, other);
      for (const q of ['', '?domain=', `?domain=${theirDomain.name}`, '?domain=unknown.example.test', '?domain=a&domain=b']) {
        const res = await t.post(`/v2/students/${a.id}/send-password-reset/${q}`, undefined, { token });
        expect([q, res.status]).toEqual([q, 422]);
        expect(res.body.errors[0].source).toEqual({ parameter: 'domain' });
      }
      expect(await jobsFor(uuid)).toHaveLength(0);
      const second = await insertDomain(t, org);
      expect((await t.post(`/v2/students/${a.id}/send-password-reset/?domain=${second.name}`, undefined, { token })).status).toBe(202);
    });

    it('409 for single-sign-on, anonymized and inactive students; 404 across organizations', async () => {
      const { token, org } = await orgWithToken();
      const domain = await domainOf(t, org);
      const sso = await insertStudent(t, org, { sso_provider: 'saml' });
      const inactive = await insertStudent(t, org, { is_inactive: true });
      const anon = await createOne(token);
      await t.post(`/v2/students/${anon.id}/anonymize/`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } });
      for (const id of [sso.id, inactive.id, anon.id]) {
        const res = await t.post(`/v2/students/${id}/send-password-reset/?domain=${domain.name}`, undefined, { token });
        expect([id, res.status]).toEqual([id, 409]);
        expect(res.body.errors[0].code).toBe('conflict');
      }
      const other = await orgWithToken();
      const theirs = await createOne(other.token);
      const otherDomain = await domainOf(t, other.org);
      for (const [id, d] of [
        [theirs.id, domain.name],
        [theirs.id, otherDomain.name],
        ['garbage', domain.name],
      ]) {
        const res = await t.post(`/v2/students/${id}/send-password-reset/?domain=${d}`, undefined, { token });
        expect(res.status).toBe(404);
      }
      expect(await jobsFor((await row(theirs.id)).id)).toHaveLength(0);
      expect(await jobsFor(sso.uuid)).toHaveLength(0);
    });
  });

  describe('POST /v2/students/{id}/set-password/', () => {
    const body = (password: unknown) => ({ data: { type: 'password-sets', attributes: { password } } });

    it('204: argon2id hash, password_changed_at set', async () => {
      const { token } = await orgWithToken();
      const a = await createOne(token);
      const before = Date.now();
      const res = await t.post(`/v2/students/${a.id}/set-password/`, body('s3cret-enough'), { token });
      expect(res.status).toBe(204);
      const r = await row(a.id);
      expect(r.password_hash).toMatch(/^\$argon2id\$/);
      expect(await argon2.verify(r.password_hash, 's3cret-enough')).toBe(true);
      expect(r.password_changed_at.getTime()).toBeGreaterThanOrEqual(before - 5);
      // the hash is never served
      const got = await t.get(`/v2/students/${a.id}`, { token });
      expect(JSON.stringify(got.body)).not.toContain('argon2');
    });

    it("follows the organization's password rules: 422 with a pointer", async () => {
      const { token, org } = await orgWithToken();
      const a = await createOne(token);
      for (const pw of ['short', 'x'.repeat(129), '']) {
        const res = await t.post(`/v2/students/${a.id}/set-password/`, body(pw), { token });
        expect([pw.length, res.status]).toEqual([pw.length, 422]);
        expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/password' });
      }
      expect((await t.post(`/v2/students/${a.id}/set-password/`, body('x'.repeat(128)), { token })).status).toBe(204);
      await t.ds.query(`UPDATE organizations SET password_min_length = 12 WHERE id = $1`, [orgUuid(org)]);
      expect((await t.post(`/v2/students/${a.id}/set-password/`, body('elevenchars'), { token })).status).toBe(422);
      expect((await t.post(`/v2/students/${a.id}/set-password/`, body('twelve chars'), { token })).status).toBe(204);
      expect((await row(a.id)).password_hash).toBeTruthy();
    });

    it('422 for malformed bodies, never 500', async () => {
      const { token } = await orgWithToken();
      const a = await createOne(token);
      const cases: unknown[] = [
        {},
        { data: null },
        { data: 'x' },
        { data: [] },
        { data: { type: 'password-sets' } },
        { data: { type: 'students', attributes: { password: 'long enough pw' } } },
        { data: { attributes: { password: 'long enough pw' } } },
        { data: { type: 'password-sets', attributes: { password: 12345678 } } },
        { data: { type: 'password-sets', attributes: 'pw' } },
      ];
      for (const c of cases) {
        const res = await t.post(`/v2/students/${a.id}/set-password/`, c, { token });
        expect([JSON.stringify(c), res.status]).toEqual([JSON.stringify(c), 422]);
      }
      expect((await t.post(`/v2/students/${a.id}/set-password/`, [1], { token })).status).toBe(400);
      expect((await row(a.id)).password_hash).toBeNull();
    });

    it('409 for single-sign-on, anonymized and inactive students; 404 across organizations', async () => {
      const { token, org } = await orgWithToken();
      const sso = await insertStudent(t, org, { sso_provider: 'okta' });
      const inactive = await insertStudent(t, org, { is_inactive: true });
      const anon = await createOne(token);
      await t.post(`/v2/students/${anon.id}/anonymize/`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } });
      for (const id of [sso.id, inactive.id, anon.id]) {
        const res = await t.post(`/v2/students/${id}/set-password/`, body('long enough pw'), { token });
        expect([id, res.status]).toEqual([id, 409]);
      }
      expect((await row(sso.uuid)).password_hash).toBeNull();
      const other = await orgWithToken();
      const theirs = await createOne(other.token);
      for (const id of [theirs.id, 'garbage', encodeId('student', newUuid())]) {
        const res = await t.post(`/v2/students/${id}/set-password/`, body('long enough pw'), { token });
        expect([id, res.status]).toEqual([id, 404]);
      }
      expect((await row(theirs.id)).password_hash).toBeNull();
    });
  });
});

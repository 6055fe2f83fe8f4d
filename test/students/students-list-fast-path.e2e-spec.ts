import { AuthService } from '../../src/core/auth/auth.service';
import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { authInvalidationReady } from '../auth/oauth-helpers';
import { startTestApp, TestApp } from '../support/app';

/**
 * GET /v2/students/'s fast path (StudentsV2Controller.cachedList, core/routes/fast-path.ts): a caller
 * whose token is cached as valid, with students:read, asking for a plain page, is answered before
 * Nest's pipeline with the answer the guard and handler give (same status, headers and bytes);
 * anything else goes to the global guard and the handler, which answer or refuse as before.
 */
describe('GET /v2/students/: the cached-token fast path answers as the guarded handler does', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let admin: string;
  let special: string[];
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 60 });
    org = await t.newOrg();
    await authInvalidationReady(t);
    admin = await t.tokenFor(org, ['students:read', 'students:write']);
    const data = Array.from({ length: 7 }, (_, i) => ({ type: 'students', attributes: { email: `fast-${i}@example.test`, first_name: `F${i}`, last_name: `L${i}` } }));
    expect((await t.post('/v2/students/', { data }, { token: admin })).status).toBe(200);
    const listed = await t.get('/v2/students/', { token: admin });
    // values JSON escapes, and a created_at with microseconds (the column keeps them; the answer shows milliseconds)
    const [a, b] = listed.body.data.map((s: { id: string }) => decodeId('student', s.id));
    special = listed.body.data.slice(0, 2).map((s: { attributes: { email: string } }) => s.attributes.email);
    await t.ds.query(`UPDATE users SET first_name = $2, last_name = $3, created_at = created_at + interval '0.000456 seconds' WHERE id = $1`, [
      a,
      'Quote " back \\ slash / tab \t line \u2028 ctl \u0001',
      'Zoë 😀 é',
    ]);
    await t.ds.query(`UPDATE users SET is_inactive = true, external_id = '' WHERE id = $1`, [b]);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const headersOf = (h: Headers) => Object.fromEntries([...h.entries()].filter(([k]) => k !== 'date' && k !== 'x-request-id'));

  /** The guarded answer (a fresh token: not cached yet, so the guard verifies it and the handler answers), then the fast path's. */
  async function bothPaths(path: string) {
    const token = await t.tokenFor(org, ['students:read']);
    const guard = jest.spyOn(AuthService.prototype, 'authenticateFast');
    const slow = await t.get(path, { token });
    expect(guard).toHaveBeenCalledTimes(1);
    guard.mockClear();
    const fast = await t.get(path, { token });
    expect(guard).not.toHaveBeenCalled();
    guard.mockRestore();
    return { slow, fast, token };
  }

  it('a first page, a middle page and the last page: same status, headers and bytes on both paths', async () => {
    const first = await bothPaths('/v2/students/?page[size]=3');
    expect(first.slow.status).toBe(200);
    expect(first.fast.status).toBe(200);
    expect(headersOf(first.fast.headers)).toEqual(headersOf(first.slow.headers));
    expect(first.fast.text).toBe(first.slow.text);
    expect(first.slow.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(first.slow.body.data).toHaveLength(3);
    expect(first.slow.body.has_more).toBe(true);

    const nextPath = (res: { body: { links: { next: string } } }) => {
      const u = new URL(res.body.links.next);
      return u.pathname + u.search;
    };
    const middle = await bothPaths(nextPath(first.slow));
    expect(middle.fast.status).toBe(200);
    expect(headersOf(middle.fast.headers)).toEqual(headersOf(middle.slow.headers));
    expect(middle.fast.text).toBe(middle.slow.text);
    expect(middle.slow.body.has_more).toBe(true);
    const last = await bothPaths(nextPath(middle.slow));
    expect(last.fast.text).toBe(last.slow.text);
    expect(last.slow.body).toMatchObject({ has_more: false, next_cursor: null, links: { next: null, prev: null } });
    expect(last.slow.body.data).toHaveLength(1);

    const all = await bothPaths('/v2/students/');
    expect(all.fast.text).toBe(all.slow.text);
    expect(all.slow.body.meta).toEqual({ page_size: 25 });
    expect(all.slow.body.data).toHaveLength(7);
    const byEmail = new Map(all.slow.body.data.map((s: { attributes: { email: string } }) => [s.attributes.email, s.attributes]));
    expect(byEmail.get(special[0])).toMatchObject({ first_name: 'Quote " back \\ slash / tab \t line \u2028 ctl \u0001', last_name: 'Zoë 😀 é' });
    expect(byEmail.get(special[1])).toMatchObject({ is_inactive: true, external_id: '' });
    for (const s of all.slow.body.data) expect(s.attributes.date_joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('an empty list: the same on both paths', async () => {
    const other = await t.newOrg();
    const token = await t.tokenFor(other, ['students:read']);
    const slow = await t.get('/v2/students/?page[size]=100', { token });
    const fast = await t.get('/v2/students/?page[size]=100', { token });
    expect(slow.status).toBe(200);
    expect(fast.text).toBe(slow.text);
    expect(headersOf(fast.headers)).toEqual(headersOf(slow.headers));
    expect(slow.body.data).toEqual([]);
  });

  it('filters, repeated or bad page parameters, a bad cursor, a narrow token: the guard and handler answer', async () => {
    const { token } = await bothPaths('/v2/students/');
    const guard = jest.spyOn(AuthService.prototype, 'authenticateFast');
    const filtered = await t.get('/v2/students/?filter[email]=FAST-2@example.test', { token });
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.map((s: any) => s.attributes.email)).toEqual(['fast-2@example.test']);
    expect((await t.get('/v2/students/?filter[is_inactive]=maybe', { token })).status).toBe(422);
    const bad = await t.get('/v2/students/?page[size]=0', { token });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'page[size]' });
    expect((await t.get('/v2/students/?page[size]=5&page[size]=6', { token })).status).toBe(422);
    const cursor = await t.get('/v2/students/?page[cursor]=nope', { token });
    expect(cursor.status).toBe(400);
    expect(cursor.body.errors[0].source).toEqual({ parameter: 'page[cursor]' });
    expect(guard).toHaveBeenCalledTimes(5);

    guard.mockClear();
    const narrow = await t.tokenFor(org, ['clients:read']);
    await t.get('/v2/scopes/', { token: narrow }); // cached as valid
    const forbidden = await t.get('/v2/students/', { token: narrow });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.errors[0].detail).toBe('This operation needs one of the scopes: students:read.');
    expect((await t.get('/v2/students/')).status).toBe(401);
    expect(guard).toHaveBeenCalledTimes(3);
  });
});

import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import { DomainsService } from '../../src/modules/domains/domains.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries } from '../support/fixtures';

const P = '/v2/published-courses/';
const publish = (course: string, domain: string, attributes?: Record<string, unknown>) => ({
  type: 'published-courses',
  ...(attributes ? { attributes } : {}),
  relationships: { course: { data: { type: 'courses', id: course } }, domain: { data: { type: 'domains', id: domain } } },
});
const update = (id: string, attributes: Record<string, unknown>) => ({ type: 'published-courses', id, attributes });

describe('/v2/published-courses', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let domainId: string;
  let domain2Id: string;

  async function courses(tok: string, titles: string[]): Promise<string[]> {
    const res = await t.post('/v2/courses/', { data: titles.map((title) => ({ type: 'courses', attributes: { title } })) }, { token: tok });
    expect(res.status).toBe(200);
    return res.body.data.map((d: any) => d.id);
  }

  beforeAll(async () => {
    t = await startTestApp({ BATCH_MAX_ITEMS: 10 });
    org = await t.newOrg();
    token = await t.tokenFor(org, ['published-courses:read', 'published-courses:write', 'courses:write', 'courses:read', 'domains:read']);
    const d2 = await t.app.get(DomainsService).create(decodeId('organization', org.organization_id)!, `second-${newUuid().slice(0, 8)}.example.test`);
    const domains = (await t.get('/v2/domains/', { token })).body.data;
    domainId = domains[0].id;
    domain2Id = encodeId('domain', d2.id);
  });
  afterAll(() => t?.close());

  it('401 without a token; 403 without the published-courses scopes on every operation', async () => {
    const id = encodeId('publishedCourse', newUuid());
    expect((await t.get(P)).status).toBe(401);
    const none = await t.tokenFor(org, ['courses:read']);
    const readOnly = await t.tokenFor(org, ['published-courses:read']);
    for (const [method, path, tok] of [
      ['GET', P, none],
      ['GET', `${P}${id}`, none],
      ['POST', P, readOnly],
      ['PATCH', P, readOnly],
      ['DELETE', `${P}${id}`, readOnly],
      ['POST', `${P}${id}/publish/`, readOnly],
      ['POST', `${P}${id}/unpublish/`, readOnly],
    ]) {
      const res = await t.request(method, path, { token: tok, body: method === 'POST' && path === P ? { data: [publish('x', 'y')] } : method === 'PATCH' ? { data: [update('x', {})] } : undefined });
      expect([method, path, res.status, res.body.errors?.[0]?.code]).toEqual([method, path, 403, 'forbidden']);
    }
  });

  it('publish batch: defaults, explicit settings and slug, per-item not_found / already_published / duplicate_in_batch / validation_error (207); the /v1 read sees the same row', async () => {
    const [a, b, c, d, e, f, g] = await courses(token, ['Intro to Safety', 'Intro to Safety', 'Advanced', 'D', 'E', 'F', 'G']);
    const res = await t.post(
      P,
      {
        data: [
          publish(a, domainId),
          publish(b, domainId, {
            is_hidden: true,
            visible_on_catalog: true,
            visibility_override_type: 'CATEGORY',
            access_period_starts_at: '2027-01-01T00:00:00Z',
            access_period_ends_at: '2027-02-01T00:00:00+01:00',
            unique_progress_per_enrollment: false,
          }),
          publish(c, domainId, { slug: 'advanced-course' }),
          publish(a, domainId),
          publish(encodeId('course', newUuid()), domainId),
          publish(d, encodeId('domain', newUuid())),
          publish(d, domainId, { slug: 'Not A Slug' }),
          publish(e, domainId, { slug: 'advanced-course' }),
          publish(f, domainId, { access_period_starts_at: '2027-02-01T00:00:00Z', access_period_ends_at: '2027-01-01T00:00:00Z' }),
          publish(g, domainId, { live: true }),
        ],
      },
      { token },
    );
    expect(res.status).toBe(207);
    const summary = res.body.data.map((x: any) => (x.status === 'failed' ? `${x.error.code} ${x.error.source.pointer}` : x.status));
    expect(summary).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'duplicate_in_batch /data/3/relationships/course/data/id',
      'not_found /data/4/relationships/course/data/id',
      'not_found /data/5/relationships/domain/data/id',
      'validation_error /data/6/attributes/slug',
      'validation_error /data/7/attributes/slug',
      'validation_error /data/8/attributes/access_period_ends_at',
      'validation_error /data/9/attributes/live',
    ]);
    const [ra, rb, rc] = res.body.data.map((x: any) => x.result);
    expect(ra).toEqual({
      type: 'published-courses',
      id: expect.stringMatching(/^pcs[0-9a-z]{25}$/),
      attributes: {
        external_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        slug: 'intro-to-safety',
        live: true,
        is_hidden: false,
        visible_on_catalog: false,
        open_access: false,
        strict_enforce_group_visibility: false,
        visibility_override_type: 'GROUP',
        access_period_starts_at: null,
        access_period_ends_at: null,
        restrict_access_start_end_dates: false,
        allow_self_service_reenroll: false,
        unique_progress_per_enrollment: true,
        require_all_prerequisites: true,
        created_at: expect.any(String),
        modified_at: expect.any(String),
      },
      relationships: { course: { data: { type: 'courses', id: a } }, domain: { data: { type: 'domains', id: domainId } } },
      links: { self: `${t.baseUrl}/v2/published-courses/${ra.id}` },
    });
    // the same title on the same domain gets the next free slug
    expect(rb.attributes).toMatchObject({
      slug: 'intro-to-safety-2',
      is_hidden: true,
      visible_on_catalog: true,
      visibility_override_type: 'CATEGORY',
      access_period_starts_at: '2027-01-01T00:00:00.000Z',
      access_period_ends_at: '2027-01-31T23:00:00.000Z',
      unique_progress_per_enrollment: false,
    });
    expect(rc.attributes.slug).toBe('advanced-course');
    // one row, two interfaces: /v1 shows the access window as its registration window
    const v1 = await t.get(`/v1/domains/${org.domain_name}/published-courses/${rb.id}`, { basic: org.api_key });
    expect(v1.body).toMatchObject({ id: rb.id, slug: 'intro-to-safety-2', hidden: true, registration_starts_at: '2027-01-01T00:00:00.000Z' });

    // publishing a live pair again is already_published, and changes nothing
    const again = await t.post(P, { data: [publish(a, domainId), publish(a, domain2Id)] }, { token });
    expect(again.status).toBe(207);
    expect(again.body.data[0].error).toEqual({ code: 'already_published', detail: expect.any(String), source: { pointer: '/data/0/relationships/course/data/id' } });
    expect(again.body.data[1].status).toBe('succeeded');
    expect(again.body.data[1].result.attributes.slug).toBe('intro-to-safety');
  });

  it('the envelope: empty, over BATCH_MAX_ITEMS or not an object is 400; an item without relationships is a validation_error', async () => {
    for (const body of [{ data: [] }, { data: Array.from({ length: 11 }, () => publish('x', 'y')) }, { data: 'x' }]) {
      const res = await t.post(P, body, { token });
      expect(res.status).toBe(400);
    }
    const res = await t.post(P, { data: [{ type: 'published-courses' }, { type: 'courses', relationships: {} }] }, { token });
    expect(res.status).toBe(207);
    expect(res.body.data.map((x: any) => `${x.error.code} ${x.error.source.pointer}`)).toEqual(['validation_error /data/0/relationships', 'validation_error /data/1/type']);
  });

  it('publishing the same course to a domain in parallel: exactly one succeeds (the domain lock), the others are already_published', async () => {
    const [c] = await courses(token, ['Parallel']);
    const results = await Promise.all(Array.from({ length: 6 }, () => t.post(P, { data: [publish(c, domainId)] }, { token })));
    const codes = results.map((r) => (r.status === 200 ? 'ok' : r.body.data[0].error.code)).sort();
    expect(codes).toEqual(['already_published', 'already_published', 'already_published', 'already_published', 'already_published', 'ok']);
    const rows = await t.ds.query(`SELECT count(*)::int AS n FROM published_courses WHERE course_id = $1 AND unpublished_at IS NULL`, [decodeId('course', c)]);
    expect(rows[0].n).toBe(1);
  });

  it('update batch: settings only (slug, course, domain refused), null clears a window bound and leaves a boolean; not_found for malformed, unknown, foreign ids; one UPDATE for the batch', async () => {
    const [c1, c2] = await courses(token, ['Upd one', 'Upd two']);
    const made = await t.post(P, { data: [publish(c1, domainId, { access_period_starts_at: '2027-01-01T00:00:00Z' }), publish(c2, domainId)] }, { token });
    const [p1, p2] = made.body.data.map((x: any) => x.id);
    const other = await t.newOrg();
    const otherToken = await t.tokenFor(other, ['published-courses:write', 'courses:write', 'domains:read']);
    const [oc] = await courses(otherToken, ['Theirs']);
    const od = (await t.get('/v2/domains/', { token: otherToken })).body.data[0].id;
    const foreign = (await t.post(P, { data: [publish(oc, od)] }, { token: otherToken })).body.data[0].id;

    const { result: res, count } = await countQueries(() =>
      t.patch(
        P,
        {
          data: [
            update(p1, { is_hidden: true, open_access: null, access_period_starts_at: null, require_all_prerequisites: false }),
            update(p2, { visibility_override_type: 'CATEGORY', allow_self_service_reenroll: true }),
            update(foreign, { is_hidden: true }),
            update('pcs-bad', { is_hidden: true }),
            update(p1, { slug: 'new-slug' }),
            update(p2, { visibility_override_type: 'EVERYONE' }),
          ],
        },
        { token },
      ),
    );
    expect(res.status).toBe(207);
    expect(res.body.data.map((x: any) => (x.status === 'failed' ? `${x.error.code} ${x.error.source.pointer}` : x.status))).toEqual([
      'succeeded',
      'succeeded',
      'not_found /data/2/id',
      'not_found /data/3/id',
      'validation_error /data/4/attributes/slug',
      'validation_error /data/5/attributes/visibility_override_type',
    ]);
    expect(res.body.data[0].result.attributes).toMatchObject({ is_hidden: true, open_access: false, access_period_starts_at: null, require_all_prerequisites: false });
    expect(res.body.data[1].result.attributes).toMatchObject({ visibility_override_type: 'CATEGORY', allow_self_service_reenroll: true });
    const theirs = await t.get(`${P}${foreign}`, { token: await t.tokenFor(other, ['published-courses:read']) });
    expect(theirs.body.data.attributes.is_hidden).toBe(false);
    expect(count).toBeLessThanOrEqual(6); // token check, one UPDATE, one re-read (plus transaction statements)
  });

  it('unpublish frees the slug and keeps the row (live=false); republish takes its slug back or the next free one; refused (400) while the course is live there again; delete is the /v1 soft unpublish', async () => {
    const [c] = await courses(token, ['Cycle Course']);
    const first = (await t.post(P, { data: [publish(c, domainId)] }, { token })).body.data[0].result;
    expect(first.attributes.slug).toBe('cycle-course');

    const off = await t.post(`${P}${first.id}/unpublish/`, undefined, { token });
    expect(off.status).toBe(200);
    expect(off.body.data.attributes).toMatchObject({ live: false, slug: 'cycle-course' });
    expect((await t.get(`/v1/domains/${org.domain_name}/published-courses/${first.id}`, { basic: org.api_key })).status).toBe(404);
    expect((await t.post(`${P}${first.id}/unpublish/`, undefined, { token })).body.data.attributes.live).toBe(false);

    // the slug is free: a new publication of the same course takes it
    const second = (await t.post(P, { data: [publish(c, domainId)] }, { token })).body.data[0].result;
    expect(second.attributes.slug).toBe('cycle-course');
    const refused = await t.post(`${P}${first.id}/publish/`, undefined, { token });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].code).toBe('already_published');

    // delete = soft unpublish; the first one can now come back, under the next free slug if its own is taken
    const [other] = await courses(token, ['Other']);
    await t.post(P, { data: [publish(other, domainId, { slug: 'cycle-course-x' })] }, { token });
    expect((await t.delete(`${P}${second.id}`, { token })).status).toBe(204);
    expect((await t.get(`${P}${second.id}`, { token })).body.data.attributes.live).toBe(false);
    const taken = (await t.post(P, { data: [publish(other, domain2Id, { slug: 'cycle-course' })] }, { token })).body.data[0];
    expect(taken.status).toBe('succeeded'); // another domain: no clash
    const back = await t.post(`${P}${first.id}/publish/`, undefined, { token });
    expect(back.status).toBe(200);
    expect(back.body.data.attributes).toMatchObject({ live: true, slug: 'cycle-course' });
    expect((await t.get(`/v1/domains/${org.domain_name}/published-courses/${first.id}`, { basic: org.api_key })).status).toBe(200);
    // second cannot come back while first is live
    expect((await t.post(`${P}${second.id}/publish/`, undefined, { token })).status).toBe(400);
    // foreign / unknown / malformed ids: 404 on every by-id operation
    for (const id of [encodeId('publishedCourse', newUuid()), 'nope']) {
      for (const [method, path] of [
        ['GET', `${P}${id}`],
        ['DELETE', `${P}${id}`],
        ['POST', `${P}${id}/publish/`],
        ['POST', `${P}${id}/unpublish/`],
      ]) {
        expect([method, path, (await t.request(method, path, { token })).status]).toEqual([method, path, 404]);
      }
    }
  });

  it('list: both live and unpublished by default, filter[live], filter[domain], filter[course] (unknown ids match nothing, bad boolean 422), include=course,domain, cursor pages', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o, ['published-courses:read', 'published-courses:write', 'courses:write', 'domains:read']);
    const d1 = (await t.get('/v2/domains/', { token: tok })).body.data[0].id;
    const d2 = encodeId('domain', (await t.app.get(DomainsService).create(decodeId('organization', o.organization_id)!, `l-${newUuid().slice(0, 8)}.example.test`)).id);
    const [c1, c2] = await courses(tok, ['L one', 'L two']);
    const made = await t.post(P, { data: [publish(c1, d1), publish(c2, d1), publish(c1, d2)] }, { token: tok });
    const ids: string[] = made.body.data.map((x: any) => x.id);
    await t.post(`${P}${ids[1]}/unpublish/`, undefined, { token: tok });
    const get = async (q: string) => {
      const r = await t.get(`${P}${q}`, { token: tok });
      expect(r.status).toBe(200);
      return r.body;
    };
    const sorted = [...ids].sort((x, y) => (decodeId('publishedCourse', x)! < decodeId('publishedCourse', y)! ? -1 : 1));
    expect((await get('')).data.map((x: any) => x.id)).toEqual(sorted);
    expect((await get('?filter[live]=false')).data.map((x: any) => x.id)).toEqual([ids[1]]);
    expect((await get('?filter[live]=true')).data).toHaveLength(2);
    expect((await get(`?filter[domain]=${d2}`)).data.map((x: any) => x.id)).toEqual([ids[2]]);
    expect((await get(`?filter[course]=${c1}&filter[domain]=${d1}`)).data.map((x: any) => x.id)).toEqual([ids[0]]);
    expect((await get(`?filter[course]=${encodeId('course', newUuid())}`)).data).toEqual([]);
    expect((await get('?filter[domain]=garbage')).data).toEqual([]);
    expect((await get(`?filter[domain]=${domainId}`)).data).toEqual([]); // another organization's domain
    expect((await t.get(`${P}?filter[live]=yes`, { token: tok })).status).toBe(422);
    expect((await t.get(`${P}?include=offer`, { token: tok })).status).toBe(422);

    const inc = await get(`?include=course,domain&filter[course]=${c1}`);
    expect(inc.included.map((x: any) => `${x.type} ${x.id}`).sort()).toEqual([`courses ${c1}`, `domains ${d1}`, `domains ${d2}`].sort());
    expect(inc.included.find((x: any) => x.type === 'courses').attributes).toMatchObject({ title: 'L one', is_published: true });

    const page1 = await get('?page[size]=2');
    expect(page1.has_more).toBe(true);
    const page2 = await get(`?page[size]=2&page[cursor]=${encodeURIComponent(page1.next_cursor)}`);
    expect([...page1.data, ...page2.data].map((x: any) => x.id)).toEqual(sorted);
    expect(page2.has_more).toBe(false);
    // another organization lists none of these
    expect((await t.get(P, { token })).body.data.some((x: any) => ids.includes(x.id))).toBe(false);
  });
});

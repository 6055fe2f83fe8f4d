import { encodeId } from '../../src/core/ids/ids';
import { startTestApp, TestApp } from '../support/app';
import { domainOf } from '../support/fixtures';
import { journey } from '../support/learner-journey';
import { checkV1UpdatedSince } from '../support/updated-since';

/**
 * `updated_since` on the commerce lists (docs/decisions/data-out.md, issue 32 point 1): license
 * packages and their seats, offers, promo codes and training credit codes take the changed rows
 * only, ordered by last change across pages, refuse a bad time with 400, and are served by their
 * (…, updated_at, id) index. Promo code pools and a pool's offers: v1-resource-updated-since.e2e-spec.ts.
 */
jest.setTimeout(120_000);

describe('commerce lists: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const created = (r: { status: number; body: any }) => {
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const ok = (r: { status: number; text: string }) => expect({ status: r.status, text: r.status === 200 ? '' : r.text }).toEqual({ status: 200, text: '' });

  it('/v1/license-packages and /v1/license-packages/{id}/students', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const domainId = encodeId('domain', (await domainOf(t, o)).uuid);
    const pkg = async (name: string) => created(await t.post('/v1/license-packages', { domain_id: domainId, name, license_count: 5 }, auth));
    await checkV1UpdatedSince(t, {
      url: '/v1/license-packages',
      auth,
      made: [await pkg('One'), await pkg('Two'), await pkg('Three')],
      change: async (id) => ok(await t.patch(`/v1/license-packages/${id}`, { name: `Renamed ${id}` }, auth)),
      statement: /FROM license_packages x WHERE .*ORDER BY x\.updated_at/,
      index: 'license_packages_org_updated_idx',
    });

    const p = await pkg('Seats');
    const j = journey(t, o);
    const students: string[] = [];
    const seats: string[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await j.learner();
      students.push(s.id);
      seats.push(created(await t.post(`/v1/license-packages/${p}/students`, { student: { id: s.id } }, auth)));
    }
    await checkV1UpdatedSince(t, {
      url: `/v1/license-packages/${p}/students`,
      auth,
      made: seats as [string, string, string],
      change: async (seat) => ok(await t.request('PUT', `/v1/license-packages/${p}/students/${students[seats.indexOf(seat)]}`, { ...auth, body: { active: false } })),
      statement: /FROM license_seats s JOIN users u .*ORDER BY s\.updated_at/s,
      index: 'license_seats_package_updated_idx',
    });
  });

  it('/v1/offers', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const j = journey(t, o);
    const offer = async () => (await t.get(`/v1/domains/${o.domain_name}/published-courses/${(await j.course([{}])).publishedCourseId}`, auth)).body.offer.id as string;
    await checkV1UpdatedSince(t, {
      url: '/v1/offers',
      auth,
      made: [await offer(), await offer(), await offer()],
      change: async (id) => ok(await t.patch(`/v1/offers/${id}`, { price_cents: 1234 }, auth)),
      statement: /FROM offers o.*ORDER BY o\.updated_at/s,
      index: 'offers_org_updated_idx',
    });
  });

  it('/v1/promo-codes', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const pool = created(await t.post('/v1/promo-code-pools', { name: 'P', starts_at: '2026-01-01T00:00:00Z', discount_type: 'PERCENT_OFF', percent_off: 10 }, auth));
    const code = async (c: string) => created(await t.post('/v1/promo-codes', { code: c, max_uses: 5, promo_code_pool_id: pool }, auth));
    await checkV1UpdatedSince(t, {
      url: '/v1/promo-codes',
      auth,
      made: [await code('ONE'), await code('TWO'), await code('THREE')],
      change: async (id) => ok(await t.patch(`/v1/promo-codes/${id}`, { active: false }, auth)),
      statement: /FROM promo_codes WHERE .*ORDER BY updated_at/,
      index: 'promo_codes_org_updated_idx',
    });
  });

  it('/v1/training-credit-codes', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const code = async (c: string) => created(await t.post('/v1/training-credit-codes', { training_credit_code: c, credits_total: 10 }, auth));
    await checkV1UpdatedSince(t, {
      url: '/v1/training-credit-codes',
      auth,
      made: [await code(`TC-${o.organization_id}-1`), await code(`TC-${o.organization_id}-2`), await code(`TC-${o.organization_id}-3`)],
      change: async (id) => ok(await t.patch(`/v1/training-credit-codes/${id}`, { credits_total: 20 }, auth)),
      statement: /FROM training_credit_codes WHERE .*ORDER BY updated_at/,
      index: 'training_credit_codes_org_updated_idx',
    });
  });
});

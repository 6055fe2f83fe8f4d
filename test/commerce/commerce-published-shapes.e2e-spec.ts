import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { load } from 'js-yaml';
import { encodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { domainOf } from '../support/fixtures';
import { journey } from '../support/learner-journey';

jest.setTimeout(120_000);

/**
 * Existing clients of the commerce families keep working (issue 11 "Done when"): every published
 * path and method of /v1 offers, promo-code-pools (+ offers), promo-codes, training-credit-codes,
 * purchases and license-packages (+ students) is served and in GET /openapi.json, and every answer,
 * called through HTTP, carries every member of its published response schema (recursively into
 * nested objects and list items); members beyond the schema are allowed (documented in
 * docs/decisions/commerce*.md).
 */
const REFERENCE = resolve(__dirname, '../reference/skilljar-v1-openapi.yml');
const FAMILY = /^\/v1\/(offers|promo-code-pools|promo-codes|training-credit-codes|purchases|license-packages)(\/|$)/;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Schema = { $ref?: string; allOf?: Schema[]; properties?: Record<string, Schema>; items?: Schema; type?: string; nullable?: boolean };
const doc = load(readFileSync(REFERENCE, 'utf8')) as { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };

/** A schema with $ref and allOf folded in. */
function flat(s: Schema | undefined): Schema {
  if (!s) return {};
  if (s.$ref) return flat(doc.components.schemas[s.$ref.split('/').pop()!]);
  if (s.allOf) {
    const out: Schema = { nullable: s.nullable };
    for (const part of s.allOf) {
      const f = flat(part);
      if (f.properties) out.properties = { ...(out.properties ?? {}), ...f.properties };
      if (f.items) out.items = f.items;
      if (f.type) out.type = f.type;
    }
    return out;
  }
  return s;
}

/** Published members missing from `body`, recursively (a null nested value counts as present). */
function missing(schema: Schema | undefined, body: unknown, at = ''): string[] {
  const s = flat(schema);
  if (body === null || body === undefined) return [];
  if (s.type === 'array' || s.items) return Array.isArray(body) ? body.flatMap((x, i) => missing(s.items, x, `${at}[${i}]`)) : [`${at} (not a list)`];
  if (!s.properties) return [];
  if (typeof body !== 'object' || Array.isArray(body)) return [`${at} (not an object)`];
  const out: string[] = [];
  for (const [k, sub] of Object.entries(s.properties)) {
    const here = at ? `${at}.${k}` : k;
    if (!(k in (body as Record<string, unknown>))) out.push(here);
    else out.push(...missing(sub, (body as Record<string, unknown>)[k], here));
  }
  return out;
}

/** The published success response schema of an operation. */
function published(path: string, method: string): { code: number; schema: Schema | undefined } {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`not published: ${method} ${path}`);
  const [code, resp] = Object.entries(op.responses as Record<string, any>).find(([c]) => c.startsWith('2'))!;
  return { code: Number(code), schema: resp.content?.['application/json']?.schema };
}

/**
 * Known gaps in files another engineer owns (issue 11, commerce limits), reported there; a gap not
 * listed here fails the test, a listed one that is fixed does not.
 * - promo-code pool offers show an OfferItem without max_quantity, active, starts_at, ends_at and
 *   linked_to_plan (promo-codes.offers.ts presentOfferItem; offers.presenter.ts has the full one);
 * - PATCH /v1/training-credit-codes/{id} answers student_groups and offers as the resulting id
 *   lists (as Retrieve does) where TrainingCreditCodesUpdate declares them {add, remove}.
 */
const KNOWN: Record<string, RegExp> = {
  'POST /v1/promo-code-pools/{promo_code_pool_id}/offers': /^offers\[\d+\]\.(max_quantity|active|starts_at|ends_at|linked_to_plan)$/,
  'GET /v1/promo-code-pools/{promo_code_pool_id}/offers': /^results\[\d+\]\.offers\[\d+\]\.(max_quantity|active|starts_at|ends_at|linked_to_plan)$/,
  'PATCH /v1/training-credit-codes/{training_credit_code_id}': /^(student_groups|offers) \(not an object\)$/,
};

const normalize = (p: string) => p.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '');

describe('commerce families: the published paths, methods and response members', () => {
  let t: TestApp;
  let org: CreatedOrg;
  const A = () => ({ basic: org.api_key });
  const seen = new Set<string>();

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  const publishedOps = () =>
    Object.entries(doc.paths)
      .filter(([p]) => FAMILY.test(p))
      .flatMap(([p, v]) => METHODS.filter((m) => v[m]).map((m) => `${m.toUpperCase()} ${p}`));

  it('every published path and method of the families is in the served GET /openapi.json', async () => {
    const served = (await t.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const servedOps = new Set(Object.entries(served.paths).flatMap(([p, v]) => METHODS.filter((m) => v[m]).map((m) => `${m.toUpperCase()} ${normalize(p)}`)));
    const ops = publishedOps();
    expect(ops.length).toBe(36);
    expect(ops.filter((o) => !servedOps.has(`${o.split(' ')[0]} ${normalize(o.split(' ')[1])}`))).toEqual([]);
    // the one operation beyond them, the storefront checkout, is marked as an extension and documents its body
    const checkout = (served.paths['/v1/purchases'] as Record<string, any>).post;
    expect(checkout['x-extension']).toBe(true);
    expect(checkout.description).toMatch(/^Extension \(not in the published API\): ./);
    expect(Object.keys(checkout.requestBody.content['application/json'].schema.properties).sort()).toEqual(
      ['offer_id', 'payment_processor', 'payment_processor_order_id', 'promo_code', 'quantity', 'tax_price_cents', 'training_credit_code', 'user'].sort(),
    );
    const published = new Set(ops.map((o) => `${o.split(' ')[0]} ${normalize(o.split(' ')[1])}`));
    expect([...servedOps].filter((o) => FAMILY.test(o.split(' ')[1]) && !published.has(o))).toEqual(['POST /v1/purchases']);
  });

  it('every published operation, called through HTTP, answers its published status and members', async () => {
    /** call `method url`, check status and members against the published operation `path` */
    const found: { op: string; missing: string[] }[] = [];
    const call = async (method: string, path: string, url: string, body?: unknown) => {
      const res = await t.request(method, url, { ...A(), body });
      const { code, schema } = published(path, method.toLowerCase());
      expect({ op: `${method} ${path}`, status: res.status, body: res.status === code ? undefined : res.body }).toEqual({ op: `${method} ${path}`, status: code, body: undefined });
      const gaps = missing(schema, res.body);
      if (gaps.length) found.push({ op: `${method} ${path}`, missing: gaps });
      seen.add(`${method} ${path}`);
      return res.body;
    };
    const j = journey(t, org);
    const c = await j.course([{}]);
    const offerId = (await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, A())).body.offer.id as string;
    const learner = await j.learner();
    const domainId = encodeId('domain', (await domainOf(t, org)).uuid);

    // offers
    await call('GET', '/v1/offers', '/v1/offers');
    await call('GET', '/v1/offers/{offer_id}', `/v1/offers/${offerId}`);
    await call('PUT', '/v1/offers/{offer_id}', `/v1/offers/${offerId}`, { price_cents: 2000, currency_code: 'USD' });
    await call('PATCH', '/v1/offers/{offer_id}', `/v1/offers/${offerId}`, { price_cents: 2500 });

    // promo code pools, their offers, promo codes
    const pool = await call('POST', '/v1/promo-code-pools', '/v1/promo-code-pools', { name: 'Shapes', starts_at: '2026-01-01T00:00:00Z', discount_type: 'PERCENT_OFF', percent_off: 10 });
    await call('GET', '/v1/promo-code-pools', '/v1/promo-code-pools');
    await call('GET', '/v1/promo-code-pools/{promo_code_pool_id}', `/v1/promo-code-pools/${pool.id}`);
    await call('PUT', '/v1/promo-code-pools/{promo_code_pool_id}', `/v1/promo-code-pools/${pool.id}`, { name: 'Shapes 2', starts_at: '2026-01-01T00:00:00Z' });
    await call('PATCH', '/v1/promo-code-pools/{promo_code_pool_id}', `/v1/promo-code-pools/${pool.id}`, { active: true });
    await call('POST', '/v1/promo-code-pools/{promo_code_pool_id}/offers', `/v1/promo-code-pools/${pool.id}/offers`, { id: offerId });
    await call('GET', '/v1/promo-code-pools/{promo_code_pool_id}/offers', `/v1/promo-code-pools/${pool.id}/offers`);
    const code = await call('POST', '/v1/promo-codes', '/v1/promo-codes', { code: 'SHAPES10', max_uses: 5, promo_code_pool_id: pool.id });
    await call('GET', '/v1/promo-codes', '/v1/promo-codes');
    await call('GET', '/v1/promo-codes/{promo_code_id}', `/v1/promo-codes/${code.id}`);
    await call('PUT', '/v1/promo-codes/{promo_code_id}', `/v1/promo-codes/${code.id}`, { code: 'SHAPES10', max_uses: 6 });
    await call('PATCH', '/v1/promo-codes/{promo_code_id}', `/v1/promo-codes/${code.id}`, { active: true });

    // training credit codes
    const tcc = await call('POST', '/v1/training-credit-codes', '/v1/training-credit-codes', {
      training_credit_code: 'SHAPES-CREDITS',
      credits_total: 5,
      available_to_all_students: true,
      available_for_all_offers: true,
    });
    await call('GET', '/v1/training-credit-codes', '/v1/training-credit-codes');
    await call('GET', '/v1/training-credit-codes/{training_credit_code_id}', `/v1/training-credit-codes/${tcc.id}`);
    await call('PATCH', '/v1/training-credit-codes/{training_credit_code_id}', `/v1/training-credit-codes/${tcc.id}`, { credits_total: 10 });

    // purchases (checkout is the storefront's operation, CONVENTIONS §11)
    const buy = await t.post('/v1/purchases', { user: { id: learner.id }, offer_id: offerId, promo_code: 'SHAPES10', training_credit_code: 'SHAPES-CREDITS' }, A());
    expect(buy.status).toBe(201);
    expect(missing(published('/v1/purchases/{purchase_id}', 'get').schema, buy.body)).toEqual([]);
    await call('GET', '/v1/purchases/{purchase_id}', `/v1/purchases/${buy.body.id}`);
    await call('PUT', '/v1/purchases/{purchase_id}', `/v1/purchases/${buy.body.id}`, { state: 'PENDING' });
    await call('POST', '/v1/purchases/{purchase_id}/fulfill', `/v1/purchases/${buy.body.id}/fulfill`, { state: 'SUCCESS' });
    await call('PATCH', '/v1/purchases/{purchase_id}', `/v1/purchases/${buy.body.id}`, { state: 'REFUNDED' });

    // license packages and their students
    const pkg = await call('POST', '/v1/license-packages', '/v1/license-packages', { domain_id: domainId, name: 'Shapes pkg', license_count: 2, offers: [offerId] });
    await call('GET', '/v1/license-packages', '/v1/license-packages');
    await call('GET', '/v1/license-packages/{license_package_id}', `/v1/license-packages/${pkg.id}`);
    await call('PATCH', '/v1/license-packages/{license_package_id}', `/v1/license-packages/${pkg.id}`, { license_count: 3 });
    const seat = await call('POST', '/v1/license-packages/{license_package_id}/students', `/v1/license-packages/${pkg.id}/students`, { student: { id: learner.id } });
    await call('GET', '/v1/license-packages/{license_package_id}/students', `/v1/license-packages/${pkg.id}/students`);
    await call('PUT', '/v1/license-packages/{license_package_id}/students/{student_id}', `/v1/license-packages/${pkg.id}/students/${seat.student.id}`, { active: false });
    await call('PATCH', '/v1/license-packages/{license_package_id}/students/{student_id}', `/v1/license-packages/${pkg.id}/students/${seat.student.id}`, { active: true });

    // the deletes
    await call('DELETE', '/v1/promo-code-pools/{promo_code_pool_id}/offers/{offer_id}', `/v1/promo-code-pools/${pool.id}/offers/${offerId}`);
    await call('DELETE', '/v1/promo-codes/{promo_code_id}', `/v1/promo-codes/${code.id}`);
    await call('DELETE', '/v1/promo-code-pools/{promo_code_pool_id}', `/v1/promo-code-pools/${pool.id}`);
    await call('DELETE', '/v1/license-packages/{license_package_id}', `/v1/license-packages/${pkg.id}`);

    expect(publishedOps().filter((o) => !seen.has(o))).toEqual([]);
    const unknown = found.map((f) => ({ op: f.op, missing: f.missing.filter((m) => !KNOWN[f.op]?.test(m)) })).filter((f) => f.missing.length);
    expect(unknown).toEqual([]);
  });

  it('the offer block answers in full wherever a published schema shows it (published course, published path, plan, course series)', async () => {
    const j = journey(t, org);
    const D = `/v1/domains/${org.domain_name}`;
    const offerSchema = doc.components.schemas.Offer;
    const c = await j.course([{}]);
    const pp = await j.path([c.publishedCourseId]);
    const plan = await t.post(`${D}/plan`, { name: 'Offer block plan', hidden: false, short_description: null }, A());
    const series = await t.post(`${D}/course-series`, { title: 'Offer block series', visible_on_catalog: true, published_courses: [{ id: c.publishedCourseId }] }, A());
    expect([plan.status, series.status]).toEqual([201, 201]);
    const answers: [string, any][] = [
      ['published course read', (await t.get(`${D}/published-courses/${c.publishedCourseId}`, A())).body],
      ['published course list', (await t.get(`${D}/published-courses`, A())).body.results.find((r: any) => r.id === c.publishedCourseId)],
      ['published path read', (await t.get(`${D}/published-paths/${pp.id}`, A())).body],
      ['published path list', (await t.get(`${D}/published-paths`, A())).body.results.find((r: any) => r.id === pp.id)],
      ['plan create', plan.body],
      ['plan read', (await t.get(`${D}/plan/${plan.body.id}`, A())).body],
      ['plan list', (await t.get(`${D}/plan`, A())).body.results.find((r: any) => r.id === plan.body.id)],
      ['course series create', series.body],
      ['course series read', (await t.get(`${D}/course-series/${series.body.id}`, A())).body],
      ['course series list', (await t.get(`${D}/course-series`, A())).body.results.find((r: any) => r.id === series.body.id)],
    ];
    for (const [what, body] of answers) {
      expect([what, body?.offer?.id]).toEqual([what, expect.stringMatching(/^ofr[0-9a-z]{25}$/)]);
      expect([what, missing(offerSchema, body.offer)]).toEqual([what, []]);
    }
  });
});

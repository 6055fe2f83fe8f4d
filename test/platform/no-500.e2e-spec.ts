import { startTestApp, TestApp } from '../support/app';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/**
 * A sweep over every operation of the generated OpenAPI document with malformed input: garbage path
 * ids, wrong-typed query parameters and hostile bodies, with full credentials. Whatever the
 * operation, bad input must be answered with a 4xx, never a 5xx.
 */
const BODIES: unknown[] = [
  {},
  [],
  'just a string',
  42,
  null,
  { data: 'x' },
  { data: [{}] },
  { data: [null, 1, 'x', [], { type: 'x', id: {}, attributes: [] }] },
  { name: { $gt: '' }, title: ['x'], email: 12, user: 'x', course: 5, label: null, attributes: 'x' },
  { name: 'x'.repeat(5000), slug: '../../etc', target_url: 'javascript:alert(1)', content_url: 'file:///etc/passwd' },
  { id: '\u0000', name: 'a\u0000b', order: 1e308, max_uses: -1, price: { amount: 'NaN' }, expires_at: 'not a date' },
  // lone surrogates (valid JSON, not Unicode; PostgreSQL refuses them), null where a string is expected, nested lists
  {
    title: 'a\ud800',
    name: '\udc00',
    short_description: 's',
    email: 'x\ud800@example.test',
    user: { email: '\ud800', first_name: '\udfff' },
    target_url: 'https://example.com/\ud800',
    additional_headers: { 'X-\ud800': 'v' },
    slug: '\ud800',
  },
  { content_url: null, users: [[]], labels: [[]], signup_fields: [[]], content_items: [[]], rule_email_domains: [[]], scope_codenames: [[]], data: [[]] },
];
/** Raw bodies: nesting far beyond the cap (3,000 levels), as JSON and as JSON:API. */
const DEEP = [
  '['.repeat(3000) + ']'.repeat(3000),
  '{"title":' + '{"a":'.repeat(3000) + '1' + '}'.repeat(3000) + '}',
  '{"data":[{"type":"x","attributes":' + '['.repeat(3000) + ']'.repeat(3000) + '}]}',
];
const HOSTILE_ATTRIBUTES: unknown[] = [
  {
    email: 'a\u0000@b.test',
    first_name: '\u0000',
    last_name: 'x',
    title: 't\u0000',
    name: 'n\u0000',
    course_id: '\u0000',
    type: 'HTML',
    content_html: '\u0000',
    published_course_id: '\u0000',
    is_visible: true,
  },
  {
    email: 12,
    first_name: [],
    title: {},
    name: 5,
    order: 1e308,
    rule_email_domains: 'x',
    category_id: 7,
    is_inactive: 'yes',
    is_visible: 'no',
    content_items: [{ type: 'HTML', content_html: '\u0000' }],
  },
  { title: 'x'.repeat(100_000), short_description: 'y'.repeat(50_000), created_by_email: 'nobody\u0000@x' },
  { email: 'a\ud800@b.test', first_name: '\udc00', last_name: 'x', title: 't\ud800', name: '\ud800n', type: 'HTML', content_html: '\ud800', content_items: [[]], rule_email_domains: [[]] },
];
const QUERIES = [
  '',
  '?page=abc&page_size=-5',
  '?page[size]=0&page[cursor]=garbage',
  '?filter[type]=NOPE&filter[updated_since]=yesterday&filter[is_inactive]=maybe',
  '?page=99999999999999999999&search=%00',
];
const IDS = ['x', '0', 'stu_AAAAAAAAAAAAAAAAAAAAAA', '..%2F..', 'a'.repeat(90), '%00'];

describe('no bad input reaches a 5xx', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  const ops: { method: string; path: string }[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
    const doc = (await t.get('/openapi.json')).body;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of Object.keys(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        if (path.startsWith('/health') || path.startsWith('/docs') || path.startsWith('/files')) continue;
        ops.push({ method: method.toUpperCase(), path });
      }
    }
  });
  afterAll(() => t.close());

  it('covers the /v1 and /v2 operations', () => {
    expect(ops.length).toBeGreaterThan(100);
    expect(ops.some((o) => o.path.startsWith('/v1/'))).toBe(true);
    expect(ops.some((o) => o.path.startsWith('/v2/'))).toBe(true);
  });

  it('answers malformed requests to every operation with a 4xx', async () => {
    const failures: string[] = [];
    for (const op of ops) {
      const auth = op.path.startsWith('/v1/') ? { basic: org.api_key } : { token };
      const paths = IDS.map((id) => op.path.replace(/\{domain_name\}/g, org.domain_name).replace(/\{[^}]+\}/g, encodeURIComponent(id)));
      const tries: { path: string; body?: unknown; raw?: { contentType: string; data: string } }[] = [];
      for (const p of paths.slice(0, 3)) for (const q of QUERIES.slice(0, op.method === 'GET' ? QUERIES.length : 1)) tries.push({ path: p + q });
      if (op.method !== 'GET' && op.method !== 'DELETE') for (const body of BODIES) tries.push({ path: paths[0], body });
      if (op.method !== 'GET') {
        DEEP.forEach((data, i) => tries.push({ path: paths[0], raw: { contentType: ['application/json', 'application/vnd.api+json', 'application/merge-patch+json'][i], data } }));
      }
      if (op.method === 'DELETE') tries.push({ path: paths[0], body: { data: [{ type: 'x', id: 5 }] } });
      // /v2 batch items of the right type whose members are hostile, so they get past the envelope
      const type = /^\/v2\/(students|courses|lessons|groups)\/?$/.exec(op.path)?.[1] ?? (op.path.includes('published-course-visibility') ? 'visibility-overrides' : undefined);
      if (type && op.method !== 'GET') {
        for (const attributes of HOSTILE_ATTRIBUTES)
          tries.push({
            path: paths[0],
            body: {
              data: [
                { type, id: '\u0000', attributes },
                { type, id: 5, attributes },
              ],
            },
          });
      }
      for (const tr of tries) {
        const res = await t.request(op.method, tr.path, { ...auth, body: tr.body, raw: tr.raw });
        if (res.status >= 500) failures.push(`${op.method} ${tr.path} ${(tr.raw?.data ?? JSON.stringify(tr.body))?.slice(0, 80)} -> ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);
});

import { randomBytes } from 'node:crypto';
import { decodeId, encodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import type { HttpResponse, TestApp } from './app';

/**
 * Rows that no /v2 endpoint creates (domains, published courses, enrollments, certificates,
 * ratings), and quick inserts for others, written with SQL into the test's own database; plans,
 * course series, group categories and signup fields go through their /v1 routes (the
 * administrative writes, CONVENTIONS §15). Every helper returns internal uuids and public ids.
 */
export const orgUuid = (org: CreatedOrg) => decodeId('organization', org.organization_id)!;
const rnd = () => randomBytes(4).toString('hex');

async function one(t: TestApp, sql: string, params: unknown[]): Promise<any> {
  const rows = await t.ds.query(sql, params);
  return rows[0];
}

export async function domainOf(t: TestApp, org: CreatedOrg): Promise<{ uuid: string; name: string }> {
  const row = await one(t, `SELECT id, name FROM domains WHERE organization_id = $1 ORDER BY created_at LIMIT 1`, [orgUuid(org)]);
  return { uuid: row.id, name: row.name };
}

export async function insertDomain(t: TestApp, org: CreatedOrg, name = `d-${rnd()}.test`, access = 'PUBLIC') {
  const row = await one(t, `INSERT INTO domains (organization_id, name, access) VALUES ($1, $2, $3) RETURNING id, name`, [orgUuid(org), name, access]);
  return { uuid: row.id as string, name: row.name as string, id: encodeId('domain', row.id) };
}

export async function insertStudent(t: TestApp, org: CreatedOrg, attrs: { email?: string; first_name?: string; last_name?: string; is_inactive?: boolean; sso_provider?: string | null } = {}) {
  const row = await one(t, `INSERT INTO users (organization_id, email, first_name, last_name, is_inactive, sso_provider) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, [
    orgUuid(org),
    attrs.email ?? `s-${rnd()}@example.test`,
    attrs.first_name ?? 'Stu',
    attrs.last_name ?? 'Dent',
    attrs.is_inactive ?? false,
    attrs.sso_provider ?? null,
  ]);
  return { uuid: row.id as string, id: encodeId('student', row.id) };
}

export async function insertCourse(t: TestApp, org: CreatedOrg, attrs: { title?: string; is_draft?: boolean; deleted?: boolean } = {}) {
  const row = await one(t, `INSERT INTO courses (organization_id, title, is_draft, deleted_at) VALUES ($1, $2, $3, $4) RETURNING id`, [
    orgUuid(org),
    attrs.title ?? `Course ${rnd()}`,
    attrs.is_draft ?? false,
    attrs.deleted ? new Date() : null,
  ]);
  return { uuid: row.id as string, id: encodeId('course', row.id) };
}

export async function publishCourse(t: TestApp, org: CreatedOrg, courseUuid: string, domainUuid?: string, attrs: { is_hidden?: boolean } = {}) {
  const domain = domainUuid ?? (await domainOf(t, org)).uuid;
  const row = await one(t, `INSERT INTO published_courses (organization_id, course_id, domain_id, slug, is_hidden) VALUES ($1, $2, $3, $4, $5) RETURNING id`, [
    orgUuid(org),
    courseUuid,
    domain,
    `c-${rnd()}`,
    attrs.is_hidden ?? false,
  ]);
  return { uuid: row.id as string, id: encodeId('publishedCourse', row.id), domainUuid: domain };
}

export async function enroll(
  t: TestApp,
  org: CreatedOrg,
  userUuid: string,
  published: { uuid: string },
  attrs: { started?: boolean; completed?: boolean; enrolled_at?: Date; expires_at?: Date | null; active?: boolean } = {},
) {
  const pc = await one(t, `SELECT course_id FROM published_courses WHERE id = $1`, [published.uuid]);
  const row = await one(
    t,
    `INSERT INTO enrollments (organization_id, user_id, published_course_id, course_id, enrolled_at, expires_at, active, started_at, completed_at)
     VALUES ($1, $2, $3, $4, COALESCE($5, date_trunc('milliseconds', now())), $6, $7, $8, $9) RETURNING id`,
    [
      orgUuid(org),
      userUuid,
      published.uuid,
      pc.course_id,
      attrs.enrolled_at ?? null,
      attrs.expires_at ?? null,
      attrs.active ?? true,
      attrs.started || attrs.completed ? new Date() : null,
      attrs.completed ? new Date() : null,
    ],
  );
  return { uuid: row.id as string, id: encodeId('enrollment', row.id) };
}

export async function rate(t: TestApp, org: CreatedOrg, courseUuid: string, userUuid: string, rating: number, attrs: { feedback?: string; created_at?: Date; enrollment_uuid?: string } = {}) {
  const row = await one(
    t,
    `INSERT INTO course_ratings (organization_id, course_id, user_id, enrollment_id, rating, feedback, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7, date_trunc('milliseconds', now()))) RETURNING id`,
    [orgUuid(org), courseUuid, userUuid, attrs.enrollment_uuid ?? null, rating, attrs.feedback ?? null, attrs.created_at ?? null],
  );
  return { uuid: row.id as string, id: encodeId('rating', row.id) };
}

export async function issueCertificate(
  t: TestApp,
  org: CreatedOrg,
  userUuid: string,
  courseUuid: string,
  attrs: { published_uuid?: string; domain_uuid?: string; issued_at?: Date; expires_at?: Date | null; score?: number } = {},
) {
  const row = await one(
    t,
    `INSERT INTO certificates (organization_id, user_id, course_id, published_course_id, domain_id, code, issued_at, expires_at, score_as_percent)
     VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7, date_trunc('milliseconds', now())), $8, $9) RETURNING id`,
    [orgUuid(org), userUuid, courseUuid, attrs.published_uuid ?? null, attrs.domain_uuid ?? null, `CERT-${rnd()}${rnd()}`, attrs.issued_at ?? null, attrs.expires_at ?? null, attrs.score ?? null],
  );
  return { uuid: row.id as string, id: encodeId('certificate', row.id) };
}

/** A group category, through POST /v1/group-categories. */
export async function insertGroupCategory(t: TestApp, org: CreatedOrg, name = `Category ${rnd()}`) {
  const c = await v1(t, org, 'POST', '/v1/group-categories', { name });
  return { uuid: decodeId('groupCategory', c.id)!, id: c.id as string };
}

export async function insertLesson(
  t: TestApp,
  org: CreatedOrg,
  courseUuid: string,
  attrs: { title?: string; type?: string; order?: number; is_draft?: boolean; deleted?: boolean; updated_at?: Date; content_html?: string | null } = {},
) {
  const row = await one(
    t,
    `INSERT INTO lessons (organization_id, course_id, title, type, "order", is_draft, deleted_at, content_html, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9, date_trunc('milliseconds', now()))) RETURNING id`,
    [
      orgUuid(org),
      courseUuid,
      attrs.title ?? `Lesson ${rnd()}`,
      attrs.type ?? 'HTML',
      attrs.order ?? 0,
      attrs.is_draft ?? false,
      attrs.deleted ? new Date() : null,
      attrs.content_html ?? '<p>x</p>',
      attrs.updated_at ?? null,
    ],
  );
  return { uuid: row.id as string, id: encodeId('lesson', row.id) };
}

/**
 * The authentication's own lookups (the API key by its hash, the client and the family of a token,
 * a revoked token): at most one set per request, and only when the authentication cache
 * (AUTH_CACHE_SECONDS) has lapsed, which on a loaded machine depends on the clock, not on the
 * request. `countQueries` leaves them out of `count` (they stay in `statements`).
 */
const AUTH_LOOKUP = /\bFROM (api_keys|oauth_clients|token_families|revoked_access_tokens) WHERE\b/;

/** Count the SQL statements the process sends to PostgreSQL while `fn` runs (every pg client query but the authentication's lookups: AUTH_LOOKUP). */
export async function countQueries<T>(fn: () => Promise<T>): Promise<{ result: T; count: number; statements: string[]; params: unknown[][] }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pg = require('pg');
  const proto = pg.Client.prototype;
  const original = proto.query;
  const statements: string[] = [];
  const params: unknown[][] = [];
  proto.query = function (this: unknown, ...args: any[]) {
    const q = args[0];
    statements.push(typeof q === 'string' ? q : (q?.text ?? String(q)));
    params.push(Array.isArray(args[1]) ? args[1] : (q?.values ?? []));
    return original.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, count: statements.filter((q) => !AUTH_LOOKUP.test(q)).length, statements, params };
  } finally {
    proto.query = original;
  }
}

/**
 * The plan of the statement `match` picks among those a request sent (`countQueries`' record), with
 * sequential scans off: only what an index can serve is left, so a plan that names the index shows
 * the index can serve the statement (the list tests' EXPLAIN check).
 */
export async function planOf(
  t: { ds: import('typeorm').DataSource },
  run: { statements: string[]; params: unknown[][] },
  match: RegExp,
  opts: { /** explicit sorts off too: the plan must take the statement's order from an index */ indexOrder?: boolean } = {},
): Promise<string> {
  const i = run.statements.findIndex((s) => match.test(s));
  expect({ match: String(match), found: i >= 0 }).toEqual({ match: String(match), found: true });
  const qr = t.ds.createQueryRunner();
  try {
    await qr.query('SET enable_seqscan = off');
    if (opts.indexOrder) await qr.query('SET enable_sort = off');
    return (await qr.query(`EXPLAIN ${run.statements[i]}`, run.params[i])).map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
  } finally {
    await qr.query('RESET enable_sort');
    await qr.query('RESET enable_seqscan');
    await qr.release();
  }
}

/** Every item of a /v2 list, following `links.next` from `first` with `token` (each page must answer 200). */
export async function v2Pages(t: TestApp, first: string, token: string): Promise<any[]> {
  const out: any[] = [];
  let url: string | null = first;
  while (url) {
    const res: HttpResponse = await t.get(url.replace(t.baseUrl, ''), { token });
    expect(res.status).toBe(200);
    out.push(...res.body.data);
    url = res.body.links.next;
  }
  return out;
}

// --- paths, plans, course series, access codes (v1-paths-plans-codes) ---

/** A /v1 call with the organization's API key that must succeed; its body. */
async function v1(t: TestApp, org: CreatedOrg, method: string, path: string, body?: unknown): Promise<any> {
  const r = await t.request(method, path, { basic: org.api_key, body });
  if (r.status >= 300) throw new Error(`fixture ${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.body;
}

async function domainName(t: TestApp, org: CreatedOrg, domainUuid: string): Promise<string> {
  return (await one(t, `SELECT name FROM domains WHERE id = $1 AND organization_id = $2`, [domainUuid, orgUuid(org)])).name;
}

/**
 * A plan on a domain, through POST /v1/domains/{domain_name}/plan (the administrative writes), with
 * its offer (priced through PATCH /v1/offers/{id} when `price_cents` is given) and the published
 * courses it grants (public ids). `offer` is ignored: every plan has its offer.
 */
export async function insertPlan(
  t: TestApp,
  org: CreatedOrg,
  domainUuid: string,
  attrs: { name?: string; slug?: string; hidden?: boolean; short_description?: string | null; offer?: boolean; price_cents?: number | null; published_courses?: string[] } = {},
) {
  const dn = await domainName(t, org, domainUuid);
  const plan = await v1(t, org, 'POST', `/v1/domains/${dn}/plan`, {
    name: attrs.name ?? `Plan ${rnd()}`,
    slug: attrs.slug,
    hidden: attrs.hidden ?? false,
    short_description: attrs.short_description ?? null,
    published_courses: attrs.published_courses?.map((id) => ({ id })),
  });
  if (attrs.price_cents !== undefined && attrs.price_cents !== null) await v1(t, org, 'PATCH', `/v1/offers/${plan.offer.id}`, { price_cents: attrs.price_cents });
  return { uuid: decodeId('plan', plan.id)!, id: plan.id as string, offerId: plan.offer.id as string };
}

/** A course series on a domain holding the given published courses in that order, through POST /v1/domains/{domain_name}/course-series. */
export async function insertCourseSeries(
  t: TestApp,
  org: CreatedOrg,
  domainUuid: string,
  publishedCourseUuids: string[] = [],
  attrs: { title?: string; visible_on_catalog?: boolean; offer?: boolean } = {},
) {
  const dn = await domainName(t, org, domainUuid);
  const s = await v1(t, org, 'POST', `/v1/domains/${dn}/course-series`, {
    title: attrs.title ?? `Series ${rnd()}`,
    visible_on_catalog: attrs.visible_on_catalog ?? true,
    published_courses: publishedCourseUuids.map((u) => ({ id: encodeId('publishedCourse', u) })),
  });
  return { uuid: decodeId('courseSeries', s.id)!, id: s.id as string };
}

/** A signup field of a domain (by name), through POST /v1/domains/{domain_name}/signup-fields; answers the SignupField. */
export async function insertSignupField(
  t: TestApp,
  org: CreatedOrg,
  domain: string,
  attrs: { label?: string; type?: 'TEXT' | 'PICKLIST' | 'CHECKBOX'; options?: string[]; order?: number; required?: boolean } = {},
): Promise<{ id: string; uuid: string; label: string; options: { id: string; value: string }[] }> {
  const f = await v1(t, org, 'POST', `/v1/domains/${domain}/signup-fields`, {
    label: attrs.label ?? `Field ${rnd()}`,
    type: attrs.type ?? (attrs.options ? 'PICKLIST' : 'TEXT'),
    options: attrs.options?.map((value) => ({ value })),
    order: attrs.order,
    required: attrs.required,
  });
  return { ...f, uuid: decodeId('signupField', f.id)! };
}

/** A label row (the content module owns the table; tests need one to attach to a published path). */
export async function insertLabelRow(t: TestApp, org: CreatedOrg, name = `Label ${rnd()}`) {
  const row = await one(t, `INSERT INTO labels (organization_id, name) VALUES ($1, $2) RETURNING id`, [orgUuid(org), name]);
  return { uuid: row.id as string, id: encodeId('label', row.id), name };
}

/** Record that a user redeemed an access code (what domain signup with a code does). */
export async function useAccessCode(t: TestApp, org: CreatedOrg, accessCodeUuid: string, userUuid: string) {
  await t.ds.query(`INSERT INTO access_code_uses (organization_id, access_code_id, user_id) VALUES ($1, $2, $3)`, [orgUuid(org), accessCodeUuid, userUuid]);
  await t.ds.query(`UPDATE access_codes SET use_count = use_count + 1 WHERE id = $1`, [accessCodeUuid]);
}

/** Make a user a member of a domain (what POST /v1/domains/{domain}/users does); enrollments need it. */
export async function joinDomain(t: TestApp, org: CreatedOrg, domainUuid: string, userUuid: string) {
  await t.ds.query(`INSERT INTO domain_users (organization_id, domain_id, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [orgUuid(org), domainUuid, userUuid]);
}

/** A READY embed-link asset of the organization. */
export async function insertAsset(t: TestApp, org: CreatedOrg, name = `asset-${rnd()}`) {
  const row = await one(t, `INSERT INTO assets (organization_id, name, embed_link_url, state) VALUES ($1, $2, 'https://video.example/x', 'READY') RETURNING id`, [orgUuid(org), name]);
  return { uuid: row.id as string, id: encodeId('asset', row.id) };
}

/** A READY web package of the organization. */
export async function insertWebPackage(t: TestApp, org: CreatedOrg, title = `pkg-${rnd()}`) {
  const row = await one(
    t,
    `INSERT INTO web_packages (organization_id, title, type, state, source_url, storage_prefix) VALUES ($1, $2, 'SCORM', 'READY', 'https://files.example/p.zip', 'x') RETURNING id`,
    [orgUuid(org), title],
  );
  return { uuid: row.id as string, id: encodeId('webPackage', row.id) };
}

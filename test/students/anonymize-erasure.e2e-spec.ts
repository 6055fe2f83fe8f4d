import { randomBytes } from 'node:crypto';
import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { domainOf, insertCourse, insertSignupField, orgUuid, publishCourse } from '../support/fixtures';

/**
 * CONVENTIONS §10, last rule: anonymizing a user (either interface) erases personal data
 * everywhere. A user is given every kind of personal data the platform keeps (profile, domain
 * membership with a signup-field value, a course enrollment and its events in the outbox, an
 * invite, a webhook so that the sample operations have real events to show), then anonymized —
 * one through /v2, one through /v1 — and every text, varchar, json, jsonb and array column of every
 * table of the database is searched for the original email, names and signup-field value.
 */
describe('anonymization erases personal data everywhere', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let domain: { uuid: string; name: string };
  let pcId: string;
  let fieldId: string;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
    org = await t.newOrg();
    token = await t.tokenFor(org);
    domain = await domainOf(t, org);
    const course = await insertCourse(t, org, { title: 'Erasure Course' });
    pcId = (await publishCourse(t, org, course.uuid, domain.uuid)).id;
    // a signup field of the domain, through the administrative write (CONVENTIONS §15)
    fieldId = (await insertSignupField(t, org, domain.name, { label: 'Employer', order: 1 })).id;
    const hook = await t.post('/v1/webhooks', { target_url: 'http://127.0.0.1:9/hook' }, { token });
    expect(hook.status).toBe(201);
  });
  afterAll(() => t.close());

  interface Person {
    id: string;
    needles: string[];
  }

  /** A user with every kind of personal data, through the public operations. */
  async function personWithEverything(): Promise<Person> {
    const r = randomBytes(4).toString('hex');
    const email = `erase-me-${r}@example.test`;
    const first = `Quillon${r}`;
    const last = `Marvolo${r}`;
    const employer = `Hushcorp${r}`;
    const users = `/v1/domains/${domain.name}/users`;
    // with an Idempotency-Key, so the stored answer (kept for replays) holds the personal data too
    const joined = await t.post(users, { user: { email, first_name: first, last_name: last }, marketing_optin: true }, { token, headers: { 'Idempotency-Key': `join-${r}` } });
    expect(joined.status).toBe(201);
    const id = joined.body.user.id;
    expect((await t.post(`${users}/${id}/signup-fields`, { signup_field: { id: fieldId }, value: employer }, { token })).status).toBe(201);
    const enrolled = await t.post(`/v1/domains/${domain.name}/published-courses/${pcId}/enrollments`, { user: { id } }, { token });
    expect(enrolled.status).toBe(201);
    expect((await t.post(`${users}/${id}/invites`, { send_email: true }, { token })).status).toBe(201);
    return { id, needles: [email, first, last, `${first} ${last}`, employer].map((s) => s.toLowerCase()) };
  }

  /** Every (table, column, hits) where a column of a text-like type contains one of the needles. */
  async function hitsEverywhere(needles: string[]): Promise<string[]> {
    const cols: { table_name: string; column_name: string; data_type: string }[] = await t.ds.query(
      `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
         JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name AND tb.table_type = 'BASE TABLE'
        WHERE c.table_schema = 'public' AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED', 'bytea')
        ORDER BY 1, 2`,
    );
    expect(cols.length).toBeGreaterThan(50);
    const hits: string[] = [];
    for (const c of cols) {
      const col = `"${c.column_name.replace(/"/g, '""')}"`;
      const table = `"${c.table_name.replace(/"/g, '""')}"`;
      // bytea as text with its printable bytes as they are (a stored JSON answer is readable that way)
      const asText = c.data_type === 'bytea' ? `encode(${col}, 'escape')` : `${col}::text`;
      const [row] = await t.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS x(s) WHERE strpos(lower(${asText}), x.s) > 0)`, [needles]);
      if (row.n > 0) hits.push(`${c.table_name}.${c.column_name}: ${row.n}`);
    }
    return hits;
  }

  const samples = async () =>
    JSON.stringify(await Promise.all(['sample-course-enrollment', 'sample-domain-enrollment'].map(async (s) => (await t.get(`/v1/webhooks/${s}`, { token })).body))).toLowerCase();

  it('through /v2 and through /v1: no table holds the email, names or signup-field values afterwards; samples show none', async () => {
    const viaV2 = await personWithEverything();
    const viaV1 = await personWithEverything();
    const all = [...viaV2.needles, ...viaV1.needles];

    // the data is really there (users, signup values, outbox events, the samples) before
    const before = await hitsEverywhere(all);
    expect(before).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^users\.email/),
        expect.stringMatching(/^outbox_events\.payload/),
        expect.stringMatching(/^signup_field_values\.value/),
        expect.stringMatching(/^idempotency_keys\.body/),
      ]),
    );
    expect(await samples()).toContain(viaV1.needles[0]);

    const v2 = await t.post(`/v2/students/${viaV2.id}/anonymize`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } });
    expect(v2.status).toBe(204);
    const v1 = await t.post(`/v1/users/${viaV1.id}/anonymize`, undefined, { token });
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual({
      user: { id: viaV1.id, email: expect.stringMatching(/@anonymized\.invalid$/), first_name: '', last_name: '', full_name: '' },
      registration_count: 1,
      completion_count: 0,
      signed_up_at: expect.any(String),
      inactive_at: expect.any(String),
    });

    expect(await hitsEverywhere(all)).toEqual([]);
    const shown = await samples();
    for (const n of all) expect(shown).not.toContain(n);

    // the memberships, enrollments and events themselves stay (only their personal members go)
    // the webhook events (the sync events of the event log, `user.updated` and the like, are counted out: the scan above shows they hold nothing personal either)
    const events = await t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND payload->'user'->>'id' = ANY($2::text[]) AND event_type NOT LIKE '%.%'`, [
      orgUuid(org),
      [viaV1.id, viaV2.id],
    ]);
    expect(events.length).toBe(4);
    for (const e of events) {
      expect(e.payload.user.email).toMatch(/@anonymized\.invalid$/);
      if (e.payload.signup_fields !== undefined) expect(e.payload.signup_fields).toEqual({});
    }
    for (const p of [viaV1, viaV2]) {
      const member = await t.get(`/v1/domains/${domain.name}/users/${p.id}`, { token });
      expect(member.status).toBe(200);
      expect(member.body).toMatchObject({ user: { id: p.id, first_name: '', last_name: '' }, marketing_optin: null, signup_fields: [] });
      expect((await t.get(`/v1/domains/${domain.name}/users/${p.id}/invites`, { token })).body.count).toBe(0);
    }
  });

  it('an anonymized user cannot be invited again, cannot get a password or a reset link; anonymizing again is harmless', async () => {
    const p = await personWithEverything();
    expect((await t.post(`/v1/users/${p.id}/anonymize`, undefined, { token })).status).toBe(200);
    const invite = await t.post(`/v1/domains/${domain.name}/users/${p.id}/invites`, {}, { token });
    expect(invite.status).toBe(400);
    expect(invite.body).toEqual({ user: [expect.stringContaining('anonymized')] });
    expect((await t.get(`/v1/domains/${domain.name}/users/${p.id}/invites`, { token })).body.count).toBe(0);
    const reset = await t.post(`/v2/students/${p.id}/send-password-reset?domain=${domain.name}`, undefined, { token });
    expect(reset.status).toBe(409);
    const set = await t.post(`/v2/students/${p.id}/set-password`, { data: { type: 'password-sets', attributes: { password: 'a-long-enough-password' } } }, { token });
    expect(set.status).toBe(409);
    const again = await t.post(`/v1/users/${p.id}/anonymize`, undefined, { token });
    expect(again.status).toBe(200);
    expect((await t.post(`/v2/students/${p.id}/anonymize`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } })).status).toBe(204);
  });

  it('an anonymized user cannot be enrolled again: a published course, a published path (400 on user, nothing written)', async () => {
    const member = await t.post(`/v1/domains/${domain.name}/users`, { user: { email: `enrol-${Date.now()}@example.test` } }, { token });
    expect(member.status).toBe(201);
    const uid: string = member.body.user.id;
    const path = await t.post(`/v1/domains/${domain.name}/published-paths`, { slug: `anon-${Date.now()}`, path: { title: 'Anon path' } }, { token });
    expect(path.status).toBe(201);
    expect((await t.post(`/v2/students/${uid}/anonymize`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } })).status).toBe(204);

    const course = await t.post(`/v1/domains/${domain.name}/published-courses/${pcId}/enrollments`, { user: { id: uid } }, { token });
    expect(course.status).toBe(400);
    expect(course.body).toEqual({ user: ['The user is anonymized and cannot be enrolled.'] });
    const viaPath = await t.post(`/v1/domains/${domain.name}/published-paths/${path.body.id}/published-path-enrollments`, { user: { id: uid } }, { token });
    expect(viaPath.status).toBe(400);
    expect(viaPath.body).toEqual({ user: ['The user is anonymized and cannot be enrolled.'] });
    for (const table of ['enrollments', 'published_path_enrollments']) {
      const rows = await t.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1 AND organization_id = $2`, [decodeId('student', uid), orgUuid(org)]);
      expect(rows[0].n).toBe(0);
    }
  });

  it('/v1 anonymize: scope students:anonymize, 404 for unknown ids and other organizations (nothing changes)', async () => {
    const p = await personWithEverything();
    const readOnly = await t.tokenFor(org, ['students:read', 'students:write']);
    expect((await t.post(`/v1/users/${p.id}/anonymize`, undefined, { token: readOnly })).status).toBe(403);
    expect((await t.post(`/v1/users/${p.id}/anonymize`)).status).toBe(401);
    const other = await t.newOrg();
    const theirs = await t.post(`/v1/users/${p.id}/anonymize`, undefined, { token: await t.tokenFor(other) });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ detail: expect.any(String) });
    expect((await t.post(`/v1/users/nonexistent0/anonymize`, undefined, { token })).status).toBe(404);
    expect((await t.post(`/v1/users/${p.id}/anonymize`, undefined, { basic: org.api_key })).status).toBe(200);
    expect(await hitsEverywhere(p.needles)).toEqual([]);
  });
});

import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { cli, jsonError, oneJsonLine } from '../support/cli';
import { orgUuid } from '../support/fixtures';

// the command runs compiled once per file (test/support/cli.ts); each call still starts a Node process
jest.setTimeout(180_000);

describe('CLI: the administrative writes (issue 15)', () => {
  let t: TestApp;
  let db: string;
  let org: CreatedOrg;
  const rnd = () => randomBytes(3).toString('hex');
  const basic = () => ({ basic: org.api_key });

  beforeAll(async () => {
    t = await startTestApp();
    db = t.config.DATABASE_URL;
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  it('create-signup-field: one JSON line; the API lists the field; bad input makes nothing', async () => {
    const out = oneJsonLine(
      await cli(db, ['create-signup-field', '--org', org.organization_id, '--domain', org.domain_name, '--label', 'Region', '--option', 'EMEA', '--option', 'APAC', '--required']),
    );
    expect(out).toEqual({
      organization_id: org.organization_id,
      domain_name: org.domain_name,
      signup_field: expect.objectContaining({
        id: expect.stringMatching(/^sfd/),
        type: 'PICKLIST',
        label: 'Region',
        required: true,
        options: [expect.objectContaining({ value: 'EMEA' }), expect.objectContaining({ value: 'APAC' })],
      }),
    });
    const text = oneJsonLine(await cli(db, ['create-signup-field', '--org', org.organization_id, '--domain', org.domain_name, '--label', 'Employee id', '--order', '3']));
    expect(text.signup_field).toMatchObject({ type: 'TEXT', options: [], order: 3 });
    const list = await t.get(`/v1/domains/${org.domain_name}/signup-fields`, basic());
    expect(list.body.results).toEqual([out.signup_field, text.signup_field]);

    const before = (await t.ds.query(`SELECT count(*)::int AS n FROM signup_fields`))[0].n;
    expect(jsonError(await cli(db, ['create-signup-field', '--org', org.organization_id, '--domain', org.domain_name]))).toMatch(/label/);
    expect(jsonError(await cli(db, ['create-signup-field', '--org', org.organization_id, '--domain', org.domain_name, '--label', 'X', '--type', 'TEXT', '--option', 'a']))).toMatch(/options/);
    expect(jsonError(await cli(db, ['create-signup-field', '--org', org.organization_id, '--domain', 'nope.example.test', '--label', 'X']))).toMatch(/--domain/);
    const stranger = await t.newOrg();
    expect(jsonError(await cli(db, ['create-signup-field', '--org', stranger.organization_id, '--domain', org.domain_name, '--label', 'X']))).toMatch(/--domain/);
    expect(jsonError(await cli(db, ['create-signup-field', '--org', 'nonsense', '--domain', org.domain_name, '--label', 'X']))).toMatch(/--org/);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM signup_fields`))[0].n).toBe(before);
  });

  it('create-plan with its published courses (and its offer); create-group-category', async () => {
    const c = await t.post('/v1/courses', { title: 'CLI course', short_description: 'S', enforce_sequential_navigation: false }, basic());
    const pc = await t.post(`/v1/domains/${org.domain_name}/published-courses`, { course: { id: c.body.id } }, basic());
    const out = oneJsonLine(
      await cli(db, ['create-plan', '--org', org.organization_id, '--domain', org.domain_name, '--name', 'All Access', '--published-course', pc.body.id, '--short-description', 'Everything']),
    );
    expect(out.plan).toMatchObject({ name: 'All Access', slug: 'all-access', hidden: false, short_description: 'Everything', published_courses: [{ id: pc.body.id }], published_paths: [] });
    expect(out.plan.offer).toMatchObject({ id: expect.stringMatching(/^ofr/) });
    expect((await t.get(`/v1/domains/${org.domain_name}/plan/${out.plan.id}`, basic())).body).toEqual(out.plan);
    expect(jsonError(await cli(db, ['create-plan', '--org', org.organization_id, '--domain', org.domain_name, '--name', 'Bad', '--published-course', 'pcsnope']))).toMatch(/published_courses/);
    expect(jsonError(await cli(db, ['create-plan', '--org', org.organization_id, '--domain', org.domain_name, '--name', 'Dup', '--slug', 'all-access']))).toMatch(/slug/);

    const cat = oneJsonLine(await cli(db, ['create-group-category', '--org', org.organization_id, '--name', 'Region']));
    expect(cat).toEqual({ organization_id: org.organization_id, group_category: { id: expect.stringMatching(/^gcat/), name: 'Region' } });
    expect((await t.get(`/v1/group-categories/${cat.group_category.id}`, basic())).body).toEqual(cat.group_category);
    expect(jsonError(await cli(db, ['create-group-category', '--org', org.organization_id]))).toMatch(/name/);
    expect(jsonError(await cli(db, ['create-group-category', '--org', `org${'0'.repeat(25)}`, '--name', 'X']))).toMatch(/unknown organization/);
  });

  it('create-admin and reset-admin-password: argon2id hashes; a secret is printed only when generated', async () => {
    const email = `Admin-${rnd()}@Example.test`;
    const password = `pw-${rnd()}-${rnd()}`;
    const run = await cli(db, ['create-admin', '--org', org.organization_id, '--email', email, '--password', password]);
    const out = oneJsonLine(run);
    expect(out).toEqual({ organization_id: org.organization_id, admin_id: expect.stringMatching(/^adm/), email: email.toLowerCase(), role: 'owner' });
    expect(run.stdout + run.stderr).not.toContain(password);
    const hashOf = async () => (await t.ds.query(`SELECT organization_id, password_hash FROM admins WHERE id = $1`, [decodeId('admin', out.admin_id)]))[0];
    let row = await hashOf();
    expect(row.organization_id).toBe(orgUuid(org));
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(await argon2.verify(row.password_hash, password)).toBe(true);

    // a taken e-mail, a short password, no password source or two of them: refused
    expect(jsonError(await cli(db, ['create-admin', '--org', org.organization_id, '--email', email.toUpperCase(), '--password', 'another-long-one']))).toMatch(/already exists/);
    expect(jsonError(await cli(db, ['create-admin', '--org', org.organization_id, '--email', `b-${rnd()}@x.test`, '--password', 'short']))).toMatch(/8 characters/);
    expect(jsonError(await cli(db, ['create-admin', '--org', org.organization_id, '--email', `b-${rnd()}@x.test`]))).toMatch(/exactly one/);
    expect(jsonError(await cli(db, ['create-admin', '--org', org.organization_id, '--email', `b-${rnd()}@x.test`, '--password', 'long-enough', '--generate-password']))).toMatch(/exactly one/);
    expect(jsonError(await cli(db, ['create-admin', '--org', org.organization_id, '--email', 'not-an-email', '--password', 'long-enough']))).toMatch(/email/);

    // reset with a password from stdin: the old one stops working
    const fresh = `stdin-${rnd()}-${rnd()}`;
    const reset = await cli(db, ['reset-admin-password', '--org', org.organization_id, '--email', email, '--password-stdin'], `${fresh}\n`);
    expect(oneJsonLine(reset)).toEqual(out);
    expect(reset.stdout).not.toContain(fresh);
    row = await hashOf();
    expect(await argon2.verify(row.password_hash, fresh)).toBe(true);
    expect(await argon2.verify(row.password_hash, password)).toBe(false);

    // a generated password is printed, once, and is the one stored
    const gen = oneJsonLine(await cli(db, ['reset-admin-password', '--org', org.organization_id, '--email', email, '--generate-password']));
    expect(gen).toEqual({ ...out, password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/) });
    expect(await argon2.verify((await hashOf()).password_hash, gen.password)).toBe(true);
    const made = oneJsonLine(await cli(db, ['create-admin', '--org', org.organization_id, '--email', `g-${rnd()}@x.test`, '--generate-password']));
    expect(made.password).toMatch(/^[A-Za-z0-9_-]{24}$/);

    // another organization cannot reset this administrator
    const stranger = await t.newOrg();
    expect(jsonError(await cli(db, ['reset-admin-password', '--org', stranger.organization_id, '--email', email, '--password', 'whatever-long']))).toMatch(/no administrator/);
    expect(await argon2.verify((await hashOf()).password_hash, gen.password)).toBe(true);
  });
});

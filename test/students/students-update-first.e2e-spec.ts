import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { insertStudent } from '../support/fixtures';

/**
 * PATCH /v2/students/ with every item naming a different student by id alone (StudentsBatchService
 * updateFirst): the UPDATE first, one statement when every item applies; the look-up only for the
 * items it did not update, with the outcomes of looking up first (not found, anonymized, single
 * sign-on, inactive unless a reactivation); a batch the UPDATE refuses is looked up first as before.
 */
describe('PATCH /v2/students/ by ids: the UPDATE first', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let seq = 0;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org, ['students:read', 'students:write', 'students:anonymize', 'students:deactivate']);
  });
  afterAll(() => t.close());

  async function created(n: number): Promise<{ id: string; attributes: Record<string, unknown> }[]> {
    const data = Array.from({ length: n }, () => ({ type: 'students', attributes: { email: `uf-${++seq}@example.test`, first_name: 'F', last_name: 'L' } }));
    const res = await t.post('/v2/students/', { data }, { token });
    expect(res.status).toBe(200);
    return res.body.data.map((d: any) => d.result);
  }

  /** The statements the API sends while `fn` runs for the update itself (the audit log's one INSERT per write, CONVENTIONS §19, is not the update's). */
  async function counted<T>(fn: () => Promise<T>): Promise<[T, string[]]> {
    const logger = t.ds.logger as any;
    const original = logger.logQuery;
    const statements: string[] = [];
    logger.logQuery = function (query: string, ...rest: unknown[]) {
      if (!/^\s*INSERT INTO audit_events\b/.test(query)) statements.push(query);
      return original.call(this, query, ...rest);
    };
    try {
      return [await fn(), statements];
    } finally {
      logger.logQuery = original;
    }
  }
  const upd = (items: unknown[]) => t.patch('/v2/students/', { data: items }, { token });

  it('every item applies: one statement, each item its updated student', async () => {
    const students = await created(20);
    await t.get('/v2/students/', { token }); // the token cached
    const [res, statements] = await counted(() => upd(students.map((s, i) => ({ type: 'students', id: s.id, attributes: { first_name: `N${i}`, last_name: null } }))));
    expect(res.status).toBe(200);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^UPDATE users u SET/);
    expect(res.body.summary).toEqual({ total: 20, succeeded: 20, failed: 0 });
    res.body.data.forEach((d: any, i: number) =>
      expect(d).toEqual({ status: 'succeeded', id: students[i].id, result: { ...students[i], attributes: { ...students[i].attributes, first_name: `N${i}` } } }),
    );
  });

  it('items the UPDATE left: not found (missing, other organization), anonymized, single sign-on, inactive; reactivation and deactivation apply', async () => {
    const [ok, anon, inactive, again, back] = await created(5);
    const sso = await insertStudent(t, org, { sso_provider: 'okta', first_name: 'Sso' });
    const other = await t.newOrg();
    const theirs = await insertStudent(t, other, { first_name: 'Theirs' });
    expect((await t.post(`/v2/students/${anon.id}/anonymize/`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } })).status).toBe(204);
    expect((await t.delete(`/v2/students/${inactive.id}`, { token })).status).toBe(204);
    expect((await t.delete(`/v2/students/${again.id}`, { token })).status).toBe(204);
    expect((await t.delete(`/v2/students/${back.id}`, { token })).status).toBe(204);
    const [res, statements] = await counted(() =>
      upd([
        { type: 'students', id: ok.id, attributes: { last_name: 'Changed', is_inactive: true } },
        { type: 'students', id: encodeId('student', newUuid()), attributes: { first_name: 'x' } },
        { type: 'students', id: theirs.id, attributes: { first_name: 'Hacked' } },
        { type: 'students', id: anon.id, attributes: { first_name: 'Back' } },
        { type: 'students', id: sso.id, attributes: { first_name: 'Changed' } },
        { type: 'students', id: inactive.id, attributes: { first_name: 'Changed' } },
        { type: 'students', id: again.id, attributes: { is_inactive: true } },
        { type: 'students', id: back.id, attributes: { is_inactive: false, first_name: null } },
        { type: 'students', id: 'garbage', attributes: { first_name: 'x' } },
      ]),
    );
    expect(res.status).toBe(207);
    expect(statements).toHaveLength(2);
    expect(statements[1]).toMatch(/^SELECT id, email, is_inactive, is_anonymized, sso_provider FROM users WHERE organization_id = \$2 AND id = ANY\(\$1::uuid\[\]\)$/);
    const inactiveDetail = 'An inactive student cannot be updated; reactivate first with an item carrying only is_inactive: false.';
    expect(res.body.data.map((d: any) => d.error ?? d.status)).toEqual([
      'succeeded',
      { code: 'not_found', detail: 'Student not found.', source: { pointer: '/data/1/id' } },
      { code: 'not_found', detail: 'Student not found.', source: { pointer: '/data/2/id' } },
      { code: 'validation_error', detail: 'An anonymized student cannot be updated.', source: { pointer: '/data/3/id' } },
      { code: 'validation_error', detail: 'A single-sign-on student cannot be updated.', source: { pointer: '/data/4/id' } },
      { code: 'validation_error', detail: inactiveDetail, source: { pointer: '/data/5/id' } },
      { code: 'validation_error', detail: inactiveDetail, source: { pointer: '/data/6/id' } },
      'succeeded',
      { code: 'not_found', detail: 'Student not found.', source: { pointer: '/data/8/id' } },
    ]);
    expect(res.body.data[0].result.attributes).toMatchObject({ last_name: 'Changed', is_inactive: true });
    expect(res.body.data[7].result.attributes).toMatchObject({ first_name: 'F', is_inactive: false });
    const [theirRow] = await t.ds.query(`SELECT first_name FROM users WHERE id = $1`, [theirs.uuid]);
    expect(theirRow.first_name).toBe('Theirs');
    const [okRow] = await t.ds.query(`SELECT is_inactive, deactivated_at FROM users WHERE email = $1`, [ok.attributes.email]);
    expect(okRow.is_inactive).toBe(true);
    expect(okRow.deactivated_at).toBeInstanceOf(Date);
  });

  it('a value the database refuses: looked up first as before (the refused item fails alone, a missing student is not found)', async () => {
    // a NUL character no longer reaches the database (body-guard.ts refuses it first, issue 25 item 15d):
    // a trigger stands in for a value the column refuses, with PostgreSQL's own SQLSTATE for it
    await t.ownerQuery(`CREATE FUNCTION refuse_trg() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.first_name LIKE 'refused%' THEN RAISE EXCEPTION 'refused' USING ERRCODE = '22021'; END IF; RETURN NEW; END $$`);
    await t.ownerQuery(`CREATE TRIGGER refuse BEFORE UPDATE ON users FOR EACH ROW EXECUTE FUNCTION refuse_trg()`);
    try {
      const [a, b] = await created(2);
      const res = await upd([
        { type: 'students', id: a.id, attributes: { first_name: 'Fine' } },
        { type: 'students', id: b.id, attributes: { first_name: 'refused here' } },
        { type: 'students', id: encodeId('student', newUuid()), attributes: { first_name: 'refused too' } },
      ]);
      expect(res.status).toBe(207);
      expect(res.body.data[0].status).toBe('succeeded');
      expect(res.body.data[0].result.attributes.first_name).toBe('Fine');
      expect(res.body.data[1].status).toBe('failed');
      expect(res.body.data[1].error.code).toBe('validation_error');
      expect(res.body.data[2].error).toEqual({ code: 'not_found', detail: 'Student not found.', source: { pointer: '/data/2/id' } });
    } finally {
      await t.ownerQuery(`DROP TRIGGER refuse ON users`);
      await t.ownerQuery(`DROP FUNCTION refuse_trg()`);
    }
  });
});

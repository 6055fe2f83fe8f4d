import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { decodeId, IdType } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/**
 * The database wall, data side (migrations/1763700015000-organization-foreign-keys.ts): two
 * organizations' rows are made through the API; then SQL writes the links the API never sends,
 * tying one organization's row to the other's. PostgreSQL refuses each of them (23503, the
 * composite key's name), while the same statement within one organization is accepted, so the
 * refusal is the organization and nothing else. Every write here is rolled back.
 */
describe('the database refuses cross-organization links', () => {
  let t: TestApp;
  type World = { org: string; course: string; label: string; group: string; user: string; publishedCourse: string; webhook: string; event: string; statementSeq: string };
  let a: World;
  let b: World;

  const uuid = (type: IdType, id: string) => {
    const u = decodeId(type, id);
    if (!u) throw new Error(`not a ${type} id: ${id}`);
    return u;
  };
  const created = (res: { status: number; text: string; body: any }) => {
    if (res.status !== 201) throw new Error(`expected 201, got ${res.status} ${res.text}`);
    return res.body;
  };

  async function world(o: CreatedOrg): Promise<World> {
    const key = { basic: o.api_key };
    const course = created(await t.post('/v1/courses', { title: 'Walled', short_description: 's', enforce_sequential_navigation: false }, key));
    const label = created(await t.post('/v1/labels', { name: 'Walled label' }, key));
    const group = created(await t.post('/v1/groups', { name: 'Walled group' }, key));
    const du = created(await t.post(`/v1/domains/${o.domain_name}/users`, { user: { email: 'walled@example.test', first_name: 'W', last_name: 'All' } }, key));
    const pc = created(await t.post(`/v1/domains/${o.domain_name}/published-courses`, { course: { id: course.id } }, key));
    created(await t.post(`/v1/domains/${o.domain_name}/published-courses/${pc.id}/enrollments`, { user: { id: du.user.id } }, key));
    const webhook = created(await t.post('/v1/webhooks', { target_url: 'http://127.0.0.1:9/walled' }, key));
    const lrsKey = created(await t.post('/v1/lrs-keys', {}, key));
    const lrs = { headers: { Authorization: `Basic ${Buffer.from(`${lrsKey.key}:${lrsKey.secret}`).toString('base64')}`, 'X-Experience-API-Version': '1.0.3' } };
    const statement = { actor: { mbox: 'mailto:walled@example.test' }, verb: { id: 'http://adlnet.gov/expapi/verbs/attended' }, object: { id: 'http://example.test/walled' } };
    const [statementId] = (await t.post('/xapi/statements', statement, lrs)).body;
    const org = orgUuid(o);
    const [event] = await t.ds.query(`SELECT id FROM outbox_events WHERE organization_id = $1 AND event_type = 'COURSE_ENROLLMENT'`, [org]);
    const [{ seq }] = await t.ds.query(`SELECT seq FROM lrs_statements WHERE organization_id = $1 AND id = $2`, [org, statementId]);
    return {
      org,
      course: uuid('course', course.id),
      label: uuid('label', label.id),
      group: uuid('group', group.id),
      user: uuid('student', du.user.id),
      publishedCourse: uuid('publishedCourse', pc.id),
      webhook: uuid('webhook', webhook.id),
      event: event.id,
      statementSeq: String(seq),
    };
  }

  class Rollback extends Error {}
  /** run `sql` in a transaction that is always rolled back; the error PostgreSQL raised, or null */
  async function attempt(sql: string, params: unknown[]): Promise<{ code: string; constraint: string } | null> {
    try {
      await t.ds.transaction(async (m) => {
        await m.query(sql, params);
        throw new Rollback();
      });
    } catch (e: any) {
      if (e instanceof Rollback) return null;
      return { code: e.code ?? e.driverError?.code, constraint: e.constraint ?? e.driverError?.constraint };
    }
    throw new Error('unreachable');
  }
  const refused = (constraint: string) => ({ code: '23503', constraint });

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true }); // the webhooks point at 127.0.0.1 (never called: no worker)
    a = await world(await t.newOrg());
    b = await world(await t.newOrg());
  });
  afterAll(() => t?.close());

  it('a course label: org A course with org B label', async () => {
    const sql = `INSERT INTO course_labels (organization_id, course_id, label_id) VALUES ($1, $2, $3)`;
    expect(await attempt(sql, [a.org, a.course, a.label])).toBeNull();
    expect(await attempt(sql, [a.org, a.course, b.label])).toEqual(refused('course_labels_label_id_fkey'));
    expect(await attempt(sql, [b.org, a.course, b.label])).toEqual(refused('course_labels_course_id_fkey'));
  });

  it('a group membership: org A group with org B student, whichever organization the row claims', async () => {
    const sql = `INSERT INTO group_memberships (organization_id, group_id, user_id) VALUES ($1, $2, $3)`;
    expect(await attempt(sql, [a.org, a.group, a.user])).toBeNull();
    expect(await attempt(sql, [a.org, a.group, b.user])).toEqual(refused('group_memberships_user_id_fkey'));
    expect(await attempt(sql, [b.org, a.group, b.user])).toEqual(refused('group_memberships_group_id_fkey'));
  });

  it('an enrollment: org A student in org B published course', async () => {
    const sql = `INSERT INTO enrollments (organization_id, user_id, published_course_id, course_id, enrolled_at) VALUES ($1, $2, $3, $4, '2020-01-01')`;
    expect(await attempt(sql, [a.org, a.user, a.publishedCourse, a.course])).toBeNull();
    expect((await attempt(sql, [a.org, a.user, b.publishedCourse, b.course]))?.code).toBe('23503');
    expect(await attempt(sql, [a.org, a.user, b.publishedCourse, a.course])).toEqual(refused('enrollments_published_course_id_fkey'));
    // and an existing enrollment cannot be moved to the other organization's course
    expect(await attempt(`UPDATE enrollments SET published_course_id = $2, course_id = $3 WHERE organization_id = $1`, [a.org, b.publishedCourse, b.course])).toMatchObject({ code: '23503' });
  });

  it("an LRS agent row: org A's row naming org B's statement, or no statement", async () => {
    const sql = `INSERT INTO lrs_statement_agents (organization_id, agent, direct, stored, seq) VALUES ($1, 'mbox::mailto:probe@example.test', true, now(), $2)`;
    expect(await attempt(sql, [a.org, a.statementSeq])).toBeNull();
    expect(await attempt(sql, [a.org, b.statementSeq])).toEqual(refused('lrs_statement_agents_statement_fkey'));
    expect(await attempt(sql, [b.org, a.statementSeq])).toEqual(refused('lrs_statement_agents_statement_fkey'));
    expect(await attempt(sql, [a.org, '-1'])).toEqual(refused('lrs_statement_agents_statement_fkey'));
    // and an existing row cannot be moved to the other organization's statement
    expect(await attempt(`UPDATE lrs_statement_agents SET seq = $2 WHERE organization_id = $1`, [a.org, b.statementSeq])).toEqual(refused('lrs_statement_agents_statement_fkey'));
  });

  it("a webhook delivery: org A webhook for org B's event", async () => {
    const sql = `INSERT INTO webhook_deliveries (organization_id, webhook_id, event_id, target_url) VALUES ($1, $2, $3, 'http://127.0.0.1:9/probe')`;
    expect(await attempt(sql, [a.org, a.webhook, a.event])).toBeNull();
    expect(await attempt(sql, [a.org, a.webhook, b.event])).toEqual(refused('webhook_deliveries_event_id_fkey'));
    expect(await attempt(sql, [b.org, a.webhook, b.event])).toEqual(refused('webhook_deliveries_webhook_id_fkey'));
  });

  it('a lesson: org A lesson in org B course, and a course draft of another organization', async () => {
    const sql = `INSERT INTO lessons (organization_id, course_id, title, type, "order") VALUES ($1, $2, 'x', 'HTML', 0)`;
    expect(await attempt(sql, [a.org, a.course])).toBeNull();
    expect(await attempt(sql, [a.org, b.course])).toEqual(refused('lessons_course_id_fkey'));
    expect(await attempt(`UPDATE courses SET draft_origin_id = $2 WHERE organization_id = $1 AND id = $3`, [a.org, b.course, a.course])).toEqual(refused('courses_draft_origin_id_fkey'));
  });
});

import { startTestApp, TestApp } from '../support/app';
import { enroll, insertCourse, insertDomain, insertStudent, orgUuid, publishCourse } from '../support/fixtures';
import { AccessRulesService } from '../../src/modules/published-courses/access-rules.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/**
 * The access rules (resource-reference-api.md sections 2-3) exercised against the real database
 * through AccessRulesService: no /v1 operation of this family takes a learner, so these are
 * unit-level tests on the service the learner-facing read paths use.
 */
describe('catalog access rules', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let rules: AccessRulesService;
  let orgId: string;
  const past = new Date(Date.now() - 3600_000);
  const future = new Date(Date.now() + 3600_000);

  const join = (domainUuid: string, userUuid: string, attrs: { active?: boolean; expires_at?: Date | null } = {}) =>
    t.ds.query(`INSERT INTO domain_users (organization_id, domain_id, user_id, active, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
      orgId,
      domainUuid,
      userUuid,
      attrs.active ?? true,
      attrs.expires_at ?? null,
    ]);
  const group = async (userUuid: string | null) => {
    const [g] = await t.ds.query(`INSERT INTO groups (organization_id, name) VALUES ($1, $2) RETURNING id`, [orgId, `g-${Math.random()}`]);
    if (userUuid) await t.ds.query(`INSERT INTO group_memberships (group_id, user_id, organization_id) VALUES ($1, $2, $3)`, [g.id, userUuid, orgId]);
    return g.id as string;
  };
  const override = (groupId: string, pcUuid: string, visible: boolean) =>
    t.ds.query(`INSERT INTO visibility_overrides (organization_id, group_id, published_course_id, is_visible) VALUES ($1, $2, $3, $4)`, [orgId, groupId, pcUuid, visible]);

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    orgId = orgUuid(org);
    rules = t.app.get(AccessRulesService);
  });
  afterAll(() => t.close());

  it('hasAccess: at least one active, unexpired enrollment', async () => {
    const d = await insertDomain(t, org);
    const pc = await publishCourse(t, org, (await insertCourse(t, org)).uuid, d.uuid);
    const s = await insertStudent(t, org);
    expect(await rules.hasAccess(orgId, s.uuid, pc.uuid)).toBe(false);
    await enroll(t, org, s.uuid, pc, { expires_at: past });
    await enroll(t, org, s.uuid, pc, { active: false });
    expect(await rules.hasAccess(orgId, s.uuid, pc.uuid)).toBe(false);
    const e = await enroll(t, org, s.uuid, pc, { expires_at: future });
    expect(await rules.hasAccess(orgId, s.uuid, pc.uuid)).toBe(true);
    // another organization never has access through this org's ids
    const other = await t.newOrg();
    expect(await rules.hasAccess(orgUuid(other), s.uuid, pc.uuid)).toBe(false);
    await t.ds.query(`UPDATE enrollments SET active = false WHERE id = $1`, [e.uuid]);
    expect(await rules.hasAccess(orgId, s.uuid, pc.uuid)).toBe(false);
    await t.ds.query(`UPDATE enrollments SET active = true WHERE id = $1`, [e.uuid]);
    // unpublished: no access, the enrollment remains
    await t.ds.query(`UPDATE published_courses SET unpublished_at = now() WHERE id = $1`, [pc.uuid]);
    expect(await rules.hasAccess(orgId, s.uuid, pc.uuid)).toBe(false);
  });

  it('private domains: only active, unexpired domain users; public domains ignore membership and its expires_at', async () => {
    const priv = await insertDomain(t, org, undefined, 'PRIVATE');
    const pub = await insertDomain(t, org);
    const pcPriv = await publishCourse(t, org, (await insertCourse(t, org)).uuid, priv.uuid);
    const pcPub = await publishCourse(t, org, (await insertCourse(t, org)).uuid, pub.uuid);
    const [member, inactive, expired, outsider] = await Promise.all([1, 2, 3, 4].map(() => insertStudent(t, org)));
    await join(priv.uuid, member.uuid);
    await join(priv.uuid, inactive.uuid, { active: false });
    await join(priv.uuid, expired.uuid, { expires_at: past });
    await join(pub.uuid, expired.uuid, { expires_at: past });
    for (const s of [member, inactive, expired, outsider]) {
      await enroll(t, org, s.uuid, pcPriv);
      await enroll(t, org, s.uuid, pcPub);
    }
    const privDomain = { id: priv.uuid, access: 'PRIVATE' as const };
    const pubDomain = { id: pub.uuid, access: 'PUBLIC' as const };
    expect(await rules.catalogVisible(orgId, null, pubDomain)).toBe(true);
    expect(await rules.catalogVisible(orgId, outsider.uuid, pubDomain)).toBe(true);
    expect(await rules.catalogVisible(orgId, null, privDomain)).toBe(false);
    expect(await rules.catalogVisible(orgId, member.uuid, privDomain)).toBe(true);
    expect(await rules.catalogVisible(orgId, inactive.uuid, privDomain)).toBe(false);
    expect(await rules.catalogVisible(orgId, expired.uuid, privDomain)).toBe(false);
    expect(await rules.catalogVisible(orgId, outsider.uuid, privDomain)).toBe(false);
    expect(await rules.hasAccess(orgId, member.uuid, pcPriv.uuid)).toBe(true);
    expect(await rules.hasAccess(orgId, inactive.uuid, pcPriv.uuid)).toBe(false);
    expect(await rules.hasAccess(orgId, expired.uuid, pcPriv.uuid)).toBe(false);
    expect(await rules.hasAccess(orgId, outsider.uuid, pcPriv.uuid)).toBe(false);
    for (const s of [member, inactive, expired, outsider]) expect(await rules.hasAccess(orgId, s.uuid, pcPub.uuid)).toBe(true);
    expect(await rules.catalogCourseIds(orgId, outsider.uuid, privDomain)).toEqual([]);
    expect(await rules.catalogCourseIds(orgId, member.uuid, privDomain)).toEqual([pcPriv.uuid]);
  });

  it('hidden published courses are listed only for members of groups with an is_visible=true override; blocks hide', async () => {
    const d = await insertDomain(t, org);
    const domain = { id: d.uuid, access: 'PUBLIC' as const };
    const open = await publishCourse(t, org, (await insertCourse(t, org)).uuid, d.uuid);
    const hidden = await publishCourse(t, org, (await insertCourse(t, org)).uuid, d.uuid, { is_hidden: true });
    const [insider, outsider, blocked] = await Promise.all([1, 2, 3].map(() => insertStudent(t, org)));
    await override(await group(insider.uuid), hidden.uuid, true);
    await override(await group(outsider.uuid), hidden.uuid, false);
    await override(await group(null), hidden.uuid, true); // a group outsider is not in
    await override(await group(blocked.uuid), open.uuid, false);
    expect(await rules.catalogCourseIds(orgId, null, domain)).toEqual([open.uuid]);
    expect(await rules.catalogCourseIds(orgId, outsider.uuid, domain)).toEqual([open.uuid]);
    expect(await rules.catalogCourseIds(orgId, insider.uuid, domain)).toEqual([open.uuid, hidden.uuid]);
    expect(await rules.catalogCourseIds(orgId, blocked.uuid, domain)).toEqual([]);
    // strict_enforce_group_visibility turns visibility into an access condition
    await enroll(t, org, outsider.uuid, hidden);
    await enroll(t, org, insider.uuid, hidden);
    expect(await rules.hasAccess(orgId, outsider.uuid, hidden.uuid)).toBe(true);
    await t.ds.query(`UPDATE published_courses SET strict_enforce_group_visibility = true WHERE id = $1`, [hidden.uuid]);
    expect(await rules.hasAccess(orgId, outsider.uuid, hidden.uuid)).toBe(false);
    expect(await rules.hasAccess(orgId, insider.uuid, hidden.uuid)).toBe(true);
  });
});

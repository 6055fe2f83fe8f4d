import { randomBytes } from 'node:crypto';
import { encodeId, IdType } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { DELETED_EVENTS, DELETED_EVENT_TYPES, triggerArguments } from '../../src/modules/data-out/deleted-events';
import { HttpResponse, RequestOptions, startTestApp, TestApp } from '../support/app';
import { insertAsset, insertCourse, enroll, insertDomain, insertGroupCategory, insertLesson, insertStudent, insertWebPackage, joinDomain, orgUuid, publishCourse, v2Pages } from '../support/fixtures';

/**
 * The `*.deleted` sync events (docs/decisions/data-out.md, "Deletions in the event log"): each kind
 * of object a list serves is removed through its HTTP operation (/v1 with the organization's API
 * key, /v2 with a real access token), and GET /v2/events shows its `<resource>.deleted` event with
 * the object's public ids, filterable by `filter[type]`, and only in that organization's log. The
 * triggers of the migrated database are exactly the ones DELETED_EVENTS declares.
 */
jest.setTimeout(180_000);

const rnd = () => randomBytes(4).toString('hex');
type Expected = { type: string; member: Record<string, unknown> };

describe('*.deleted events in the event log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('has exactly the triggers DELETED_EVENTS declares, and one on every soft-deleted table', async () => {
    const rows: { table: string; name: string; args: string[]; update: boolean }[] = await t.ownerQuery(
      `SELECT c.relname AS table, tg.tgname AS name, (tg.tgtype & 16) <> 0 AS update,
              (string_to_array(encode(tg.tgargs, 'escape'), '\\000'))[1:tg.tgnargs] AS args
         FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid JOIN pg_proc p ON p.oid = tg.tgfoid
        WHERE p.proname = 'data_out_deleted' AND NOT tg.tgisinternal`,
    );
    const key = (table: string, args: string[], update: boolean) => `${table} ${update ? 'update' : 'delete'} ${args.join('|')}`;
    const declared = DELETED_EVENTS.flatMap((e) => [key(e.table, triggerArguments(e), false), ...(e.gone === 'hard' ? [] : [key(e.table, triggerArguments(e), true)])]);
    expect(rows.map((r) => key(r.table, r.args, r.update)).sort()).toEqual(declared.sort());
    // a table with a soft-delete column has its soft-delete trigger (a new one fails here until declared)
    const soft: { table: string; column: string }[] = await t.ownerQuery(
      `SELECT table_name AS table, column_name AS column FROM information_schema.columns WHERE table_schema = 'public' AND column_name IN ('deleted_at', 'unpublished_at')`,
    );
    expect(soft.length).toBeGreaterThanOrEqual(10);
    const declaredSoft = new Set(DELETED_EVENTS.filter((e) => e.gone !== 'hard').map((e) => `${e.table}.${e.gone}`));
    expect(soft.map((s) => `${s.table}.${s.column}`).filter((s) => !declaredSoft.has(s))).toEqual([]);
  });

  it('records each kind removed through the API, with the ids the API answers, in its organization only', async () => {
    const o = await t.newOrg();
    const other = await t.newOrg();
    const tok = await t.tokenFor(o);
    const key: RequestOptions = { basic: o.api_key };
    const v2: RequestOptions = { token: tok };
    const org = orgUuid(o);
    const expected: Expected[] = [];
    const ok = (r: HttpResponse, what: string) => {
      if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
      return r;
    };
    const id = (type: IdType, uuid: string) => encodeId(type, uuid);
    /** a row of `table` in the organization, by SQL (no /v2 write makes some of them): its uuid */
    const row = async (table: string, values: Record<string, unknown>): Promise<string> => {
      const cols = ['organization_id', ...Object.keys(values)];
      const rows = await t.ds.query(`INSERT INTO ${table} (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`, [
        org,
        ...Object.values(values),
      ]);
      return rows[0].id;
    };
    const del = async (path: string, auth: RequestOptions, what: string, type: string, member: Record<string, unknown>, body?: unknown) => {
      ok(await t.request('DELETE', path, { ...auth, body }), what);
      expected.push({ type, member });
    };

    const domain = await insertDomain(t, o);
    const D = `/v1/domains/${domain.name}`;

    // ---- courses, lessons, labels, tags, files
    const course = await insertCourse(t, o);
    await del(`/v1/courses/${course.id}`, key, 'course', 'course.deleted', { course: { id: course.id } });
    const c2 = await insertCourse(t, o);
    const lesson = await insertLesson(t, o, c2.uuid);
    await del(`/v1/lessons/${lesson.id}`, key, 'lesson', 'lesson.deleted', { lesson: { id: lesson.id, course_id: c2.id } });
    const label = await row('labels', { name: `L ${rnd()}` });
    await row('course_labels', { course_id: c2.uuid, label_id: label });
    await del(`/v1/courses/${c2.id}/labels/${id('label', label)}`, key, 'course label', 'course_label.deleted', { course_label: { course_id: c2.id, label_id: id('label', label) } });
    const labelName = `Gone ${rnd()}`;
    const label2 = await row('labels', { name: labelName });
    await del(`/v1/labels/${id('label', label2)}`, key, 'label', 'label.deleted', { label: { id: id('label', label2), name: labelName } });
    const tagName = `t-${rnd()}`;
    const tag = await row('tags', { name: tagName, slug: tagName });
    await del(`/v1/tags/${id('tag', tag)}`, key, 'tag', 'tag.deleted', { tag: { id: id('tag', tag), name: tagName } });
    const asset = await insertAsset(t, o);
    await del(`/v2/assets/${asset.id}`, v2, 'asset', 'asset.deleted', { asset: { id: asset.id } });
    const pkg = await insertWebPackage(t, o);
    await del(`/v1/web-packages/${pkg.id}`, key, 'web package', 'web_package.deleted', { web_package: { id: pkg.id } });

    // ---- published courses and their links
    const c3 = await insertCourse(t, o);
    const pc = await publishCourse(t, o, c3.uuid, domain.uuid);
    const pcId = id('publishedCourse', pc.uuid);
    const c4 = await insertCourse(t, o);
    const pc2 = await publishCourse(t, o, c4.uuid, domain.uuid);
    const tag2 = await row('tags', { name: `t-${rnd()}`, slug: `t-${rnd()}` });
    await row('published_course_tags', { published_course_id: pc.uuid, tag_id: tag2 });
    await del(`${D}/published-courses/${pcId}/tags/${id('tag', tag2)}`, key, 'published course tag', 'published_course_tag.deleted', {
      published_course_tag: { published_course_id: pcId, tag_id: id('tag', tag2) },
    });
    await row('published_course_prerequisites', { published_course_id: pc.uuid, prerequisite_id: pc2.uuid });
    await del(`${D}/published-courses/${pcId}/published-course-prerequisites/${id('publishedCourse', pc2.uuid)}`, key, 'prerequisite', 'published_course_prerequisite.deleted', {
      published_course_prerequisite: { published_course_id: pcId, prerequisite_published_course_id: id('publishedCourse', pc2.uuid) },
    });
    const group = await row('groups', { name: `G ${rnd()}` });
    const grp = id('group', group);
    await row('published_course_group_prerequisites', { published_course_id: pc.uuid, group_id: group });
    await del(`${D}/published-courses/${pcId}/student-group-prerequisites/${grp}`, key, 'group prerequisite', 'student_group_prerequisite.deleted', {
      student_group_prerequisite: { published_course_id: pcId, student_group_id: grp },
    });
    const vov = await row('visibility_overrides', { group_id: group, published_course_id: pc.uuid, is_visible: true });
    await del(
      `/v2/groups/${grp}/relationships/published-course-visibility`,
      v2,
      'visibility override',
      'visibility_override.deleted',
      {
        visibility_override: { id: id('visibilityOverride', vov), published_course_id: pcId, student_group_id: grp },
      },
      { data: [{ type: 'visibility-overrides', attributes: { published_course_id: pcId } }] },
    );
    await del(`/v2/published-courses/${pcId}`, v2, 'published course', 'published_course.deleted', {
      published_course: { id: pcId, course_id: c3.id, domain_id: domain.id },
    });

    // unpublishing by POST /v2/published-courses/{id}/unpublish is a removal from the lists too (the same trigger)
    const pc5 = await publishCourse(t, o, c3.uuid, domain.uuid);
    ok(await t.post(`/v2/published-courses/${id('publishedCourse', pc5.uuid)}/unpublish`, {}, v2), 'unpublish');
    expected.push({ type: 'published_course.deleted', member: { published_course: { id: id('publishedCourse', pc5.uuid), course_id: c3.id, domain_id: domain.id } } });

    // ---- groups
    const student = await insertStudent(t, o);
    await row('group_memberships', { group_id: group, user_id: student.uuid });
    await del(`/v1/groups/${grp}/users/${student.id}`, key, 'group member', 'group_membership.deleted', { group_membership: { group_id: grp, user_id: student.id }, user: { id: student.id } });
    const pool = await row('access_code_pools', { domain_id: domain.uuid, name: `P ${rnd()}` });
    await row('group_access_code_pools', { group_id: group, access_code_pool_id: pool });
    await del(`/v1/groups/${grp}/access-code-pools/${id('accessCodePool', pool)}`, key, 'group pool', 'group_access_code_pool.deleted', {
      group_access_code_pool: { group_id: grp, access_code_pool_id: id('accessCodePool', pool) },
    });
    await del('/v2/groups/', v2, 'group', 'group.deleted', { group: { id: grp } }, { data: [{ type: 'groups', id: grp }] });
    const category = await insertGroupCategory(t, o);
    await del(`/v1/group-categories/${category.id}`, key, 'group category', 'group_category.deleted', { group_category: { id: category.id } });

    // ---- domain memberships
    await joinDomain(t, o, domain.uuid, student.uuid);
    const [{ id: dmb }] = await t.ds.query(`SELECT id FROM domain_users WHERE domain_id = $1 AND user_id = $2`, [domain.uuid, student.uuid]);
    await del(`/v2/students/${student.id}/relationships/domain-memberships/${domain.id}`, v2, 'domain membership', 'domain_membership.deleted', {
      domain_membership: { id: id('domainMembership', dmb), user_id: student.id, domain_id: domain.id },
      user: { id: student.id },
    });

    // ---- access codes
    const code = await row('access_codes', { domain_id: domain.uuid, pool_id: pool, code: `C${rnd()}` });
    await del(`${D}/access-code-pools/${id('accessCodePool', pool)}/access-codes/${id('accessCode', code)}`, key, 'access code', 'access_code.deleted', {
      access_code: { id: id('accessCode', code), access_code_pool_id: id('accessCodePool', pool) },
    });
    await del(`${D}/access-code-pools/${id('accessCodePool', pool)}`, key, 'access code pool', 'access_code_pool.deleted', {
      access_code_pool: { id: id('accessCodePool', pool), domain_id: domain.id },
    });

    // ---- quizzes
    const quiz = await row('quizzes', { name: `Q ${rnd()}` });
    const bank = await row('question_banks', { name: `B ${rnd()}` });
    const qba = await row('question_bank_assignments', { quiz_id: quiz, question_bank_id: bank });
    await del(
      `/v2/quizzes/${id('quiz', quiz)}/question-banks`,
      v2,
      'bank assignment',
      'question_bank_assignment.deleted',
      {
        question_bank_assignment: { id: id('questionBankAssignment', qba), quiz_id: id('quiz', quiz), question_bank_id: id('questionBank', bank) },
      },
      { data: [{ type: 'question-bank-assignments', attributes: { question_bank_id: id('questionBank', bank) } }] },
    );
    const question = await row('questions', { quiz_id: quiz, type: 'MULTIPLE_CHOICE', html: '<p>?</p>' });
    await del(
      '/v2/questions/',
      v2,
      'question',
      'question.deleted',
      { question: { id: id('question', question), quiz_id: id('quiz', quiz), question_bank_id: null } },
      {
        data: [{ type: 'questions', id: id('question', question) }],
      },
    );
    await del('/v2/quizzes/', v2, 'quiz', 'quiz.deleted', { quiz: { id: id('quiz', quiz) } }, { data: [{ type: 'quizzes', id: id('quiz', quiz) }] });
    await del(`/v1/question-banks/${id('questionBank', bank)}`, key, 'question bank', 'question_bank.deleted', { question_bank: { id: id('questionBank', bank) } });

    // ---- administration
    const hook = ok(await t.post('/v1/webhooks', { target_url: 'https://hooks.example.test/x' }, key), 'webhook').body;
    await del(`/v1/webhooks/${hook.id}`, key, 'webhook', 'webhook.deleted', { webhook: { id: hook.id } });

    // ---- paths
    const path = await row('paths', { title: `Path ${rnd()}` });
    const pp = await row('published_paths', { path_id: path, domain_id: domain.uuid, slug: `p-${rnd()}` });
    const ppId = id('publishedPath', pp);
    const item = await row('path_items', { path_id: path, published_course_id: pc2.uuid, order: 1 });
    await del(`${D}/published-paths/${ppId}/path-items/${id('pathItem', item)}`, key, 'path item', 'path_item.deleted', { path_item: { id: id('pathItem', item), path_id: id('path', path) } });
    const group2 = await row('groups', { name: `G ${rnd()}` });
    await row('path_labels', { published_path_id: pp, label_id: label });
    await del(`${D}/published-paths/${ppId}/labels/${id('label', label)}`, key, 'path label', 'published_path_label.deleted', {
      published_path_label: { published_path_id: ppId, label_id: id('label', label) },
    });
    await row('path_tags', { published_path_id: pp, tag_id: tag2 });
    await del(`${D}/published-paths/${ppId}/tags/${id('tag', tag2)}`, key, 'path tag', 'published_path_tag.deleted', { published_path_tag: { published_path_id: ppId, tag_id: id('tag', tag2) } });
    await row('path_visibility_overrides', { published_path_id: pp, group_id: group2, is_visible: true });
    await del(`${D}/published-paths/${ppId}/visibility-overrides/${id('group', group2)}`, key, 'path override', 'published_path_visibility_override.deleted', {
      published_path_visibility_override: { published_path_id: ppId, student_group_id: id('group', group2) },
    });
    await del(`${D}/published-paths/${ppId}`, key, 'published path', 'published_path.deleted', { published_path: { id: ppId, path_id: id('path', path), domain_id: domain.id } });
    await del(`/v1/paths/${id('path', path)}`, key, 'path', 'path.deleted', { path: { id: id('path', path) } });

    // ---- plans, course series, catalog pages, signup fields
    const plan = await row('plans', { domain_id: domain.uuid, name: `Plan ${rnd()}`, slug: `pl-${rnd()}` });
    await del(`${D}/plan/${id('plan', plan)}`, key, 'plan', 'plan.deleted', { plan: { id: id('plan', plan), domain_id: domain.id } });
    const series = await row('course_series', { domain_id: domain.uuid, title: `S ${rnd()}`, slug: `s-${rnd()}` });
    await del(`${D}/course-series/${id('courseSeries', series)}`, key, 'course series', 'course_series.deleted', { course_series: { id: id('courseSeries', series), domain_id: domain.id } });
    const page = await row('catalog_pages', { domain_id: domain.uuid, page_title: 'Page', slug: `cp-${rnd()}` });
    const cpg = id('catalogPage', page);
    const classic = await row('catalog_page_items', { catalog_page_id: page, order: 1, item_type: 'PUBLISHED_COURSE', item_published_course_id: pc2.uuid });
    await del(`${D}/catalog-pages/${cpg}/classic-page-items/${id('catalogPageItem', classic)}`, key, 'classic item', 'classic_page_item.deleted', {
      classic_page_item: { id: id('catalogPageItem', classic), catalog_page_id: cpg },
    });
    const block = await row('catalog_page_blocks', { catalog_page_id: page, order: 1, type: 'TILE_SECTION' });
    const tile = await row('catalog_page_items', { catalog_page_id: page, block_id: block, order: 1, item_type: 'PUBLISHED_COURSE', item_published_course_id: pc2.uuid });
    await del(`${D}/catalog-pages/${cpg}/tile-container-content-blocks/${id('tileContainerBlock', block)}/items/${id('tileContainerItem', tile)}`, key, 'tile item', 'tile_container_item.deleted', {
      tile_container_item: { id: id('tileContainerItem', tile), catalog_page_id: cpg, tile_container_id: id('tileContainerBlock', block) },
    });
    await del(`${D}/catalog-pages/${cpg}/content-blocks/${id('catalogPageBlock', block)}`, key, 'content block', 'content_block.deleted', {
      content_block: { id: id('catalogPageBlock', block), catalog_page_id: cpg },
    });
    await row('catalog_page_tags', { catalog_page_id: page, tag_id: tag2 });
    await del(`${D}/catalog-pages/${cpg}/tags/${id('tag', tag2)}`, key, 'page tag', 'catalog_page_tag.deleted', { catalog_page_tag: { catalog_page_id: cpg, tag_id: id('tag', tag2) } });
    await row('catalog_page_visibility_overrides', { catalog_page_id: page, group_id: group2, is_visible: true });
    await del(`${D}/catalog-pages/${cpg}/visibility-overrides/${id('group', group2)}`, key, 'page override', 'catalog_page_visibility_override.deleted', {
      catalog_page_visibility_override: { catalog_page_id: cpg, student_group_id: id('group', group2) },
    });
    await del(`${D}/catalog-pages/${cpg}`, key, 'catalog page', 'catalog_page.deleted', { catalog_page: { id: cpg, domain_id: domain.id } });
    const field = await row('signup_fields', { domain_id: domain.uuid, label: `F ${rnd()}` });
    await del(`${D}/signup-fields/${id('signupField', field)}`, key, 'signup field', 'signup_field.deleted', { signup_field: { id: id('signupField', field) } });

    // ---- training
    const instructor = await row('ilt_instructors', { email: `i-${rnd()}@example.test` });
    await del(`/v1/ilt-instructors/${id('iltInstructor', instructor)}`, key, 'instructor', 'ilt_instructor.deleted', { ilt_instructor: { id: id('iltInstructor', instructor) } });
    const session = await row('vilt_sessions', { lesson_id: (await insertLesson(t, o, c3.uuid, { type: 'VILT' })).uuid, display_name: 'Session', registration_count: 1 });
    const meeting = await row('vilt_session_events', {
      session_id: session,
      display_name: 'Meeting',
      instructor_email: 'i@example.test',
      starts_at: new Date(Date.now() + 86_400_000),
      ends_at: new Date(Date.now() + 90_000_000),
      timezone: 'UTC',
    });
    const learner = await insertStudent(t, o);
    const enrollment = await enroll(t, o, learner.uuid, pc2);
    const registration = await row('vilt_session_registrations', { session_id: session, user_id: learner.uuid, enrollment_id: enrollment.uuid });
    await del(`/v1/vilt-session-registrations/${id('viltRegistration', registration)}`, key, 'registration', 'vilt_session_registration.deleted', {
      vilt_session_registration: { id: id('viltRegistration', registration), user_id: learner.id, vilt_session_id: id('viltSession', session) },
      user: { id: learner.id },
    });
    await del(`/v1/ilt-sessions/${id('viltSessionEvent', meeting)}`, key, 'session', 'ilt_session.deleted', {
      ilt_session: { id: id('viltSessionEvent', meeting), vilt_session_id: id('viltSession', session) },
    });

    // ---- commerce
    const pkgRow = await row('license_packages', { domain_id: domain.uuid, name: 'Seats', start_date: new Date(), license_count: 5 });
    await del(`/v1/license-packages/${id('licensePackage', pkgRow)}`, key, 'license package', 'license_package.deleted', { license_package: { id: id('licensePackage', pkgRow) } });
    const promoPool = await row('promo_code_pools', { name: `PP ${rnd()}`, starts_at: new Date(), discount_type: 'PERCENT_OFF', percent_off: 10 });
    const [{ id: offer }] = await t.ds.query(`SELECT id FROM offers WHERE published_course_id = $1`, [pc2.uuid]);
    await row('promo_code_pool_offers', { pool_id: promoPool, offer_id: offer });
    await del(`/v1/promo-code-pools/${id('promoCodePool', promoPool)}/offers/${id('offer', offer)}`, key, 'pool offer', 'promo_code_pool_offer.deleted', {
      promo_code_pool_offer: { promo_code_pool_id: id('promoCodePool', promoPool), offer_id: id('offer', offer) },
    });
    const promo = await row('promo_codes', { pool_id: promoPool, code: `PC${rnd()}`, max_uses: 3 });
    await del(`/v1/promo-codes/${id('promoCode', promo)}`, key, 'promo code', 'promo_code.deleted', { promo_code: { id: id('promoCode', promo) } });
    await del(`/v1/promo-code-pools/${id('promoCodePool', promoPool)}`, key, 'promo pool', 'promo_code_pool.deleted', { promo_code_pool: { id: id('promoCodePool', promoPool) } });

    // ---- administration
    await row('admins', { email: `owner-${rnd()}@example.test` }); // the organization keeps an owner
    const admin = await row('admins', { email: `a-${rnd()}@example.test` });
    await del(`/v1/admins/${id('admin', admin)}`, key, 'admin', 'admin.deleted', { admin: { id: id('admin', admin) } });
    const roleName = `role-${rnd()}`;
    await row('admin_roles', { name: roleName, scopes: ['courses:read'] });
    await del(`/v1/admin-roles/${roleName}`, key, 'admin role', 'admin_role.deleted', { admin_role: { name: roleName } });

    // ---- a learner's rating taken back (PATCH rating: null), and what an anonymization removes (signup field values, unused invites)
    const [{ id: rating }] = await t.ds.query(`INSERT INTO course_ratings (organization_id, course_id, user_id, enrollment_id, rating, scale_max) VALUES ($1, $2, $3, $4, 4, 5) RETURNING id`, [
      org,
      c4.uuid,
      learner.uuid,
      enrollment.uuid,
    ]);
    ok(await t.patch(`${D}/published-courses/${id('publishedCourse', pc2.uuid)}/enrollments/${enrollment.id}`, { rating: null }, key), 'rating removed');
    expected.push({ type: 'rating.deleted', member: { rating: { id: id('rating', rating), course_id: c4.id, user_id: learner.id }, user: { id: learner.id } } });
    const field2 = await row('signup_fields', { domain_id: domain.uuid, label: `F ${rnd()}` });
    const value = await row('signup_field_values', { user_id: learner.uuid, signup_field_id: field2, value: 'x' });
    const invite = await row('domain_user_invites', { domain_id: domain.uuid, user_id: learner.uuid, token_hash: randomBytes(32) });
    ok(await t.post(`/v2/students/${learner.id}/anonymize`, {}, { ...v2, headers: { 'X-Confirm-Destructive': 'true' } }), 'anonymize');
    expected.push({
      type: 'signup_field_value.deleted',
      member: { signup_field_value: { id: id('signupFieldValue', value), user_id: learner.id, signup_field_id: id('signupField', field2) }, user: { id: learner.id } },
    });
    expected.push({ type: 'domain_user_invite.deleted', member: { domain_user_invite: { id: id('domainUserInvite', invite), user_id: learner.id, domain_id: domain.id }, user: { id: learner.id } } });

    // /v1 unpublishing
    await del(`${D}/published-courses/${id('publishedCourse', pc2.uuid)}`, key, 'published course (v1)', 'published_course.deleted', {
      published_course: { id: id('publishedCourse', pc2.uuid), course_id: c4.id, domain_id: domain.id },
    });

    // a domain without learners can be deleted: what is published on it goes with it (cascade), and says so
    const spare = await insertDomain(t, o);
    const sparePc = await publishCourse(t, o, c3.uuid, spare.uuid);
    await del(`/v1/domains/${spare.name}`, key, 'domain', 'domain.deleted', { domain: { id: spare.id, name: spare.name } });
    expected.push({ type: 'published_course.deleted', member: { published_course: { id: id('publishedCourse', sparePc.uuid), course_id: c3.id, domain_id: spare.id } } });

    // ---- the log: every expected event, by filter[type], with the ids as the API answers them
    const types = [...new Set(expected.map((e) => e.type))];
    // every declared kind is exercised here (a new entry of DELETED_EVENTS comes with its case)
    expect(DELETED_EVENT_TYPES.filter((x) => !types.includes(x))).toEqual([]);
    const events = await v2Pages(t, `/v2/events/?filter[type]=${types.join(',')}&page[size]=50`, tok);
    for (const e of expected) {
      const found = events.filter((ev) => ev.attributes.event_type === e.type).map((ev) => ev.attributes.body);
      expect({ type: e.type, found }).toEqual({ type: e.type, found: expect.arrayContaining([expect.objectContaining({ event_type: e.type, ...e.member })]) });
    }
    // one type asked, that type only
    const only = await v2Pages(t, `/v2/events/?filter[type]=group.deleted`, tok);
    expect(only.map((e) => e.attributes.body.group.id)).toEqual([grp]);
    // organization-scoped: the other organization's log holds none of them
    const theirs = await v2Pages(t, `/v2/events/?filter[type]=${DELETED_EVENT_TYPES.join(',')}`, await t.tokenFor(other));
    expect(theirs).toEqual([]);
    expect(await t.ds.query(`SELECT count(*)::int AS n FROM outbox_events WHERE organization_id = $1 AND event_type = ANY($2::text[])`, [orgUuid(other as CreatedOrg), DELETED_EVENT_TYPES])).toEqual([
      { n: 0 },
    ]);
  });
});

import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../../src/core/config/config';
import { Queue } from 'bullmq';
import { decodeId, encodeId } from '../../../src/core/ids/ids';
import { QUEUES } from '../../../src/core/queue/queues';
import { redisOptions } from '../../../src/core/redis/redis.module';
import { RelayService } from '../../../src/modules/webhooks/relay.service';
import { createWorker } from '../../../src/worker';
import { orgUuid } from '../fixtures';
import { named, randomName, registerBody, registerParamKey, registerSeeder, registerUnscopedParam } from './registry';

/**
 * The seeders of every module, in dependency order (later seeders use `world.ids`). Objects are
 * created through the API (plans, course series, group categories and signup fields through the
 * administrative writes of CONVENTIONS §15).
 */
const rnd = () => randomBytes(4).toString('hex');
/** The public id in a create answer: /v1 `{id}`, /v1 domain users `{user: {id}}`, /v2 `{data: [{id}]}` or `{data: {id}}`. */
const idOf = (body: any): string => {
  const id = body?.id ?? body?.user?.id ?? (Array.isArray(body?.data) ? body.data[0]?.id : body?.data?.id);
  if (typeof id !== 'string') throw new Error(`no id in ${JSON.stringify(body).slice(0, 300)}`);
  return id;
};

registerUnscopedParam('verify.code', 'GET /verify/{code}: public certificate verification by its code, the code being the credential (test/certificates/verifiable.e2e-spec.ts)');
registerUnscopedParam(
  'orgs.organization_id',
  "GET /orgs/{organization_id}/...: an organization's public issuer documents (DID document, status lists), public by design (test/certificates/verifiable.e2e-spec.ts)",
);
registerUnscopedParam('files.path', 'GET /files/{path} serves signed local storage files: access is the signature, not an organization');

registerSeeder('domains', async (w) => ({
  domain_name: named(w.org.domain_name, () => `${randomName('nodomain')}.example.test`),
}));

registerSeeder('oauth-clients', async (w) => ({
  'clients.id': idOf(await w.v2('POST', '/v2/clients/', { name: `iso ${rnd()}`, scope_preset: 'read-only' })),
}));

registerSeeder('students', async (w) => {
  const student = idOf(await w.v2('POST', '/v2/students/', { data: [{ type: 'students', attributes: { email: `iso-${rnd()}@example.test`, first_name: 'Iso', last_name: 'Lated' } }] }));
  return { 'students.id': student };
});

registerSeeder('domain-users', async (w) => {
  const user = idOf(await w.v1('POST', `/v1/domains/${w.ids.domain_name}/users`, { user: { email: `du-${rnd()}@example.test`, first_name: 'Dom', last_name: 'User' } }));
  const invite = idOf(await w.v1('POST', `/v1/domains/${w.ids.domain_name}/users/${user}/invites`, {}));
  const fieldId = idOf(await w.v1('POST', `/v1/domains/${w.ids.domain_name}/signup-fields`, { label: 'Team' }));
  await w.v1('POST', `/v1/domains/${w.ids.domain_name}/users/${user}/signup-fields`, { signup_field: { id: fieldId }, value: 'Sales' });
  return { user_id: user, invite_id: invite, signup_field_id: fieldId };
});

registerSeeder('courses', async (w) => {
  const v1 = idOf(await w.v1('POST', '/v1/courses', { title: `Course ${rnd()}`, short_description: 'S', enforce_sequential_navigation: false }));
  return { course_id: v1, 'courses.id': v1 };
});

registerSeeder('lessons', async (w) => {
  const lesson = idOf(await w.v1('POST', '/v1/lessons', { course_id: w.ids.course_id, order: 1, title: `Lesson ${rnd()}`, type: 'HTML', content_html: '<p>x</p>' }));
  const modular = idOf(await w.v1('POST', '/v1/lessons', { course_id: w.ids.course_id, order: 2, title: `Modular ${rnd()}`, type: 'MODULAR' }));
  const item = idOf(await w.v1('POST', `/v1/lessons/${modular}/content-items`, { header: 'Intro', order: 2, type: 'HTML', content_html: '<p>y</p>' }));
  return { lesson_id: modular, 'lessons.id': lesson, lesson_content_item_id: item };
});

registerSeeder('labels-tags', async (w) => {
  const label = idOf(await w.v1('POST', '/v1/labels', { name: `Label ${rnd()}` }));
  const tag = idOf(await w.v1('POST', '/v1/tags', { name: `Tag ${rnd()}` }));
  await w.v1('POST', `/v1/courses/${w.ids.course_id}/labels`, { label: { id: label } });
  return { label_id: label, tag_id: tag };
});

registerSeeder('groups', async (w) => {
  const category = idOf(await w.v1('POST', '/v1/group-categories', { name: `Category ${rnd()}` }));
  const group = idOf(await w.v1('POST', '/v1/groups', { name: `Group ${rnd()}`, group_category_id: category }));
  await w.v1('POST', `/v1/groups/${group}/users`, { user: { id: w.ids.user_id } });
  return { group_id: group, student_group_id: group, 'groups.id': group, group_category_id: category };
});

registerSeeder('published-courses', async (w) => {
  const d = w.ids.domain_name;
  const pc = idOf(await w.v1('POST', `/v1/domains/${d}/published-courses`, { course: { id: w.ids.course_id } }));
  const course2 = idOf(await w.v1('POST', '/v1/courses', { title: `Prereq ${rnd()}`, short_description: 'S', enforce_sequential_navigation: false }));
  const pre = idOf(await w.v1('POST', `/v1/domains/${d}/published-courses`, { course: { id: course2 } }));
  await w.v1('POST', `/v1/domains/${d}/published-courses/${pc}/tags`, { tag: { id: w.ids.tag_id } });
  await w.v1('POST', `/v1/domains/${d}/published-courses/${pc}/visibility-overrides`, { student_group: { id: w.ids.group_id }, is_visible: true });
  await w.v1('POST', `/v1/domains/${d}/published-courses/${pc}/published-course-prerequisites`, { published_course: { id: pre } });
  await w.v1('POST', `/v1/domains/${d}/published-courses/${pc}/student-group-prerequisites`, { student_group: { id: w.ids.group_id } });
  return { published_course_id: pc, prerequisite_published_course_id: pre };
});

registerSeeder('enrollments', async (w) => {
  const e = idOf(await w.v1('POST', `/v1/domains/${w.ids.domain_name}/published-courses/${w.ids.published_course_id}/enrollments`, { user: { id: w.ids.user_id } }));
  return { enrollment_id: e, 'enrollments.id': e };
});

registerSeeder('progress', async (w) => {
  const base = `/v1/users/${w.ids.user_id}/published-courses/${w.ids.published_course_id}`;
  const lessons = await w.v1('GET', `${base}/lessons`);
  const lp: string = lessons.results[0].lesson_progress.lesson_progress_id;
  const token: string = (await w.v1('GET', `/v1/lesson-progress/${lp}`)).progress_token_id;
  return { lesson_progress_id: lp, progress_token_id: token };
});

registerSeeder('certificates', async (w) => {
  // a course completion issues the certificate
  await w.v1('PATCH', `/v1/users/${w.ids.user_id}/published-courses/${w.ids.published_course_id}`, { course_progress: { completed_at: '2026-01-01T00:00:00Z' } });
  const certs = await w.v2('GET', `/v2/certificates/?filter[student.id]=${w.ids.user_id}`);
  return { 'certificates.id': idOf(certs.data[0]) };
});

registerSeeder('access-codes', async (w) => {
  const base = `/v1/domains/${w.ids.domain_name}/access-code-pools`;
  const pool = idOf(await w.v1('POST', base, { name: `Pool ${rnd()}`, max_uses: 5 }));
  const code = idOf(await w.v1('POST', `${base}/${pool}/access-codes`, { code: `C${rnd()}` }));
  await w.v1('POST', `/v1/groups/${w.ids.group_id}/access-code-pools`, { access_code_pool: { id: pool } });
  return { access_code_pool_id: pool, access_code_id: code };
});

registerSeeder('plans', async (w) => {
  const d = `/v1/domains/${w.ids.domain_name}`;
  const courses = [{ id: w.ids.published_course_id }];
  const plan = idOf(await w.v1('POST', `${d}/plan`, { name: `Plan ${rnd()}`, hidden: false, published_courses: courses }));
  const series = idOf(await w.v1('POST', `${d}/course-series`, { title: `Series ${rnd()}`, published_courses: courses }));
  const pe = idOf(await w.v1('POST', `${d}/plan/${plan}/plan-enrollments`, { user: { id: w.ids.user_id } }));
  return { plan_id: plan, plan_enrollment_id: pe, course_series_id: series };
});

registerSeeder('paths', async (w) => {
  const base = `/v1/domains/${w.ids.domain_name}/published-paths`;
  const pp = await w.v1('POST', base, { slug: `path-${rnd()}`, path: { title: `Path ${rnd()}` } });
  const ppId = idOf(pp);
  const pathId: string = pp.path?.id;
  if (typeof pathId !== 'string') throw new Error(`no path id in ${JSON.stringify(pp).slice(0, 300)}`);
  const item = idOf(await w.v1('POST', `${base}/${ppId}/path-items`, { order: 1, published_course: { id: w.ids.published_course_id } }));
  const enr = idOf(await w.v1('POST', `${base}/${ppId}/published-path-enrollments`, { user: { id: w.ids.user_id } }));
  await w.v1('POST', `${base}/${ppId}/labels`, { label: { id: w.ids.label_id } });
  await w.v1('POST', `${base}/${ppId}/tags`, { tag: { id: w.ids.tag_id } });
  await w.v1('POST', `${base}/${ppId}/visibility-overrides`, { student_group: { id: w.ids.group_id }, is_visible: true });
  return { published_path_id: ppId, path_id: pathId, path_item_id: item, published_path_enrollment_id: enr };
});

registerSeeder('webhooks', async (w) => {
  const hook = idOf(await w.v1('POST', '/v1/webhooks', { target_url: 'http://127.0.0.1:9/hook' }));
  // the events the earlier seeders' operations wrote (domain enrollment...) become deliveries when the
  // worker's relay runs: run one relay batch of a real worker context (nothing is sent: no job is queued)
  const worker = await createWorker(loadConfig(process.env, { ...w.t.config }));
  try {
    await worker.get(RelayService).relayBatch(1000);
  } finally {
    await worker.close();
  }
  const deliveries = await w.v1('GET', `/v1/webhooks/${hook}/deliveries`);
  return { webhook_id: hook, delivery_id: idOf(deliveries?.results?.[0] ?? deliveries?.[0]) };
});

registerSeeder('content-files', async (w) => {
  // created in PROCESSING (no worker runs here): the id exists, which is all the sweep needs
  const asset = idOf(await w.v1('POST', '/v1/assets', { content_url: 'http://127.0.0.1:9/file.pdf', asset: { name: `Asset ${rnd()}` } }));
  const pkg = idOf(await w.v1('POST', '/v1/web-packages', { content_url: 'http://127.0.0.1:9/pkg.zip', web_package: { title: `Pkg ${rnd()}` } }));
  return { asset_id: asset, web_package_id: pkg };
});

registerSeeder('v2-rest', async (w) => {
  // the /v2 ids of rows the earlier seeders made through /v1 (one row, two interfaces)
  const domains = await w.v2('GET', `/v2/domains/?filter[name]=${encodeURIComponent(w.ids.domain_name)}`);
  const values = await w.v2('GET', `/v2/signup-field-values/?filter[student.id]=${w.ids.user_id}`);
  return {
    'domains.id': idOf(domains.data[0]),
    'published-courses.id': w.ids.published_course_id,
    'web-packages.id': w.ids.web_package_id,
    signup_field_value_id: idOf(values.data[0]),
  };
});

// Write bodies that pass validation (the served schema alone gives 400s on these /v1 operations)
const D = '/v1/domains/{domain_name}';
const PC = `${D}/published-courses/{published_course_id}`;
const PP = `${D}/published-paths/{published_path_id}`;
const groupRef = (o: Record<string, string>) => ({ student_group: { id: o.group_id }, is_visible: true });
registerBody('POST', '/v2/students/{id}/set-password', () => ({ data: { type: 'password-sets', attributes: { password: `Long enough ${rnd()} pass phrase` } } })); // the served example is too short for the organization's rule (a 422 before the id)
registerBody('POST', `${PC}/tags`, (o) => ({ tag: { id: o.tag_id } }));
registerBody('POST', `${PC}/visibility-overrides`, groupRef);
registerBody('POST', `${PC}/published-course-prerequisites`, (o) => ({ published_course: { id: o.prerequisite_published_course_id } }));
registerBody('POST', `${PC}/student-group-prerequisites`, (o) => ({ student_group: { id: o.group_id } }));
registerBody('POST', `${D}/access-code-pools`, () => ({ name: `Pool ${rnd()}`, max_uses: 5 }));
registerBody('POST', `${D}/plan/{plan_id}/plan-enrollments`, (o) => ({ user: { id: o.user_id } }));
registerBody('POST', `${D}/published-paths`, () => ({ slug: `path-${rnd()}`, path: { title: 'Path' } }));
registerBody('POST', `${PP}/labels`, (o) => ({ label: { id: o.label_id } }));
registerBody('POST', `${PP}/tags`, (o) => ({ tag: { id: o.tag_id } }));
registerBody('POST', `${PP}/visibility-overrides`, groupRef);
registerBody('POST', `${PP}/path-items`, (o) => ({ order: 1, published_course: { id: o.published_course_id } }));
registerBody('POST', `${PP}/published-path-enrollments`, (o) => ({ user: { id: o.user_id } }));
registerBody('PUT', '/v1/groups/{group_id}', () => ({ name: `Group ${rnd()}` }));
registerBody('POST', `${D}/users`, () => ({ user: { email: `du-${rnd()}@example.test`, first_name: 'Dom', last_name: 'User' } }));
registerBody('POST', `${D}/users/{user_id}/signup-fields`, (o) => ({ signup_field: { id: o.signup_field_id }, value: 'Sales' }));
registerBody('PUT', '/v1/courses/{course_id}', () => ({ title: 'Course', short_description: 'S', enforce_sequential_navigation: false }));
registerBody('POST', '/v1/courses/{course_id}/labels', (o) => ({ label: { id: o.label_id } }));
registerBody('PUT', '/v1/labels/{label_id}', () => ({ name: `Label ${rnd()}` }));
registerBody('PUT', '/v1/tags/{tag_id}', () => ({ name: `Tag ${rnd()}` }));
registerBody('POST', '/v1/lessons/{lesson_id}/content-items', () => ({ header: 'Intro', order: 3, type: 'HTML', content_html: '<p>z</p>' }));
registerBody('PUT', PP, () => ({ slug: `path-${rnd()}`, hidden: false }));
registerBody('POST', `${D}/users/bulk-create`, () => ({ users: [{ email: `bulk-${rnd()}@example.test`, first_name: 'Bulk', last_name: 'User' }] }));
registerBody('POST', `${D}/users/{user_id}/signup-fields-bulk`, (o) => ({ signup_fields: [{ id: o.signup_field_id, value: 'Sales' }] }));
registerBody('PUT', '/v1/web-packages/{web_package_id}/lessons', (o) => ({ web_package_id: o.web_package_id }));
// administrative writes (CONVENTIONS §15): bodies that pass validation, so the sweep reaches the ids
registerBody('POST', `${D}/signup-fields`, () => ({ label: 'Intruder' }));
registerBody('PUT', `${D}/signup-fields/{signup_field_id}`, () => ({ label: 'Intruder' }));
registerBody('POST', `${D}/plan`, () => ({ name: 'Intruder', hidden: false }));
registerBody('PUT', `${D}/plan/{plan_id}`, () => ({ name: 'Intruder', hidden: false }));
registerBody('POST', `${D}/course-series`, () => ({ title: 'Intruder' }));
registerBody('PUT', `${D}/course-series/{course_series_id}`, () => ({ title: 'Intruder' }));
registerBody('PUT', '/v1/group-categories/{group_category_id}', () => ({ name: 'Intruder' }));
registerBody('PATCH', '/v1/group-categories/{group_category_id}', () => ({ name: 'Intruder' }));
registerBody('POST', '/v2/groups/{id}/relationships/students', (o) => ({ data: [{ type: 'students', id: o['students.id'] }] }));
// /v1 users: an update that would show in org A's reads if it reached A's user
registerBody('PUT', '/v1/users/{user_id}', () => ({ first_name: 'Intruder', email: `intruder-${rnd()}@example.test` }));
registerBody('PATCH', '/v1/users/{user_id}', () => ({ last_name: 'Intruder' }));

// progress: PUT needs the progress object
registerBody('PUT', '/v1/users/{user_id}/published-courses/{published_course_id}', () => ({ course_progress: { score: 1 } }));
registerBody('PUT', '/v1/users/{user_id}/published-courses/{published_course_id}/lessons/{lesson_id}', () => ({ lesson_progress: { score: 1 } }));

// live training (modules/training): an instructor, a multi-session event, a lesson session, its event and a registration
registerSeeder('training', async (w) => {
  const lesson = idOf(await w.v1('POST', '/v1/lessons', { course_id: w.ids.course_id, order: 9, title: `Live ${rnd()}`, type: 'VILT' }));
  const instructor = idOf(await w.v1('POST', '/v1/ilt-instructors', { email: `ins-${rnd()}@example.test` }));
  const multi = idOf(await w.v1('POST', '/v1/ilt-multi-session-events', { lesson, display_name: 'Multi', seats_total: 5 }));
  const session = await w.v1('POST', '/v1/ilt-sessions', {
    instructor_email: 'Ina <ina@example.test>',
    lesson,
    display_name: 'Live',
    starts_at: '2027-01-01T10:00:00Z',
    ends_at: '2027-01-01T11:00:00Z',
    timezone: 'UTC',
    seats_total: 5,
  });
  const reg = idOf(await w.v1('POST', '/v1/vilt-session-registrations', { vilt_session: { id: session.vilt_session.id }, enrollment_id: w.ids.enrollment_id }));
  return {
    'ilt-instructors.id': instructor,
    multi_session_event_id: multi,
    ilt_session_id: session.id,
    vilt_session_event_id: session.id,
    vilt_session_registration_id: reg,
    vilt_lesson_id: lesson,
  };
});
registerBody('PUT', '/v1/ilt-instructors/{id}', () => ({ email: `ins-${rnd()}@example.test` }));
registerBody('PATCH', '/v1/ilt-instructors/{id}', () => ({ email: `ins-${rnd()}@example.test` }));
registerBody('PUT', '/v1/ilt-multi-session-events/{multi_session_event_id}', (o) => ({ lesson: o.vilt_lesson_id, display_name: 'Multi' }));
registerBody('PUT', '/v1/ilt-sessions/{ilt_session_id}', (o) => ({
  instructor_email: 'ina@example.test',
  lesson: o.vilt_lesson_id,
  display_name: 'Live',
  starts_at: '2027-01-01T10:00:00Z',
  ends_at: '2027-01-01T11:00:00Z',
  timezone: 'UTC',
}));
registerBody('PUT', '/v1/vilt-session-registrations/{vilt_session_registration_id}', () => ({ attended: false }));

// commerce (offers, purchases): the published course's offer and a purchase of it (checkout).
registerSeeder('commerce', async (w) => {
  const offer = (await w.v1('GET', `/v1/domains/${w.ids.domain_name}/published-courses/${w.ids.published_course_id}`)).offer.id as string;
  const purchase = idOf(await w.v1('POST', '/v1/purchases', { user: { id: w.ids.user_id }, offer_id: offer }));
  return { 'offers.offer_id': offer, purchase_id: purchase };
});
registerBody('POST', '/v1/purchases/{purchase_id}/fulfill', () => ({ state: 'SUCCESS' }));

// commerce limits (modules/commerce promo-codes, training-credits, license-packages): a pool with an
// offer and a code, a training credit code, a license package with a seated student. The offer is the
// published course's (its offer block); `offers.offer_id` is left to the offers seeder when it ran first.
registerSeeder('commerce-limits', async (w) => {
  const offer = (await w.v1('GET', `/v1/domains/${w.ids.domain_name}/published-courses/${w.ids.published_course_id}`)).offer.id as string;
  const pool = idOf(await w.v1('POST', '/v1/promo-code-pools', { name: `Pool ${rnd()}`, starts_at: '2026-01-01T00:00:00Z', discount_type: 'PERCENT_OFF', percent_off: 10 }));
  await w.v1('POST', `/v1/promo-code-pools/${pool}/offers`, { id: offer });
  const code = idOf(await w.v1('POST', '/v1/promo-codes', { code: `ISO${rnd()}`, max_uses: 5, promo_code_pool_id: pool }));
  const credit = idOf(await w.v1('POST', '/v1/training-credit-codes', { training_credit_code: `TC${rnd()}`, credits_total: 10 }));
  const domain = (await w.t.ds.query(`SELECT id FROM domains WHERE organization_id = $1 AND name = $2`, [orgUuid(w.org), w.ids.domain_name]))[0];
  const pkg = idOf(await w.v1('POST', '/v1/license-packages', { domain_id: encodeId('domain', domain.id), name: `Pkg ${rnd()}`, license_count: 5, offers: [offer] }));
  await w.v1('POST', `/v1/license-packages/${pkg}/students`, { student: { id: w.ids.user_id } });
  return {
    promo_code_pool_id: pool,
    promo_code_id: code,
    training_credit_code_id: credit,
    license_package_id: pkg,
    'students.student_id': w.ids.user_id,
    ...('offers.offer_id' in w.ids || 'offer_id' in w.ids ? {} : { 'offers.offer_id': offer }),
  };
});
registerBody('POST', '/v1/promo-code-pools/{promo_code_pool_id}/offers', (o) => ({ id: o['offers.offer_id'] ?? o.offer_id }));
registerBody('PUT', '/v1/promo-code-pools/{promo_code_pool_id}', () => ({ name: `Pool ${rnd()}`, starts_at: '2026-01-01T00:00:00Z' }));
registerBody('PUT', '/v1/promo-codes/{promo_code_id}', () => ({ code: `ISO${rnd()}`, max_uses: 3 }));
registerBody('POST', '/v1/license-packages/{license_package_id}/students', (o) => ({ student: { id: o['students.id'] } }));
registerBody('PUT', '/v1/license-packages/{license_package_id}/students/{student_id}', () => ({ active: false }));

registerSeeder('quizzes', async (w) => {
  const quiz = idOf(await w.v1('POST', '/v1/quizzes', { name: `Quiz ${rnd()}` }));
  const bank = idOf(await w.v1('POST', '/v1/question-banks', { name: `Bank ${rnd()}` }));
  const mc = { html: '<p>?</p>', type: 'MULTIPLE_CHOICE', answers: [{ answer_text: 'a', correct: true }, { answer_text: 'b' }] };
  const question = idOf(await w.v1('POST', '/v1/quiz-questions', { ...mc, quiz }));
  await w.v1('POST', '/v1/quiz-questions', { ...mc, quiz_question_bank: bank });
  await w.v2('POST', `/v2/quizzes/${quiz}/question-banks/`, { data: [{ type: 'question-bank-assignments', attributes: { question_bank_id: bank } }] });
  return { quiz_id: quiz, 'quizzes.id': quiz, question_bank_id: bank, 'question-banks.id': bank, question_id: question, 'questions.id': question };
});
registerBody('PUT', '/v1/quizzes/{quiz_id}', () => ({ name: `Quiz ${rnd()}` }));
registerBody('PUT', '/v1/question-banks/{question_bank_id}', () => ({ name: `Bank ${rnd()}` }));
registerBody('PUT', '/v1/quiz-questions/{question_id}', () => ({ html: '<p>x</p>', type: 'FREEFORM' }));
const QBA = (o: Record<string, string>) => ({ data: [{ type: 'question-bank-assignments', attributes: { question_bank_id: o.question_bank_id } }] });
registerBody('POST', '/v2/quizzes/{quiz_id}/question-banks/', QBA);
registerBody('PATCH', '/v2/quizzes/{quiz_id}/question-banks/', QBA);
registerBody('DELETE', '/v2/quizzes/{quiz_id}/question-banks/', QBA);
// a graded attempt names the caller's own learner and published course (the quiz of the path is checked first)
registerBody('POST', '/v1/quizzes/{quiz_id}/attempts', (o) => ({ user: { id: o.user_id }, published_course_id: o.published_course_id, answers: [] }));

// identity (CONVENTIONS §19): an administrator, a custom role (by name), and an audit event of the writes above
registerSeeder('organizations-admins', async (w) => {
  const role = `iso-role-${rnd()}`;
  await w.v1('POST', '/v1/admin-roles', { name: role, scopes: ['courses:read'] });
  const admin = idOf(await w.v1('POST', '/v1/admins', { email: `iso-admin-${rnd()}@example.test`, role: 'reporter' }));
  return { admin_id: admin, 'admin-roles.name': named(role, () => `iso-role-${rnd()}`) };
});

registerSeeder('audit', async (w) => {
  const page = await w.v2('GET', '/v2/audit-events/');
  return { 'audit-events.id': idOf({ id: page.data[0]?.id }) };
});

// the live /v2 additions (issue 29 point 5): the seeded asset on /v2, the seeded /v2 student on the org's domain
registerSeeder('live-v2', async (w) => {
  await w.v2('POST', `/v2/students/${w.ids['students.id']}/relationships/domain-memberships/`, { data: [{ type: 'domains', id: w.ids['domains.id'] }] });
  return { 'assets.id': w.ids.asset_id, domain_id: w.ids['domains.id'] };
});
registerBody('PATCH', '/v2/assets/{id}', () => ({ data: { type: 'assets', attributes: { name: `Asset ${rnd()}` } } }));
registerBody('POST', '/v2/students/{id}/relationships/domain-memberships', (o) => ({ data: [{ type: 'domains', id: o['domains.id'] }] }));

// rating content blocks (issue 29 point 3): the seeded MODULAR lesson's rating block, and a MODULAR
// lesson of a second course with none yet (the conformance sweep creates one there: one rating per course)
registerSeeder('rating-content-blocks', async (w) => {
  const block = idOf(await w.v1('POST', `/v1/lessons/${w.ids.lesson_id}/rating-content-blocks`, { rating_question: 'How was it?' }));
  const course = idOf(await w.v1('POST', '/v1/courses', { title: `Rated ${rnd()}`, short_description: 'S', enforce_sequential_navigation: false }));
  const free = idOf(await w.v1('POST', '/v1/lessons', { course_id: course, order: 1, title: `Modular ${rnd()}`, type: 'MODULAR' }));
  return { rating_content_block_id: block, rating_free_lesson_id: free };
});
registerBody('POST', '/v1/lessons/{lesson_id}/rating-content-blocks', () => ({ rating_question: 'Intruder' }));
registerBody('PUT', '/v1/lessons/{lesson_id}/rating-content-blocks/{rating_content_block_id}', () => ({ rating_question: 'Intruder' }));
registerBody('PATCH', '/v1/lessons/{lesson_id}/rating-content-blocks/{rating_content_block_id}', () => ({ rating_question: 'Intruder' }));
registerBody('PUT', `${D}/users/{user_id}/manager-access`, () => ({ group_name: `Managed ${rnd()}`, course_access_level: 'ALL', path_access_level: 'ALL' }));

// re-enrollment rules (issue 29 point 2): the seeded published course's rule
const inTwoHours = () => {
  const d = new Date(Date.now() + 2 * 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d.toISOString();
};
registerSeeder('reenrollment', async (w) => {
  await w.v1('POST', `/v1/domains/${w.ids.domain_name}/published-courses/${w.ids.published_course_id}/reenrollment_rule`, { starts_at: inTwoHours(), cycle_duration: 12 });
  return {};
});
registerBody('POST', `${PC}/reenrollment_rule`, () => ({ starts_at: inTwoHours(), cycle_duration: 1, cycle_duration_unit: 'MONTHS' }));
registerBody('PUT', `${PC}/reenrollment_rule`, () => ({ cycle_duration: 2 }));
registerBody('PATCH', `${PC}/reenrollment_rule`, () => ({ cycle_duration_unit: 'DAYS' }));

// catalog pages (issue 29 point 1, pages, tags and visibility overrides): a page with the seeded tag and group
const CP = `${D}/catalog-pages/{catalog_page_id}`;
registerSeeder('catalog-pages', async (w) => {
  const page = idOf(await w.v1('POST', `/v1/domains/${w.ids.domain_name}/catalog-pages`, { page_title: `Page ${rnd()}` }));
  await w.v1('POST', `/v1/domains/${w.ids.domain_name}/catalog-pages/${page}/tags`, { tag: { id: w.ids.tag_id } });
  await w.v1('POST', `/v1/domains/${w.ids.domain_name}/catalog-pages/${page}/visibility-overrides`, { student_group: { id: w.ids.group_id }, is_visible: true });
  return { catalog_page_id: page };
});
registerBody('POST', `${D}/catalog-pages`, () => ({ page_title: `Page ${rnd()}` }));
registerBody('PUT', CP, () => ({ page_title: `Page ${rnd()}` }));
registerBody('PATCH', CP, () => ({ hidden: true }));
registerBody('POST', `${CP}/tags`, (o) => ({ tag: { id: o.tag_id } }));
registerBody('POST', `${CP}/visibility-overrides`, groupRef);

// what a catalog page holds: a classic item on the seeded (classic) page; a builder page with one
// block of each kind and an item in its tile container
registerSeeder('catalog-page-content', async (w) => {
  const base = `/v1/domains/${w.ids.domain_name}/catalog-pages`;
  const classic = idOf(await w.v1('POST', `${base}/${w.ids.catalog_page_id}/classic-page-items`, { item_published_course_id: w.ids.published_course_id }));
  const builder = idOf(await w.v1('POST', base, { page_title: `Builder ${rnd()}`, is_classic: false }));
  const html = await w.v1('POST', `${base}/${builder}/content-blocks`, { type: 'HTML' });
  const tiles = await w.v1('POST', `${base}/${builder}/content-blocks`, { type: 'TILE_SECTION' });
  const comp = await w.v1('POST', `${base}/${builder}/content-blocks`, { type: 'IN_PROGRESS_COURSES' });
  const tile = tiles.tile_container_content_block_id as string;
  const item = idOf(await w.v1('POST', `${base}/${builder}/tile-container-content-blocks/${tile}/items`, { item_published_course_id: w.ids.published_course_id }));
  return {
    builder_catalog_page_id: builder,
    'classic-page-items.id': classic,
    'content-blocks.id': idOf(html),
    'html-content-blocks.id': html.html_content_block_id,
    'tile-container-content-blocks.id': tile,
    tile_container_id: tile,
    'component-content-blocks.id': comp.component_content_block_id,
    'items.id': item,
  };
});
// a builder page's operations run on the builder page (the seeded catalog page is a classic one)
registerParamKey(/\/catalog-pages\/\{catalog_page_id\}\/(content-blocks|html-content-blocks|tile-container-content-blocks|component-content-blocks)/, 'catalog_page_id', 'builder_catalog_page_id');
registerBody('POST', `${CP}/classic-page-items`, (o) => ({ item_published_course_id: o.published_course_id }));
registerBody('PUT', `${CP}/classic-page-items/{id}`, () => ({ order: 1 }));
registerBody('PATCH', `${CP}/classic-page-items/{id}`, () => ({ order: 1 }));
registerBody('POST', `${CP}/content-blocks`, () => ({ type: 'HTML' }));
registerBody('PUT', `${CP}/content-blocks/{id}`, () => ({ order: 1 }));
registerBody('PATCH', `${CP}/content-blocks/{id}`, () => ({ order: 1 }));
registerBody('PUT', `${CP}/html-content-blocks/{id}`, () => ({ html: '<p>x</p>' }));
registerBody('PATCH', `${CP}/html-content-blocks/{id}`, () => ({ html: '<p>y</p>' }));
registerBody('PUT', `${CP}/tile-container-content-blocks/{id}`, () => ({ header_text: 'Tiles' }));
registerBody('PATCH', `${CP}/tile-container-content-blocks/{id}`, () => ({ alignment: 'left' }));
registerBody('PUT', `${CP}/component-content-blocks/{id}`, () => ({ component: 'in_progress_content', max_tiles: 3 }));
registerBody('PATCH', `${CP}/component-content-blocks/{id}`, () => ({ max_tiles: 5 }));
registerBody('POST', `${CP}/tile-container-content-blocks/{tile_container_id}/items`, (o) => ({ item_published_course_id: o.published_course_id }));
registerBody('PUT', `${CP}/tile-container-content-blocks/{tile_container_id}/items/{id}`, () => ({ order: 1 }));
registerBody('PATCH', `${CP}/tile-container-content-blocks/{tile_container_id}/items/{id}`, () => ({ order: 1 }));
registerSeeder('data-out', async (w) => {
  const events = await w.v2('GET', '/v2/events/?page[size]=1');
  const event = events?.data?.[0]?.id;
  if (typeof event !== 'string') throw new Error('the event log of the seeded organization is empty');
  const exp = idOf(await w.v2('POST', '/v2/exports/', { resource: 'users', format: 'csv' }));
  // the export stays QUEUED (its GET answers the same all along): its job is taken off the queue, so
  // that the worker contexts later seeders start do not run it (a finished one has a download_url
  // whose signature changes every second)
  const q = new Queue(QUEUES.dataExports, { connection: redisOptions(w.t.config), prefix: `${w.t.config.REDIS_PREFIX}:bull` });
  try {
    await q.remove(`export-${decodeId('dataExport', exp)}`);
  } finally {
    await q.close();
  }
  return { 'events.id': event, 'exports.id': exp };
});
registerBody('POST', '/v1/webhooks/{webhook_id}/replay', () => ({ since: '2026-01-01T00:00:00Z' }));

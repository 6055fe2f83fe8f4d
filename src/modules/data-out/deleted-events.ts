import { ID_PREFIXES, IdType } from '../../core/ids/ids';

/**
 * The `*.deleted` sync events of the resources that the lists serve and that can be removed
 * (docs/decisions/data-out.md, "Deletions in the event log"). One entry per trigger that
 * `data_out_deleted()` runs (migrations/1763990000000-deleted-events.ts): the table, what makes a
 * row gone (a hard delete, or the soft-delete column turning non-null), the event type, and the body
 * member that names the object with its identifiers as the API answers them (public ids; a
 * domain's, a label's or a tag's name as /v1 addresses them).
 *
 * test/data-out/deleted-events.e2e-spec.ts compares this list with the triggers of the migrated
 * database, argument for argument, and checks that every table with a soft-delete column has its
 * trigger; deleted-events.spec.ts checks that every DELETE route of the route table names its event
 * here (or is a named non-deletion). A new deletable list fails one of the two until it is added.
 */
export interface DeletedEvent {
  type: string;
  table: string;
  /** `hard`: AFTER DELETE; otherwise the soft-delete column (AFTER UPDATE OF it, null to non-null; a hard delete of a live row counts too). */
  gone: 'hard' | 'deleted_at' | 'unpublished_at';
  /** an extra condition on OLD for this event (a table holding two kinds of rows) */
  when?: string;
  /** the body member naming the object */
  member: string;
  /** [body member, column, id type (or `text`: the column's value as is)] */
  ids: readonly (readonly [string, string, IdType | 'text'])[];
  /** the DELETE routes (method and path of the route table) that remove it */
  routes: readonly string[];
}

const id = (t: IdType) => ['id', 'id', t] as const;

export const DELETED_EVENTS: readonly DeletedEvent[] = [
  // ---- catalog
  { type: 'course.deleted', table: 'courses', gone: 'deleted_at', member: 'course', ids: [id('course')], routes: ['DELETE /v1/courses/:course_id'] },
  { type: 'lesson.deleted', table: 'lessons', gone: 'deleted_at', member: 'lesson', ids: [id('lesson'), ['course_id', 'course_id', 'course']], routes: ['DELETE /v1/lessons/:lesson_id'] },
  {
    type: 'course_label.deleted',
    table: 'course_labels',
    gone: 'hard',
    member: 'course_label',
    ids: [
      ['course_id', 'course_id', 'course'],
      ['label_id', 'label_id', 'label'],
    ],
    routes: ['DELETE /v1/courses/:course_id/labels/:label_id'],
  },
  { type: 'label.deleted', table: 'labels', gone: 'hard', member: 'label', ids: [id('label'), ['name', 'name', 'text']], routes: ['DELETE /v1/labels/:label_id'] },
  { type: 'tag.deleted', table: 'tags', gone: 'hard', member: 'tag', ids: [id('tag'), ['name', 'name', 'text']], routes: ['DELETE /v1/tags/:tag_id'] },
  { type: 'asset.deleted', table: 'assets', gone: 'hard', member: 'asset', ids: [id('asset')], routes: ['DELETE /v1/assets/:asset_id', 'DELETE /v2/assets/:id'] },
  {
    type: 'web_package.deleted',
    table: 'web_packages',
    gone: 'hard',
    member: 'web_package',
    ids: [id('webPackage')],
    routes: ['DELETE /v1/web-packages/:web_package_id', 'DELETE /v2/web-packages/:id'],
  },
  // ---- domains and what is published on them
  { type: 'domain.deleted', table: 'domains', gone: 'hard', member: 'domain', ids: [id('domain'), ['name', 'name', 'text']], routes: ['DELETE /v1/domains/:domain_name'] },
  {
    type: 'published_course.deleted',
    table: 'published_courses',
    gone: 'unpublished_at',
    member: 'published_course',
    ids: [id('publishedCourse'), ['course_id', 'course_id', 'course'], ['domain_id', 'domain_id', 'domain']],
    routes: ['DELETE /v1/domains/:domain_name/published-courses/:published_course_id', 'DELETE /v2/published-courses/:id'],
  },
  {
    type: 'published_course_tag.deleted',
    table: 'published_course_tags',
    gone: 'hard',
    member: 'published_course_tag',
    ids: [
      ['published_course_id', 'published_course_id', 'publishedCourse'],
      ['tag_id', 'tag_id', 'tag'],
    ],
    routes: ['DELETE /v1/domains/:domain_name/published-courses/:published_course_id/tags/:tag_id'],
  },
  {
    type: 'published_course_prerequisite.deleted',
    table: 'published_course_prerequisites',
    gone: 'hard',
    member: 'published_course_prerequisite',
    ids: [
      ['published_course_id', 'published_course_id', 'publishedCourse'],
      ['prerequisite_published_course_id', 'prerequisite_id', 'publishedCourse'],
    ],
    routes: ['DELETE /v1/domains/:domain_name/published-courses/:published_course_id/published-course-prerequisites/:prerequisite_published_course_id'],
  },
  {
    type: 'student_group_prerequisite.deleted',
    table: 'published_course_group_prerequisites',
    gone: 'hard',
    member: 'student_group_prerequisite',
    ids: [
      ['published_course_id', 'published_course_id', 'publishedCourse'],
      ['student_group_id', 'group_id', 'group'],
    ],
    routes: ['DELETE /v1/domains/:domain_name/published-courses/:published_course_id/student-group-prerequisites/:student_group_id'],
  },
  {
    type: 'visibility_override.deleted',
    table: 'visibility_overrides',
    gone: 'hard',
    member: 'visibility_override',
    ids: [id('visibilityOverride'), ['published_course_id', 'published_course_id', 'publishedCourse'], ['student_group_id', 'group_id', 'group']],
    routes: ['DELETE /v1/domains/:domain_name/published-courses/:published_course_id/visibility-overrides/:student_group_id', 'DELETE /v2/groups/:id/relationships/published-course-visibility'],
  },
  { type: 'path.deleted', table: 'paths', gone: 'deleted_at', member: 'path', ids: [id('path')], routes: ['DELETE /v1/paths/:path_id'] },
  {
    type: 'published_path.deleted',
    table: 'published_paths',
    gone: 'unpublished_at',
    member: 'published_path',
    ids: [id('publishedPath'), ['path_id', 'path_id', 'path'], ['domain_id', 'domain_id', 'domain']],
    routes: ['DELETE /v1/domains/:domain_name/published-paths/:published_path_id'],
  },
  {
    type: 'path_item.deleted',
    table: 'path_items',
    gone: 'hard',
    member: 'path_item',
    ids: [id('pathItem'), ['path_id', 'path_id', 'path']],
    routes: ['DELETE /v1/domains/:domain_name/published-paths/:published_path_id/path-items/:path_item_id'],
  },
  {
    type: 'published_path_label.deleted',
    table: 'path_labels',
    gone: 'hard',
    member: 'published_path_label',
    ids: [
      ['published_path_id', 'published_path_id', 'publishedPath'],
      ['label_id', 'label_id', 'label'],
    ],
    routes: ['DELETE /v1/domains/:domain_name/published-paths/:published_path_id/labels/:label_id'],
  },
  {
    type: 'published_path_tag.deleted',
    table: 'path_tags',
    gone: 'hard',
    member: 'published_path_tag',
    ids: [
      ['published_path_id', 'published_path_id', 'publishedPath'],
      ['tag_id', 'tag_id', 'tag'],
    ],
    routes: ['DELETE /v1/domains/:domain_name/published-paths/:published_path_id/tags/:tag_id'],
  },
  {
    type: 'published_path_visibility_override.deleted',
    table: 'path_visibility_overrides',
    gone: 'hard',
    member: 'published_path_visibility_override',
    ids: [
      ['published_path_id', 'published_path_id', 'publishedPath'],
      ['student_group_id', 'group_id', 'group'],
    ],
    routes: ['DELETE /v1/domains/:domain_name/published-paths/:published_path_id/visibility-overrides/:student_group_id'],
  },
  { type: 'plan.deleted', table: 'plans', gone: 'deleted_at', member: 'plan', ids: [id('plan'), ['domain_id', 'domain_id', 'domain']], routes: ['DELETE /v1/domains/:domain_name/plan/:plan_id'] },
  {
    type: 'course_series.deleted',
    table: 'course_series',
    gone: 'deleted_at',
    member: 'course_series',
    ids: [id('courseSeries'), ['domain_id', 'domain_id', 'domain']],
    routes: ['DELETE /v1/domains/:domain_name/course-series/:course_series_id'],
  },
  {
    type: 'catalog_page.deleted',
    table: 'catalog_pages',
    gone: 'hard',
    member: 'catalog_page',
    ids: [id('catalogPage'), ['domain_id', 'domain_id', 'domain']],
    routes: ['DELETE /v1/domains/:domain_name/catalog-pages/:catalog_page_id'],
  },
  {
    type: 'content_block.deleted',
    table: 'catalog_page_blocks',
    gone: 'hard',
    member: 'content_block',
    ids: [id('catalogPageBlock'), ['catalog_page_id', 'catalog_page_id', 'catalogPage']],
    routes: ['DELETE /v1/domains/:domain_name/catalog-pages/:catalog_page_id/content-blocks/:id'],
  },
  {
    type: 'classic_page_item.deleted',
    table: 'catalog_page_items',
    gone: 'hard',
    when: 'OLD.block_id IS NULL',
    member: 'classic_page_item',
    ids: [id('catalogPageItem'), ['catalog_page_id', 'catalog_page_id', 'catalogPage']],
    routes: ['DELETE /v1/domains/:domain_name/catalog-pages/:catalog_page_id/classic-page-items/:id'],
  },
  {
    type: 'tile_container_item.deleted',
    table: 'catalog_page_items',
    gone: 'hard',
    when: 'OLD.block_id IS NOT NULL',
    member: 'tile_container_item',
    ids: [id('tileContainerItem'), ['catalog_page_id', 'catalog_page_id', 'catalogPage'], ['tile_container_id', 'block_id', 'tileContainerBlock']],
    routes: ['DELETE /v1/domains/:domain_name/catalog-pages/:catalog_page_id/tile-container-content-blocks/:tile_container_id/items/:id'],
  },
  {
    type: 'catalog_page_tag.deleted',
    table: 'catalog_page_tags',
    gone: 'hard',
    member: 'catalog_page_tag',
    ids: [
      ['catalog_page_id', 'catalog_page_id', 'catalogPage'],
      ['tag_id', 'tag_id', 'tag'],
    ],
    routes: ['DELETE /v1/domains/:domain_name/catalog-pages/:catalog_page_id/tags/:tag_id'],
  },
  {
    type: 'catalog_page_visibility_override.deleted',
    table: 'catalog_page_visibility_overrides',
    gone: 'hard',
    member: 'catalog_page_visibility_override',
    ids: [
      ['catalog_page_id', 'catalog_page_id', 'catalogPage'],
      ['student_group_id', 'group_id', 'group'],
    ],
    routes: ['DELETE /v1/domains/:domain_name/catalog-pages/:catalog_page_id/visibility-overrides/:student_group_id'],
  },
  {
    type: 'access_code_pool.deleted',
    table: 'access_code_pools',
    gone: 'hard',
    member: 'access_code_pool',
    ids: [id('accessCodePool'), ['domain_id', 'domain_id', 'domain']],
    routes: ['DELETE /v1/domains/:domain_name/access-code-pools/:access_code_pool_id'],
  },
  {
    type: 'access_code.deleted',
    table: 'access_codes',
    gone: 'hard',
    member: 'access_code',
    ids: [id('accessCode'), ['access_code_pool_id', 'pool_id', 'accessCodePool']],
    routes: ['DELETE /v1/domains/:domain_name/access-code-pools/:access_code_pool_id/access-codes/:access_code_id'],
  },
  {
    type: 'signup_field.deleted',
    table: 'signup_fields',
    gone: 'hard',
    member: 'signup_field',
    ids: [id('signupField')],
    routes: ['DELETE /v1/domains/:domain_name/signup-fields/:signup_field_id'],
  },
  {
    type: 'signup_field_value.deleted',
    table: 'signup_field_values',
    gone: 'hard',
    member: 'signup_field_value',
    ids: [id('signupFieldValue'), ['user_id', 'user_id', 'student'], ['signup_field_id', 'signup_field_id', 'signupField']],
    routes: [],
  },
  {
    type: 'domain_membership.deleted',
    table: 'domain_users',
    gone: 'hard',
    member: 'domain_membership',
    ids: [id('domainMembership'), ['user_id', 'user_id', 'student'], ['domain_id', 'domain_id', 'domain']],
    routes: ['DELETE /v2/students/:id/relationships/domain-memberships/:domain_id'],
  },
  {
    type: 'domain_user_invite.deleted',
    table: 'domain_user_invites',
    gone: 'hard',
    member: 'domain_user_invite',
    ids: [id('domainUserInvite'), ['user_id', 'user_id', 'student'], ['domain_id', 'domain_id', 'domain']],
    routes: [],
  },
  // ---- groups
  { type: 'group.deleted', table: 'groups', gone: 'hard', member: 'group', ids: [id('group')], routes: ['DELETE /v1/groups/:group_id', 'DELETE /v2/groups'] },
  { type: 'group_category.deleted', table: 'group_categories', gone: 'hard', member: 'group_category', ids: [id('groupCategory')], routes: ['DELETE /v1/group-categories/:group_category_id'] },
  {
    type: 'group_membership.deleted',
    table: 'group_memberships',
    gone: 'hard',
    member: 'group_membership',
    ids: [
      ['group_id', 'group_id', 'group'],
      ['user_id', 'user_id', 'student'],
    ],
    routes: ['DELETE /v1/groups/:group_id/users/:user_id', 'DELETE /v2/groups/:id/relationships/students'],
  },
  {
    type: 'group_access_code_pool.deleted',
    table: 'group_access_code_pools',
    gone: 'hard',
    member: 'group_access_code_pool',
    ids: [
      ['group_id', 'group_id', 'group'],
      ['access_code_pool_id', 'access_code_pool_id', 'accessCodePool'],
    ],
    routes: ['DELETE /v1/groups/:group_id/access-code-pools/:access_code_pool_id'],
  },
  // ---- organization administration
  { type: 'admin.deleted', table: 'admins', gone: 'hard', member: 'admin', ids: [id('admin')], routes: ['DELETE /v1/admins/:admin_id'] },
  { type: 'admin_role.deleted', table: 'admin_roles', gone: 'hard', member: 'admin_role', ids: [['name', 'name', 'text']], routes: ['DELETE /v1/admin-roles/:name'] },
  { type: 'webhook.deleted', table: 'webhooks', gone: 'hard', member: 'webhook', ids: [id('webhook')], routes: ['DELETE /v1/webhooks/:webhook_id'] },
  // ---- training
  { type: 'ilt_instructor.deleted', table: 'ilt_instructors', gone: 'hard', member: 'ilt_instructor', ids: [id('iltInstructor')], routes: ['DELETE /v1/ilt-instructors/:id'] },
  {
    // a meeting of /v1/ilt-sessions (and /v1/vilt-session-events); deleting a one-meeting session deletes its vilt_sessions row, whose meeting goes by cascade
    type: 'ilt_session.deleted',
    table: 'vilt_session_events',
    gone: 'hard',
    member: 'ilt_session',
    ids: [id('viltSessionEvent'), ['vilt_session_id', 'session_id', 'viltSession']],
    routes: ['DELETE /v1/ilt-sessions/:ilt_session_id'],
  },
  {
    type: 'vilt_session_registration.deleted',
    table: 'vilt_session_registrations',
    gone: 'hard',
    member: 'vilt_session_registration',
    ids: [id('viltRegistration'), ['user_id', 'user_id', 'student'], ['vilt_session_id', 'session_id', 'viltSession']],
    routes: ['DELETE /v1/vilt-session-registrations/:vilt_session_registration_id'],
  },
  // ---- commerce
  { type: 'license_package.deleted', table: 'license_packages', gone: 'hard', member: 'license_package', ids: [id('licensePackage')], routes: ['DELETE /v1/license-packages/:license_package_id'] },
  { type: 'promo_code_pool.deleted', table: 'promo_code_pools', gone: 'hard', member: 'promo_code_pool', ids: [id('promoCodePool')], routes: ['DELETE /v1/promo-code-pools/:promo_code_pool_id'] },
  {
    type: 'promo_code_pool_offer.deleted',
    table: 'promo_code_pool_offers',
    gone: 'hard',
    member: 'promo_code_pool_offer',
    ids: [
      ['promo_code_pool_id', 'pool_id', 'promoCodePool'],
      ['offer_id', 'offer_id', 'offer'],
    ],
    routes: ['DELETE /v1/promo-code-pools/:promo_code_pool_id/offers/:offer_id'],
  },
  { type: 'promo_code.deleted', table: 'promo_codes', gone: 'hard', member: 'promo_code', ids: [id('promoCode')], routes: ['DELETE /v1/promo-codes/:promo_code_id'] },
  // ---- quizzes
  { type: 'quiz.deleted', table: 'quizzes', gone: 'deleted_at', member: 'quiz', ids: [id('quiz')], routes: ['DELETE /v1/quizzes/:quiz_id', 'DELETE /v2/quizzes'] },
  {
    type: 'question_bank.deleted',
    table: 'question_banks',
    gone: 'deleted_at',
    member: 'question_bank',
    ids: [id('questionBank')],
    routes: ['DELETE /v1/question-banks/:question_bank_id', 'DELETE /v2/question-banks'],
  },
  {
    type: 'question.deleted',
    table: 'questions',
    gone: 'deleted_at',
    member: 'question',
    ids: [id('question'), ['quiz_id', 'quiz_id', 'quiz'], ['question_bank_id', 'question_bank_id', 'questionBank']],
    routes: [
      'DELETE /v1/question-banks/:question_bank_id/questions/:question_id',
      'DELETE /v1/quiz-questions/:question_id',
      'DELETE /v1/quizzes/:quiz_id/questions/:question_id',
      'DELETE /v2/questions',
    ],
  },
  {
    type: 'question_bank_assignment.deleted',
    table: 'question_bank_assignments',
    gone: 'hard',
    member: 'question_bank_assignment',
    ids: [id('questionBankAssignment'), ['quiz_id', 'quiz_id', 'quiz'], ['question_bank_id', 'question_bank_id', 'questionBank']],
    routes: ['DELETE /v2/quizzes/:quiz_id/question-banks'],
  },
  // ---- ratings (a learner's rating of a course can be taken back)
  {
    type: 'rating.deleted',
    table: 'course_ratings',
    gone: 'hard',
    member: 'rating',
    ids: [id('rating'), ['course_id', 'course_id', 'course'], ['user_id', 'user_id', 'student']],
    routes: [],
  },
];

/**
 * DELETE routes that remove no object of a list (so no `*.deleted` event), each with its reason.
 * deleted-events.spec.ts refuses a DELETE route found in neither list.
 */
export const NOT_LIST_DELETIONS: Readonly<Record<string, string>> = {
  'DELETE /mcp': 'ends an MCP session',
  'DELETE /v2/oauth/register': 'a client deleting its own registration (RFC 7592); /v2/clients shows it inactive, seen by updated_since',
  'DELETE /v2/clients/:id': 'deactivates the client: /v2/clients shows is_active false, seen by updated_since',
  'DELETE /v2/students/:id': 'deactivates the student: user.deactivated',
  'DELETE /scim/v2/Users/:id': 'deactivates the user: user.deactivated',
  'DELETE /scim/v2/Groups/:id': 'deletes the group: group.deleted (the groups trigger), membership removals group_membership.deleted',
  'DELETE /v1/organization/sso': 'a singleton (the organization SSO setting), no list',
  'DELETE /v1/domains/:domain_name/published-courses/:published_course_id/reenrollment_rule': 'a singleton of the published course, no list',
  'DELETE /v1/domains/:domain_name/users/:user_id/manager-access': 'a singleton of the domain user, no list',
  'DELETE /v1/lessons/:lesson_id/rating-content-blocks/:rating_content_block_id':
    'a block of the lesson body: /v1/lessons/{id}/content-items answers all of the lesson blocks when the lesson changed (its updated_at moves), so a removed block is seen by updated_since',
};

/** The public id prefix of an id type, or '' for a text column (as the migration writes the trigger arguments). */
export const idPrefix = (t: IdType | 'text'): string => (t === 'text' ? '' : ID_PREFIXES[t]);

/** The arguments of `data_out_deleted()` for an entry: event type, member, then (member, column, prefix) triples. */
export const triggerArguments = (e: DeletedEvent): string[] => [e.type, e.member, ...e.ids.flatMap(([m, c, t]) => [m, c, idPrefix(t)])];

export const DELETED_EVENT_TYPES: readonly string[] = DELETED_EVENTS.map((e) => e.type);

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `*.deleted` sync events for every resource a list serves that can be removed
 * (docs/decisions/data-out.md, "Deletions in the event log").
 *
 * One trigger function, `data_out_deleted()`, attached to each table below: it writes, through
 * `data_out_record` (migration 1763770000000: organization-scoped, born relayed, kept 30 days), an
 * event whose body names the removed object by the identifiers the API answers with. Its arguments:
 * the event type, the body member, then (member, column, public id prefix) triples, an empty prefix
 * giving the column's text as is (a domain's name). A body naming a learner (`user_id`) also carries
 * `user {id}`, as every sync event about a person does (anonymization finds them by it).
 *
 * A hard delete fires AFTER DELETE; a soft-deleted table (`deleted_at`, `unpublished_at`) fires when
 * the column turns from null to a time, and on a hard delete of a row that was still live. A cascade
 * (a group's memberships when the group goes) writes the events of the rows it removes, so a mirror
 * need not know the foreign keys; a cascade from a deleted organization writes nothing.
 *
 * The list is src/modules/data-out/deleted-events.ts (DELETED_EVENTS); a test compares the
 * triggers of the migrated database with it, argument for argument.
 */
const DELETIONS: [table: string, gone: 'hard' | 'deleted_at' | 'unpublished_at', when: string | null, args: string[]][] = [
  ['courses', 'deleted_at', null, ['course.deleted', 'course', 'id', 'id', 'crs']],
  ['lessons', 'deleted_at', null, ['lesson.deleted', 'lesson', 'id', 'id', 'les', 'course_id', 'course_id', 'crs']],
  ['course_labels', 'hard', null, ['course_label.deleted', 'course_label', 'course_id', 'course_id', 'crs', 'label_id', 'label_id', 'lbl']],
  ['labels', 'hard', null, ['label.deleted', 'label', 'id', 'id', 'lbl', 'name', 'name', '']],
  ['tags', 'hard', null, ['tag.deleted', 'tag', 'id', 'id', 'tag', 'name', 'name', '']],
  ['assets', 'hard', null, ['asset.deleted', 'asset', 'id', 'id', 'ast']],
  ['web_packages', 'hard', null, ['web_package.deleted', 'web_package', 'id', 'id', 'wpk']],
  ['domains', 'hard', null, ['domain.deleted', 'domain', 'id', 'id', 'dom', 'name', 'name', '']],
  ['published_courses', 'unpublished_at', null, ['published_course.deleted', 'published_course', 'id', 'id', 'pcs', 'course_id', 'course_id', 'crs', 'domain_id', 'domain_id', 'dom']],
  ['published_course_tags', 'hard', null, ['published_course_tag.deleted', 'published_course_tag', 'published_course_id', 'published_course_id', 'pcs', 'tag_id', 'tag_id', 'tag']],
  [
    'published_course_prerequisites',
    'hard',
    null,
    ['published_course_prerequisite.deleted', 'published_course_prerequisite', 'published_course_id', 'published_course_id', 'pcs', 'prerequisite_published_course_id', 'prerequisite_id', 'pcs'],
  ],
  [
    'published_course_group_prerequisites',
    'hard',
    null,
    ['student_group_prerequisite.deleted', 'student_group_prerequisite', 'published_course_id', 'published_course_id', 'pcs', 'student_group_id', 'group_id', 'grp'],
  ],
  [
    'visibility_overrides',
    'hard',
    null,
    ['visibility_override.deleted', 'visibility_override', 'id', 'id', 'vov', 'published_course_id', 'published_course_id', 'pcs', 'student_group_id', 'group_id', 'grp'],
  ],
  ['paths', 'deleted_at', null, ['path.deleted', 'path', 'id', 'id', 'pth']],
  ['published_paths', 'unpublished_at', null, ['published_path.deleted', 'published_path', 'id', 'id', 'ppth', 'path_id', 'path_id', 'pth', 'domain_id', 'domain_id', 'dom']],
  ['path_items', 'hard', null, ['path_item.deleted', 'path_item', 'id', 'id', 'pit', 'path_id', 'path_id', 'pth']],
  ['path_labels', 'hard', null, ['published_path_label.deleted', 'published_path_label', 'published_path_id', 'published_path_id', 'ppth', 'label_id', 'label_id', 'lbl']],
  ['path_tags', 'hard', null, ['published_path_tag.deleted', 'published_path_tag', 'published_path_id', 'published_path_id', 'ppth', 'tag_id', 'tag_id', 'tag']],
  [
    'path_visibility_overrides',
    'hard',
    null,
    ['published_path_visibility_override.deleted', 'published_path_visibility_override', 'published_path_id', 'published_path_id', 'ppth', 'student_group_id', 'group_id', 'grp'],
  ],
  ['plans', 'deleted_at', null, ['plan.deleted', 'plan', 'id', 'id', 'pln', 'domain_id', 'domain_id', 'dom']],
  ['course_series', 'deleted_at', null, ['course_series.deleted', 'course_series', 'id', 'id', 'csr', 'domain_id', 'domain_id', 'dom']],
  ['catalog_pages', 'hard', null, ['catalog_page.deleted', 'catalog_page', 'id', 'id', 'cpg', 'domain_id', 'domain_id', 'dom']],
  ['catalog_page_blocks', 'hard', null, ['content_block.deleted', 'content_block', 'id', 'id', 'cpb', 'catalog_page_id', 'catalog_page_id', 'cpg']],
  ['catalog_page_items', 'hard', 'OLD.block_id IS NULL', ['classic_page_item.deleted', 'classic_page_item', 'id', 'id', 'cpi', 'catalog_page_id', 'catalog_page_id', 'cpg']],
  [
    'catalog_page_items',
    'hard',
    'OLD.block_id IS NOT NULL',
    ['tile_container_item.deleted', 'tile_container_item', 'id', 'id', 'tci', 'catalog_page_id', 'catalog_page_id', 'cpg', 'tile_container_id', 'block_id', 'tcb'],
  ],
  ['catalog_page_tags', 'hard', null, ['catalog_page_tag.deleted', 'catalog_page_tag', 'catalog_page_id', 'catalog_page_id', 'cpg', 'tag_id', 'tag_id', 'tag']],
  [
    'catalog_page_visibility_overrides',
    'hard',
    null,
    ['catalog_page_visibility_override.deleted', 'catalog_page_visibility_override', 'catalog_page_id', 'catalog_page_id', 'cpg', 'student_group_id', 'group_id', 'grp'],
  ],
  ['access_code_pools', 'hard', null, ['access_code_pool.deleted', 'access_code_pool', 'id', 'id', 'acp', 'domain_id', 'domain_id', 'dom']],
  ['access_codes', 'hard', null, ['access_code.deleted', 'access_code', 'id', 'id', 'acc', 'access_code_pool_id', 'pool_id', 'acp']],
  ['signup_fields', 'hard', null, ['signup_field.deleted', 'signup_field', 'id', 'id', 'sfd']],
  ['signup_field_values', 'hard', null, ['signup_field_value.deleted', 'signup_field_value', 'id', 'id', 'sfv', 'user_id', 'user_id', 'stu', 'signup_field_id', 'signup_field_id', 'sfd']],
  ['domain_users', 'hard', null, ['domain_membership.deleted', 'domain_membership', 'id', 'id', 'dmb', 'user_id', 'user_id', 'stu', 'domain_id', 'domain_id', 'dom']],
  ['domain_user_invites', 'hard', null, ['domain_user_invite.deleted', 'domain_user_invite', 'id', 'id', 'dui', 'user_id', 'user_id', 'stu', 'domain_id', 'domain_id', 'dom']],
  ['groups', 'hard', null, ['group.deleted', 'group', 'id', 'id', 'grp']],
  ['group_categories', 'hard', null, ['group_category.deleted', 'group_category', 'id', 'id', 'gcat']],
  ['group_memberships', 'hard', null, ['group_membership.deleted', 'group_membership', 'group_id', 'group_id', 'grp', 'user_id', 'user_id', 'stu']],
  ['group_access_code_pools', 'hard', null, ['group_access_code_pool.deleted', 'group_access_code_pool', 'group_id', 'group_id', 'grp', 'access_code_pool_id', 'access_code_pool_id', 'acp']],
  ['admins', 'hard', null, ['admin.deleted', 'admin', 'id', 'id', 'adm']],
  ['admin_roles', 'hard', null, ['admin_role.deleted', 'admin_role', 'name', 'name', '']],
  ['webhooks', 'hard', null, ['webhook.deleted', 'webhook', 'id', 'id', 'whk']],
  ['ilt_instructors', 'hard', null, ['ilt_instructor.deleted', 'ilt_instructor', 'id', 'id', 'ilti']],
  ['vilt_session_events', 'hard', null, ['ilt_session.deleted', 'ilt_session', 'id', 'id', 'vse', 'vilt_session_id', 'session_id', 'vss']],
  [
    'vilt_session_registrations',
    'hard',
    null,
    ['vilt_session_registration.deleted', 'vilt_session_registration', 'id', 'id', 'vsr', 'user_id', 'user_id', 'stu', 'vilt_session_id', 'session_id', 'vss'],
  ],
  ['license_packages', 'hard', null, ['license_package.deleted', 'license_package', 'id', 'id', 'lpkg']],
  ['promo_code_pools', 'hard', null, ['promo_code_pool.deleted', 'promo_code_pool', 'id', 'id', 'pcpl']],
  ['promo_code_pool_offers', 'hard', null, ['promo_code_pool_offer.deleted', 'promo_code_pool_offer', 'promo_code_pool_id', 'pool_id', 'pcpl', 'offer_id', 'offer_id', 'ofr']],
  ['promo_codes', 'hard', null, ['promo_code.deleted', 'promo_code', 'id', 'id', 'prmc']],
  ['quizzes', 'deleted_at', null, ['quiz.deleted', 'quiz', 'id', 'id', 'quiz']],
  ['question_banks', 'deleted_at', null, ['question_bank.deleted', 'question_bank', 'id', 'id', 'qbk']],
  ['questions', 'deleted_at', null, ['question.deleted', 'question', 'id', 'id', 'qst', 'quiz_id', 'quiz_id', 'quiz', 'question_bank_id', 'question_bank_id', 'qbk']],
  [
    'question_bank_assignments',
    'hard',
    null,
    ['question_bank_assignment.deleted', 'question_bank_assignment', 'id', 'id', 'qba', 'quiz_id', 'quiz_id', 'quiz', 'question_bank_id', 'question_bank_id', 'qbk'],
  ],
  ['course_ratings', 'hard', null, ['rating.deleted', 'rating', 'id', 'id', 'rat', 'course_id', 'course_id', 'crs', 'user_id', 'user_id', 'stu']],
];

const triggerName = (args: string[], soft: boolean) => `data_out_${args[1]}_${soft ? 'soft_deleted' : 'deleted'}`;
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

export class DeletedEvents1763990000000 implements MigrationInterface {
  name = 'DeletedEvents1763990000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION data_out_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        r jsonb := to_jsonb(OLD);
        obj jsonb := '{}'::jsonb;
        body jsonb;
        v text;
        i int := 2;
      BEGIN
        WHILE i + 2 < TG_NARGS LOOP
          v := r ->> TG_ARGV[i + 1];
          obj := obj || jsonb_build_object(TG_ARGV[i], CASE WHEN v IS NULL THEN NULL WHEN TG_ARGV[i + 2] = '' THEN to_jsonb(v) ELSE to_jsonb(public_id(TG_ARGV[i + 2], v::uuid)) END);
          i := i + 3;
        END LOOP;
        body := jsonb_build_object(TG_ARGV[1], obj);
        IF r ? 'user_id' AND r ->> 'user_id' IS NOT NULL THEN
          body := body || jsonb_build_object('user', jsonb_build_object('id', public_id('stu', (r ->> 'user_id')::uuid)));
        END IF;
        PERFORM data_out_record((r ->> 'organization_id')::uuid, TG_ARGV[0], body);
        RETURN NULL;
      END $$`);

    for (const [table, gone, when, args] of DELETIONS) {
      const argList = args.map(literal).join(', ');
      const live = gone === 'hard' ? [] : [`OLD.${gone} IS NULL`];
      const onDelete = [...live, ...(when ? [when] : [])];
      await q.query(
        `CREATE TRIGGER ${triggerName(args, false)} AFTER DELETE ON ${table} FOR EACH ROW ${onDelete.length ? `WHEN (${onDelete.join(' AND ')}) ` : ''}EXECUTE FUNCTION data_out_deleted(${argList})`,
      );
      if (gone !== 'hard') {
        const onUpdate = [`OLD.${gone} IS NULL AND NEW.${gone} IS NOT NULL`, ...(when ? [when] : [])];
        await q.query(`CREATE TRIGGER ${triggerName(args, true)} AFTER UPDATE OF ${gone} ON ${table} FOR EACH ROW WHEN (${onUpdate.join(' AND ')}) EXECUTE FUNCTION data_out_deleted(${argList})`);
      }
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table, gone, , args] of DELETIONS) {
      await q.query(`DROP TRIGGER IF EXISTS ${triggerName(args, false)} ON ${table}`);
      if (gone !== 'hard') await q.query(`DROP TRIGGER IF EXISTS ${triggerName(args, true)} ON ${table}`);
    }
    await q.query(`DROP FUNCTION IF EXISTS data_out_deleted()`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lesson -> course search-vector triggers become statement-level: each statement touches the
 * affected courses once, locking them in id order. Row-level triggers updated a course per lesson
 * row, in the order rows happened to be written, so two concurrent multi-lesson writes spanning the
 * same courses in opposite orders could deadlock (and a batch of 100 lessons did 100 course updates).
 * Updates only touch courses when a column that feeds the vector actually changed.
 */
export class LessonSearchStatementTriggers1763700010000 implements MigrationInterface {
  name = 'LessonSearchStatementTriggers1763700010000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS lessons_search_vector_ins ON lessons`);
    await q.query(`DROP TRIGGER IF EXISTS lessons_search_vector_upd ON lessons`);
    await q.query(`DROP FUNCTION IF EXISTS lessons_search_vector_trg()`);
    await q.query(`
      CREATE FUNCTION lessons_touch_courses(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        IF cardinality(ids) = 0 THEN RETURN; END IF;
        PERFORM 1 FROM courses WHERE id = ANY(ids) ORDER BY id FOR UPDATE;
        UPDATE courses SET search_vector = ''::tsvector WHERE id = ANY(ids);
      END $$`);
    await q.query(`
      CREATE FUNCTION lessons_search_ins_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM lessons_touch_courses(ARRAY(SELECT DISTINCT course_id FROM new_rows));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION lessons_search_del_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM lessons_touch_courses(ARRAY(SELECT DISTINCT course_id FROM old_rows));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION lessons_search_upd_stmt() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM lessons_touch_courses(ARRAY(
          SELECT DISTINCT c FROM (
            SELECT unnest(ARRAY[o.course_id, n.course_id]) AS c
              FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE (o.search_keywords, o.deleted_at, o.is_draft, o.course_id)
                   IS DISTINCT FROM (n.search_keywords, n.deleted_at, n.is_draft, n.course_id)
          ) changed));
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER lessons_search_vector_ins AFTER INSERT ON lessons
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lessons_search_ins_stmt()`);
    await q.query(`
      CREATE TRIGGER lessons_search_vector_del AFTER DELETE ON lessons
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lessons_search_del_stmt()`);
    await q.query(`
      CREATE TRIGGER lessons_search_vector_upd AFTER UPDATE ON lessons
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lessons_search_upd_stmt()`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['lessons_search_vector_ins', 'lessons_search_vector_del', 'lessons_search_vector_upd']) await q.query(`DROP TRIGGER IF EXISTS ${t} ON lessons`);
    for (const f of ['lessons_search_ins_stmt()', 'lessons_search_del_stmt()', 'lessons_search_upd_stmt()', 'lessons_touch_courses(uuid[])']) {
      await q.query(`DROP FUNCTION IF EXISTS ${f}`);
    }
  }
}

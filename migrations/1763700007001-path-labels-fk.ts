import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * path_labels.label_id references the content module's labels table, which now exists (migration
 * 1763700005000): add the foreign key so removing a label removes it from published paths. Guarded
 * so the migration is a no-op where the labels table is absent.
 */
export class PathLabelsFk1763700007001 implements MigrationInterface {
  name = 'PathLabelsFk1763700007001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DO $$ BEGIN
        IF to_regclass('public.labels') IS NOT NULL THEN
          DELETE FROM path_labels pl WHERE NOT EXISTS (SELECT 1 FROM labels l WHERE l.id = pl.label_id);
          ALTER TABLE path_labels ADD CONSTRAINT path_labels_label_fk FOREIGN KEY (label_id) REFERENCES labels(id) ON DELETE CASCADE;
        END IF;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE path_labels DROP CONSTRAINT IF EXISTS path_labels_label_fk`);
  }
}

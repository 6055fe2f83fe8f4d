import type { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';

/**
 * Anonymization's step in the progress tables (CONVENTIONS §10 last rule, docs/decisions/progress.md
 * "Anonymization"), run by students/erase-personal-data.ts in the anonymizing transaction. The free
 * text a lesson progress holds is written by the content or an administrator and may name the
 * learner: `custom_data` (SCORM suspend data, notes) and `validation_data` (a proctoring review) are
 * cleared. Dates, counts, scores and statuses are the learner's record, not personal text, and stay
 * (the course's analytics count them). course_progress holds no free text of the learner
 * (`credits_earned` / `credit_unit_plural` are the course's credit labels). One statement
 * (lesson_progress_user_idx).
 */
export async function eraseProgressPersonalData(m: EntityManager, organizationId: string, userId: string): Promise<void> {
  await scoped(m, organizationId).query(
    `UPDATE lesson_progress SET custom_data = NULL, validation_data = NULL, updated_at = date_trunc('milliseconds', now())
      WHERE organization_id = $org AND user_id = $1 AND (custom_data IS NOT NULL OR validation_data IS NOT NULL)`,
    [userId],
  );
}

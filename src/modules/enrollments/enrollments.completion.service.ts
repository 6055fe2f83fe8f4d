import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { encodeId } from '../../core/ids/ids';
import { CourseProgressWrites } from './course-progress-writes';
import type { EnrollmentCompletionItem } from './dto/enrollment.v2.dto';
import { EnrollmentsV2Service, EnrollmentV2Row } from './enrollments.v2.service';
import { itemDateTime } from '../../core/http/v2-dates';
import { ENROLLMENT_NOT_FOUND, enrollmentItems } from './v2-items';

type Outcome = ItemOutcome<EnrollmentV2Row>;
const fail = (code: 'not_found' | 'validation_error', detail: string, pointer: string): Outcome => ({ ok: false, code, detail, pointer });

/**
 * PATCH /v2/enrollments/completion: sets (a date) or removes (null) the completion of the course
 * progress each enrollment has, and its direct `success_status` (passed / failed; null clears it). The change and what follows it (enrollments' completed_at,
 * certificates issued or expired, COURSE_COMPLETION and PATH_COMPLETION) are the progress module's
 * (ProgressService.setCourseCompletions); this is the batch side: ids, dates, per-item outcomes,
 * and the enrollments re-read in the same transaction for the results.
 */
@Injectable()
export class EnrollmentsCompletionService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly progress: CourseProgressWrites,
    private readonly reads: EnrollmentsV2Service,
  ) {}

  async completeMany(p: Principal, items: ValidItem<EnrollmentCompletionItem>[]): Promise<Map<number, Outcome>> {
    const out = new Map<number, Outcome>();
    const changes: { index: number; enrollmentId: string; completedAt: Date | null | undefined; successStatus: 'PASSED' | 'FAILED' | null | undefined }[] = [];
    for (const { v, id, sent } of enrollmentItems(items, out)) {
      const setStatus = 'success_status' in sent;
      const setCompletion = 'completed_at' in sent;
      if (!setStatus && !setCompletion) {
        out.set(v.index, fail('validation_error', 'Nothing to update: give completed_at (a date-time, or null to remove the completion) or success_status (passed, failed or null).', '/attributes'));
        continue;
      }
      const at = setCompletion ? itemDateTime(v.item.attributes.completed_at, '/attributes/completed_at') : { value: undefined };
      if ('error' in at) {
        out.set(v.index, fail('validation_error', at.error, at.pointer));
        continue;
      }
      // passed / failed (checked by the item's rules) is the course progress's PASSED / FAILED; null clears the direct status
      const status = v.item.attributes.success_status;
      const successStatus = !setStatus ? undefined : status === 'passed' ? 'PASSED' : status === 'failed' ? 'FAILED' : null;
      changes.push({ index: v.index, enrollmentId: id, completedAt: at.value, successStatus });
    }
    if (!changes.length) return out;
    return this.ds.transaction(async (m) => {
      const found = await this.progress.setCourseCompletions(
        m,
        p.organizationId,
        changes.map((c) => ({ enrollmentId: c.enrollmentId, completedAt: c.completedAt, successStatus: c.successStatus })),
      );
      const rows = new Map((await this.reads.byIds(p.organizationId, [...found], m)).map((r) => [r.id, r]));
      for (const c of changes) {
        const r = rows.get(c.enrollmentId);
        out.set(c.index, r ? { ok: true, id: encodeId('enrollment', r.id), result: r } : ENROLLMENT_NOT_FOUND);
      }
      return out;
    });
  }
}

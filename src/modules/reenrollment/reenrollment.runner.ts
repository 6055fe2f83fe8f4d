import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { scoped, unscoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { startNewCycles } from '../progress/cycles';
import { nextRunAfter } from './cycle';
import { DueReenrollmentRuleRow, REENROLLMENT_RULE_COLUMNS } from './reenrollment-rules.store';

/**
 * The worker's side of re-enrollment rules (CONVENTIONS §17). Each due rule runs in its own
 * transaction: the rule row is taken FOR UPDATE SKIP LOCKED and its next_run_at checked again under
 * the lock (a second worker skips it, or finds it already moved on), the run is recorded under the
 * unique (rule, scheduled time) key, every learner whose completion is older than the scheduled time
 * starts a new cycle (progress/cycles.ts), and next_run_at moves on by the cycle, all or nothing: a
 * worker killed mid-run leaves the rule due and the next tick (of any worker) runs it once.
 */
@Injectable()
export class ReenrollmentRunner {
  private readonly logger = new Logger(ReenrollmentRunner.name);

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Run the rules that are due (a batch of at most `limit`); the number of runs made. */
  async runDue(limit = 100): Promise<number> {
    const due: { id: string }[] = await unscoped(this.ds, 'the re-enrollment tick serves every organization').query(
      `SELECT id FROM reenrollment_rules WHERE next_run_at <= now() ORDER BY next_run_at LIMIT $1`,
      [limit],
    );
    let runs = 0;
    for (const { id } of due) if (await this.runOne(id)) runs++;
    return runs;
  }

  /** One rule's run, once: false when another worker holds it or it is no longer due. */
  async runOne(ruleId: string): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      const [rule] = await unscoped(m, 'a due rule by id, its organization read from it').query<DueReenrollmentRuleRow[]>(
        `SELECT organization_id, ${REENROLLMENT_RULE_COLUMNS}
           FROM reenrollment_rules WHERE id = $1 AND next_run_at <= now() FOR UPDATE SKIP LOCKED`,
        [ruleId],
      );
      if (!rule) return false;
      const org = rule.organization_id;
      const scheduled = new Date(rule.next_run_at);
      const recorded = rowsOf<{ id: string }>(
        await scoped(m, org).query<unknown>(
          `INSERT INTO reenrollment_runs (organization_id, rule_id, scheduled_at) VALUES ($org, $1, $2) ON CONFLICT (rule_id, scheduled_at) DO NOTHING RETURNING id`,
          [rule.id, scheduled],
        ),
      );
      const [{ now }] = await m.query<{ now: Date }[]>(`SELECT now() AS now`);
      const next = nextRunAfter(new Date(rule.starts_at), rule.cycle_duration, rule.cycle_duration_unit, scheduled, new Date(now));
      if (recorded.length) {
        const count = await startNewCycles(m, org, rule.published_course_id, scheduled, new Date(now));
        await scoped(m, org).query(`UPDATE reenrollment_runs SET reset_count = $2 WHERE organization_id = $org AND id = $1`, [recorded[0].id, count]);
        this.logger.log({ msg: 're-enrollment run', ruleId: rule.id, scheduledAt: scheduled.toISOString(), learners: count, nextRunAt: next.toISOString() });
      }
      await scoped(m, org).query(`UPDATE reenrollment_rules SET next_run_at = $2, updated_at = date_trunc('milliseconds', now()) WHERE organization_id = $org AND id = $1`, [rule.id, next]);
      return recorded.length > 0;
    });
  }
}

import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '../../core/database/sql';
import { scoped } from '../../core/database/scoped';
import type { ContentAttemptRow } from './content-attempts.store';
import type { ContentLaunchRow } from './content-launches.store';
import { encodeId } from '../../core/ids/ids';
import { lockUsers } from '../progress/completion';
import { LessonPatch } from '../progress/lesson-rules';
import { ProgressService } from '../progress/progress.service';
import { LaunchScope, LrsPrincipal, LrsService, XapiError } from '../lrs/lrs.service';
import { putStateDocument } from '../lrs/lrs.service';
import type { Session } from './launches.service';
import { contentSrc } from './player';
import type { LaunchItem } from '../content-files/manifest';
import { itemOutcomes, launchable, moveOnOf, packageItems, rollup, satisfiedBlocks } from './items';
import { randomUUID } from 'node:crypto';

type Obj = Record<string, any>;

const VERB = {
  launched: 'http://adlnet.gov/expapi/verbs/launched',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  passed: 'http://adlnet.gov/expapi/verbs/passed',
  failed: 'http://adlnet.gov/expapi/verbs/failed',
  satisfied: 'https://w3id.org/xapi/adl/verbs/satisfied',
  abandoned: 'https://w3id.org/xapi/adl/verbs/abandoned',
  waived: 'https://w3id.org/xapi/adl/verbs/waived',
};
const CMI5_CATEGORY = { id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' };
const MOVEON_CATEGORY = { id: 'https://w3id.org/xapi/cmi5/context/categories/moveon' };
const SESSION_EXT = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
const REASON_EXT = 'https://w3id.org/xapi/cmi5/context/extensions/reason';

/** A launch with its attempt, package and learner, as the cmi5 and TinCan steps read them. */
interface RunRow extends Pick<ContentAttemptRow, 'registration' | 'standard' | 'lesson_progress_id' | 'user_id' | 'item' | 'web_package_id' | 'satisfied'> {
  attempt_id: string;
  cmi: Obj;
  launch_data: Obj | null;
  launch_path: string | null;
  launch_parameters: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string;
  session_expires_at: Date;
  fetched_at: Date | null;
}

/**
 * The LMS side of cmi5 and of TinCan launches (CONVENTIONS §18, docs/decisions/content-runs.md):
 * the launch URL with its parameters, the one-time fetch URL and the launch's own LRS key, the
 * `LMS.LaunchData` state document, the LMS-issued `launched` and `satisfied` statements, and the
 * AU's `completed` / `passed` / `failed` statements (sent with the launch's key, in the launch's
 * registration) turned into lesson progress, `moveOn` and `masteryScore` honoured.
 */
@Injectable()
export class Cmi5Service implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly lrs: LrsService,
    private readonly progress: ProgressService,
  ) {}

  onModuleInit(): void {
    this.lrs.onStore((m, p, statements) => this.onStatements(m, p, statements));
    this.lrs.onLaunchScope((organizationId, launchId, base) => this.launchScope(organizationId, launchId, base));
    this.progress.onAdministrativeCompletion((m, org, lessonProgressId) => this.waive(m, org, lessonProgressId));
  }

  /** A launch key's reach: the launch's learner (the actor its launch URL names) and its attempt's registration. */
  private async launchScope(organizationId: string, launchId: string, base: string): Promise<LaunchScope | null> {
    const [r] = rowsOf<{ registration: string; user_id: string; standard: string }>(
      await scoped(this.ds, organizationId).query<unknown>(
        `SELECT a.registration, a.user_id, a.standard FROM content_launches cl JOIN content_attempts a ON a.id = cl.attempt_id AND a.organization_id = cl.organization_id
          WHERE cl.id = $1 AND cl.organization_id = $org`,
        [launchId],
      ),
    );
    if (!r) return null;
    return { registration: String(r.registration).toLowerCase(), agent: `account::${base}|${encodeId('student', r.user_id)}`, registrationRequired: r.standard === 'CMI5' };
  }

  private async run(m: EntityManager | DataSource, s: { organizationId: string; launchId: string; attemptId: string }): Promise<RunRow> {
    const [row] = await scoped(m, s.organizationId).query<RunRow[]>(
      `SELECT a.id AS attempt_id, a.registration, a.standard, a.cmi, a.lesson_progress_id, a.user_id, a.item, a.web_package_id, a.satisfied,
              w.launch_data, w.launch_path, w.launch_parameters, u.first_name, u.last_name, u.email, cl.session_expires_at, cl.fetched_at
         FROM content_launches cl
         JOIN content_attempts a ON a.id = cl.attempt_id AND a.organization_id = cl.organization_id
         JOIN web_packages w ON w.id = a.web_package_id AND w.organization_id = a.organization_id
         JOIN users u ON u.id = a.user_id AND u.organization_id = a.organization_id
        WHERE cl.id = $1 AND cl.organization_id = $org`,
      [s.launchId],
    );
    return row;
  }

  /** The attempt's AU (its item of the package): id, moveOn, masteryScore, launchMethod; TinCan: the launchable activity. */
  private au(r: Pick<RunRow, 'launch_data' | 'standard' | 'launch_path' | 'launch_parameters' | 'item'>, fallbackId: string) {
    const data = r.launch_data ?? {};
    if (r.standard !== 'CMI5') return { activityId: String(data.activityId ?? fallbackId), moveOn: 'CompletedOrPassed', masteryScore: null, launchMethod: 'AnyWindow' };
    const items = launchable(packageItems(r.launch_data, r.standard, r.launch_path, r.launch_parameters));
    const item = items.find((i) => i.id === r.item) ?? items[0];
    return {
      activityId: item?.id || String(data.activityId ?? fallbackId),
      moveOn: moveOnOf(item),
      masteryScore: typeof item?.masteryScore === 'number' ? item.masteryScore : null,
      launchMethod: item?.launchMethod === 'OwnWindow' ? 'OwnWindow' : 'AnyWindow',
    };
  }

  private actor(base: string, userId: string, r: RunRow): Obj {
    const name = [r.first_name, r.last_name].filter(Boolean).join(' ') || r.email;
    return { objectType: 'Agent', name, account: { homePage: base, name: encodeId('student', userId) } };
  }

  private lms(organizationId: string, base: string): LrsPrincipal {
    return { organizationId, keyId: null, launchId: null, canRead: true, canWrite: true, authority: { objectType: 'Agent', name: 'LMS', account: { homePage: base, name: 'lms' } } };
  }

  /**
   * Where an opened cmi5 or TinCan launch sends the browser: the AU's file under the session with
   * the launch parameters. cmi5: `endpoint`, `fetch`, `actor`, `registration`, `activityId`, after
   * writing LMS.LaunchData and `launched` (and `satisfied` at once for moveOn NotApplicable);
   * TinCan: `endpoint`, `auth` (the launch's own key), `actor`, `registration`, `activity_id`.
   */
  async launchLocation(s: Session, sessionPath: string, base: string): Promise<string> {
    const r = await this.run(this.ds, s);
    const actor = this.actor(base, s.userId, r);
    const data = r.launch_data ?? {};
    const au = this.au(r, `${base}/lessons/${s.lessonProgressId}`);
    const auId = au.activityId;
    const params = new URLSearchParams();
    params.set('endpoint', `${base}/xapi/`);
    if (s.standard === 'CMI5') {
      params.set('fetch', `${base}${sessionPath}fetch`);
      params.set('actor', JSON.stringify(actor));
      params.set('registration', r.registration);
      params.set('activityId', auId);
      await this.ds.transaction(async (m) => {
        const moveOn = au.moveOn;
        const launchData: Obj = {
          contextTemplate: { contextActivities: { grouping: data.courseId ? [{ id: data.courseId }] : [] }, extensions: { [SESSION_EXT]: s.launchId } },
          launchMode: 'Normal',
          launchMethod: au.launchMethod,
          moveOn,
        };
        if (au.masteryScore !== null) launchData.masteryScore = au.masteryScore;
        const key = { activity: auId, agent: `account::${base}|${encodeId('student', s.userId)}`, registration: r.registration, docId: 'LMS.LaunchData' };
        await putStateDocument(m, s.organizationId, key, launchData);
        await this.abandonEarlier(m, s, actor, auId, r.registration);
        await this.lrs.storeIn(m, this.lms(s.organizationId, base), [
          this.statement(actor, VERB.launched, 'Launched', { id: auId, objectType: 'Activity' }, r.registration, s.launchId, {
            'https://w3id.org/xapi/cmi5/context/extensions/launchmode': 'Normal',
            'https://w3id.org/xapi/cmi5/context/extensions/moveon': moveOn,
          }),
        ]);
        // NotApplicable: the AU is satisfied as such (the course may be, when it was the last one)
        if (moveOn === 'NotApplicable') await this.settle(m, s.organizationId, r, { satisfied: true, completed: false, success: null, score: null }, base, actor, s.launchId);
      });
    } else {
      const auth = await this.ds.transaction((m) => this.lrs.createLaunchKey(m, s.organizationId, s.launchId, r.session_expires_at));
      params.set('auth', `Basic ${auth}`);
      params.set('actor', JSON.stringify(actor));
      params.set('registration', r.registration);
      params.set('activity_id', auId);
    }
    const own = s.launchParameters ? `${s.launchParameters}&` : '';
    return `${sessionPath}${contentSrc(s.launchPath ?? 'index.html', `${own}${params.toString()}`)}`;
  }

  /**
   * A new session of the registration: the earlier opened sessions that never sent `terminated`
   * (and were not abandoned yet) are closed by the LMS with `abandoned` (cmi5 9.3.6), before this
   * session's `launched`.
   */
  private async abandonEarlier(m: EntityManager, s: Session, actor: Obj, auId: string, registration: string): Promise<void> {
    const earlier = rowsOf<{ id: string }>(
      await scoped(m, s.organizationId).query<unknown>(
        `SELECT id FROM content_launches WHERE organization_id = $org AND attempt_id = $1 AND id <> $2 AND opened_at IS NOT NULL ORDER BY opened_at LIMIT 100`,
        [s.attemptId, s.launchId],
      ),
    ).map((x) => x.id);
    const closed = await this.lrs.closedSessions(m, s.organizationId, registration, earlier);
    const open = earlier.filter((id) => !closed.has(id));
    if (!open.length) return;
    const base = String(actor.account?.homePage ?? '');
    await this.lrs.storeIn(
      m,
      this.lms(s.organizationId, base),
      open.map((sid) => this.statement(actor, VERB.abandoned, 'Abandoned', { id: auId, objectType: 'Activity' }, registration, sid)),
    );
  }

  /** The cmi5 fetch URL: once, the launch's own LRS key as `{"auth-token"}`; again, error 1. */
  async fetch(s: Session): Promise<{ status: number; body: Obj }> {
    if (s.standard !== 'CMI5') return { status: 400, body: { 'error-code': '3', 'error-text': 'This launch is no cmi5 launch.' } };
    return this.ds.transaction(async (m) => {
      const rows = rowsOf<Pick<ContentLaunchRow, 'session_expires_at'>>(
        await scoped(m, s.organizationId).query<unknown>(
          `UPDATE content_launches SET fetched_at = now() WHERE id = $1 AND organization_id = $org AND fetched_at IS NULL RETURNING session_expires_at`,
          [s.launchId],
        ),
      );
      if (!rows.length) return { status: 403, body: { 'error-code': '1', 'error-text': 'The fetch URL was already used.' } };
      const token = await this.lrs.createLaunchKey(m, s.organizationId, s.launchId, rows[0].session_expires_at);
      return { status: 200, body: { 'auth-token': token } };
    });
  }

  private statement(actor: Obj, verb: string, display: string, object: Obj, registration: string, sessionId: string, ext: Obj = {}): Obj {
    return {
      actor,
      verb: { id: verb, display: { 'en-US': display } },
      object,
      context: { registration, contextActivities: { category: [CMI5_CATEGORY] }, extensions: { [SESSION_EXT]: sessionId, ...ext } },
    };
  }

  /** The AU's statements, sent with a launch's own key, in the transaction that stores them. */
  private async onStatements(m: EntityManager, p: LrsPrincipal, statements: Obj[]): Promise<void> {
    if (!p.launchId) return;
    const [link] = await scoped(m, p.organizationId).query<Pick<ContentLaunchRow, 'attempt_id'>[]>(`SELECT attempt_id FROM content_launches WHERE id = $1 AND organization_id = $org`, [p.launchId]);
    if (!link) return;
    const r = await this.run(m, { organizationId: p.organizationId, launchId: p.launchId, attemptId: link.attempt_id });
    if (r.standard !== 'CMI5' && r.standard !== 'XAPI') return;
    const base = String(p.authority?.account?.homePage ?? '');
    const au = this.au(r, '');
    const mastery = au.masteryScore;
    const state: Obj = { ...(r.cmi ?? {}) };
    let changed = false;
    for (const s of statements) {
      const verb = s.verb?.id;
      if (![VERB.completed, VERB.passed, VERB.failed].includes(verb)) continue;
      if (r.standard === 'CMI5') {
        if (String(s.context?.registration ?? '').toLowerCase() !== r.registration) continue;
        if (au.activityId && s.object?.id !== au.activityId) continue;
        const scaled = s.result?.score?.scaled;
        if (mastery !== null && verb === VERB.passed && typeof scaled === 'number' && scaled < mastery) throw new XapiError(400, 'a passed statement must reach the masteryScore');
        if (mastery !== null && verb === VERB.failed && typeof scaled === 'number' && scaled >= mastery) throw new XapiError(400, 'a failed statement must stay below the masteryScore');
      } else if (s.context?.registration && String(s.context.registration).toLowerCase() !== r.registration) continue;
      if (verb === VERB.completed) state.completed = true;
      if (verb === VERB.passed) state.success = 'PASSED';
      if (verb === VERB.failed && state.success !== 'PASSED') state.success = 'FAILED';
      const scaled = s.result?.score?.scaled;
      if (typeof scaled === 'number') state.score = Math.max(0, Math.min(100, Math.round(scaled * 100)));
      changed = true;
    }
    if (!changed) return;
    await scoped(m, p.organizationId).query(`UPDATE content_attempts SET cmi = $2::jsonb, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, [
      link.attempt_id,
      JSON.stringify(state),
    ]);
    const moveOn = au.moveOn;
    const passed = state.success === 'PASSED';
    const completed = state.completed === true;
    const satisfied =
      moveOn === 'NotApplicable' ||
      (moveOn === 'Completed' && completed) ||
      (moveOn === 'Passed' && passed) ||
      (moveOn === 'CompletedAndPassed' && completed && passed) ||
      (moveOn === 'CompletedOrPassed' && (completed || passed));
    // TinCan: its one activity is done when satisfied (completed or passed)
    await this.settle(
      m,
      p.organizationId,
      r,
      { satisfied, completed: completed || (r.standard === 'XAPI' && satisfied), success: state.success ?? null, score: state.score ?? null },
      base,
      statements[0].actor,
      p.launchId,
    );
  }

  /**
   * What the attempt's item now reports, on its attempt (`satisfied`, `completed`, `success`,
   * `score`), then the lesson rolled up from all its items (docs/decisions/content-runs.md
   * "Items"): cmi5, the LMS's `satisfied` statement for each block all of whose AUs (moveOn not
   * NotApplicable) and blocks are satisfied, then for the course when all its own are (each once a
   * registration); the lesson's progress.
   */
  private async settle(
    m: EntityManager,
    org: string,
    r: RunRow,
    item: { satisfied: boolean; completed: boolean; success: string | null; score: number | null },
    base: string,
    actor: Obj,
    sessionId: string,
  ) {
    await scoped(m, org).query(
      `UPDATE content_attempts SET satisfied = satisfied OR $2, completed = completed OR $3, success = COALESCE($4, success), score = COALESCE($5, score),
              cmi = CASE WHEN $2 THEN cmi || '{"satisfied": true}'::jsonb ELSE cmi END
        WHERE id = $1 AND organization_id = $org`,
      [r.attempt_id, item.satisfied, item.completed, item.success, item.score],
    );
    const items = packageItems(r.launch_data, r.standard, r.launch_path, r.launch_parameters);
    const outcomes = await itemOutcomes(m, org, r.lesson_progress_id, r.web_package_id);
    const lesson = rollup(items, r.standard, outcomes);
    if (r.standard === 'CMI5') await this.satisfy(m, org, r, satisfiedBlocks(items, outcomes), lesson.completed, base, actor, sessionId);
    await this.writeProgress(m, org, r, lesson);
  }

  /**
   * The LMS's `satisfied` statements (cmi5 9.3.9), each once a registration: for every block that
   * is satisfied (inner blocks first), then for the course when it is.
   */
  private async satisfy(m: EntityManager, org: string, r: Pick<RunRow, 'launch_data' | 'registration'>, blocks: LaunchItem[], course: boolean, base: string, actor: Obj, sessionId: string) {
    if (!blocks.length && !course) return;
    const data = r.launch_data ?? {};
    const courseId = String(data.courseId ?? data.activityId);
    const already = await this.lrs.activitiesWithVerb(m, org, r.registration, VERB.satisfied);
    const objects = blocks.filter((b) => !already.has(b.id)).map((b) => ({ id: b.id, objectType: 'Activity', definition: { type: 'https://w3id.org/xapi/cmi5/activitytype/block' } }));
    if (course && !already.has(courseId)) objects.push({ id: courseId, objectType: 'Activity', definition: { type: 'https://w3id.org/xapi/cmi5/activitytype/course' } });
    if (!objects.length) return;
    await this.lrs.storeIn(
      m,
      this.lms(org, base),
      objects.map((o) => this.statement(actor, VERB.satisfied, 'Satisfied', o, r.registration, sessionId)),
    );
  }

  /**
   * An administrator completed a lesson (the progress API) that has a cmi5 registration: every AU
   * of the package not satisfied yet is `waived` by the LMS (reason Administrative, result
   * completion and success, a session id of its own; cmi5 9.3.8), and the course is `satisfied`
   * (once). AUs never launched get an attempt in the registration, so they count as satisfied.
   */
  async waive(m: EntityManager, org: string, lessonProgressId: string): Promise<void> {
    const [r] = await scoped(m, org).query<(RunRow & Pick<ContentAttemptRow, 'lesson_id'>)[]>(
      `SELECT a.id AS attempt_id, a.registration, a.standard, a.cmi, a.lesson_progress_id, a.user_id, a.item, a.web_package_id, a.satisfied, a.lesson_id,
              w.launch_data, w.launch_path, w.launch_parameters
         FROM content_attempts a JOIN web_packages w ON w.id = a.web_package_id AND w.organization_id = a.organization_id
        WHERE a.organization_id = $org AND a.lesson_progress_id = $1 AND a.standard = 'CMI5' ORDER BY a.created_at DESC LIMIT 1`,
      [lessonProgressId],
    );
    if (!r) return;
    const launched = await this.lrs.latestInRegistration(m, org, r.registration, VERB.launched);
    if (!launched?.actor) return;
    const actor = launched.actor as Obj;
    const base = String(actor.account?.homePage ?? '');
    const items = packageItems(r.launch_data, r.standard, r.launch_path, r.launch_parameters);
    const outcomes = await itemOutcomes(m, org, r.lesson_progress_id, r.web_package_id);
    const open = launchable(items).filter((i) => moveOnOf(i) !== 'NotApplicable' && !outcomes.get(i.id)?.satisfied);
    const sessionId = randomUUID();
    if (open.length) {
      await this.lrs.storeIn(
        m,
        this.lms(org, base),
        open.map((i) => {
          const st = this.statement(actor, VERB.waived, 'Waived', { id: i.id, objectType: 'Activity' }, r.registration, sessionId, { [REASON_EXT]: 'Administrative' });
          st.context.contextActivities.category.push(MOVEON_CATEGORY);
          return { ...st, result: { success: true, completion: true } };
        }),
      );
      for (const s of open.filter((x) => !outcomes.has(x.id)))
        await scoped(m, org).query(
          `INSERT INTO content_attempts (organization_id, lesson_progress_id, user_id, lesson_id, web_package_id, number, standard, item, registration)
           VALUES ($org, $1, $2, $3, $4, 1, 'CMI5', $5, $6)`,
          [r.lesson_progress_id, r.user_id, r.lesson_id, r.web_package_id, s.id, r.registration],
        );
      await scoped(m, org).query(
        `UPDATE content_attempts SET satisfied = true, cmi = cmi || '{"satisfied": true}'::jsonb
          WHERE organization_id = $org AND lesson_progress_id = $1 AND web_package_id = $2 AND item = ANY($3::text[])`,
        [r.lesson_progress_id, r.web_package_id, open.map((i) => i.id)],
      );
    }
    // every AU is satisfied now: so is every block, and the course
    const satisfied = new Map(launchable(items).map((i) => [i.id, { item: i.id, completed: false, satisfied: true, success: null, score: null }]));
    await this.satisfy(m, org, r, satisfiedBlocks(items, satisfied), true, base, actor, sessionId);
  }

  private async writeProgress(m: EntityManager, org: string, r: RunRow, out: { completed: boolean; success: string | null; score: number | null }) {
    await lockUsers(m, [r.user_id]);
    const [lp] = await scoped(m, org).query<{ completed_at: Date | null; success_status: string | null; score: number | null }[]>(
      `SELECT completed_at, success_status, score FROM lesson_progress WHERE id = $1 AND organization_id = $org`,
      [r.lesson_progress_id],
    );
    const patch: LessonPatch = {};
    if (out.completed && !lp.completed_at) patch.completed_at = new Date(Math.floor(Date.now() / 1000) * 1000);
    if (out.success && out.success !== lp.success_status) patch.success_status = out.success;
    if (out.score !== null && out.score !== lp.score) {
      patch.score = out.score;
      patch.max_score = 100;
    }
    if (Object.keys(patch).length) await this.progress.writeLessonIn(m, org, { id: r.lesson_progress_id, user_id: r.user_id }, patch, false);
  }
}

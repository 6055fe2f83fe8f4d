import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { constantTimeEqual, hmac, randomToken, sha256 } from '../../core/crypto/crypto';
import { conflict, notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import { rowsOf } from '../../core/database/sql';
import { scoped, unscoped } from '../../core/database/scoped';
import type { ContentAttemptRow } from './content-attempts.store';
import type { ContentLaunchRow } from './content-launches.store';
import { lockUsers } from '../progress/completion';
import { ProgressService } from '../progress/progress.service';
import { LessonPatch } from '../progress/lesson-rules';
import { getValue, LmsValues, outcomeOf, ScormVersion, setValue, SharedBucket, STATE_ERRORS, Stored, ERROR_STRINGS } from './scorm-model';
import type { ContentSharedDataRow } from './content-shared-data.store';
import type { SharedDataMap } from '../content-files/manifest';
import { itemOutcomes, launchable, packageItems, rollup } from './items';

/** A launch URL is single-use and valid this long (CONVENTIONS §18). */
export const LAUNCH_TTL_SECONDS = 300;
/** The content session a launch opens is served this long after it was opened. */
export const SESSION_TTL_SECONDS = 6 * 3600;

export type Standard = 'SCORM_1_2' | 'SCORM_2004' | 'CMI5' | 'XAPI';
export type RuntimeCall = 'initialize' | 'get' | 'set' | 'commit' | 'terminate';
export const RUNTIME_CALLS: readonly RuntimeCall[] = ['initialize', 'get', 'set', 'commit', 'terminate'];

export interface CreatedLaunch {
  id: string;
  launch_url: string;
  expires_at: string;
  registration: string;
  /** the item of the package played */
  item: string;
}

/** What serving a session needs: the launch, its attempt and package, the learner. */
export interface Session {
  launchId: string;
  organizationId: string;
  attemptId: string;
  lessonProgressId: string;
  userId: string;
  standard: Standard;
  sessionState: 'NEW' | 'RUNNING' | 'TERMINATED';
  entry: string;
  storagePrefix: string;
  launchPath: string | null;
  launchParameters: string | null;
  title: string;
  /** the item of the package the attempt plays (docs/decisions/content-runs.md "Items") */
  item: string;
  webPackageId: string;
  /** SCORM 2004 4th edition: the item's shared data buckets (`adlcp:map`), in manifest order */
  sharedData: SharedDataMap[];
  /** the package's `adlcp:sharedDataGlobalToSystem` (default true) */
  sharedDataGlobal: boolean;
}

export interface RuntimeAnswer {
  value: string;
  error: number;
  diagnostic?: string;
}

/** A lesson and the web package it plays (none: the package columns are null). */
interface LaunchableLesson {
  id: string;
  course_id: string;
  type: string;
  content_web_package_id: string | null;
  package_id: string | null;
  state: string | null;
  package_type: string | null;
  standard_version: string | null;
  launch_path: string | null;
  launch_parameters: string | null;
  launch_data: Record<string, unknown> | null;
}

/** The launch, its attempt and its package, as a session reads them. */
interface SessionRow {
  id: string;
  organization_id: string;
  attempt_id: string;
  session_state: Session['sessionState'];
  entry: string;
  lesson_progress_id: string;
  user_id: string;
  standard: Standard;
  storage_prefix: string;
  launch_path: string | null;
  launch_parameters: string | null;
  title: string;
  item: string;
  web_package_id: string;
  launch_data: Record<string, unknown> | null;
}

/** The package's launch data and the learner's name, as the SCORM data model reports them. */
interface LearnerFacts {
  launch_data: Record<string, unknown> | null;
  first_name: string | null;
  last_name: string | null;
  email: string;
}

/** An attempt's data model with the package's launch data and the lesson progress it writes. */
interface AttemptOutcomeRow {
  cmi: Record<string, unknown>;
  launch_data: Record<string, unknown> | null;
  launch_path: string | null;
  launch_parameters: string | null;
  item_completed: boolean;
  item_success: string | null;
  item_score: number | null;
  completed_at: Date | null;
  success_status: string | null;
  score: number | null;
  max_score: number | null;
}

const versionOf = (s: Standard): ScormVersion => (s === 'SCORM_1_2' ? '1.2' : '2004');

/**
 * Launches of web-package lessons and the SCORM runtime behind them (CONVENTIONS §18,
 * docs/decisions/content-runs.md). A launch binds learner, lesson and attempt; its URL (a random
 * token, kept as its SHA-256) opens once within 5 minutes and answers a content session, a path
 * `/play/<session>/` signed with APP_SECRET (launch id and expiry, §7's rules: altered or expired
 * is 403) under which the player page, the adapter script, the runtime endpoints and the package's
 * files are served. The SCORM data model lives in content_attempts.cmi; Commit and Terminate turn
 * what it says into lesson progress through ProgressService (every effect of §10).
 */
@Injectable()
export class LaunchesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly progress: ProgressService,
  ) {}

  /**
   * POST /v1/lessons/{id}/launches, POST /v2/launches/: a launch of `lessonPublicId` for the learner.
   * 404: unknown lesson (or another organization's); 400/422 (`status`): no such learner, a learner
   * not enrolled in a published course that holds the lesson; 409: a lesson that plays no ready web
   * package, or a package of a kind not launchable yet.
   */
  async create(
    p: Principal,
    lessonPublicId: string,
    userPublicId: unknown,
    baseUrl: string,
    status: 400 | 422,
    pointer: string,
    item?: { value: unknown; field: string; pointer: string },
  ): Promise<CreatedLaunch> {
    const org = p.organizationId;
    const lessonId = decodeId('lesson', lessonPublicId);
    const [lesson] = lessonId
      ? await scoped(this.ds, org).query<LaunchableLesson[]>(
          `SELECT l.id, l.course_id, l.type, l.content_web_package_id, w.id AS package_id, w.state, w.type AS package_type, w.standard_version, w.launch_path, w.launch_parameters, w.launch_data
             FROM lessons l LEFT JOIN web_packages w ON w.id = l.content_web_package_id AND w.organization_id = l.organization_id
            WHERE l.id = $1 AND l.organization_id = $org AND l.deleted_at IS NULL AND NOT l.is_draft`,
          [lessonId],
        )
      : [];
    if (!lesson) throw notFound();
    const bad = (message: string) => new ValidationFailed([{ field: 'user', pointer, message, v1: { field: 'user', messages: [message] } }], status);
    if (typeof userPublicId !== 'string' || !userPublicId) throw bad('This field is required: the learner, as {"id": "..."}.');
    const userId = decodeId('student', userPublicId);
    if (!userId) throw bad(`Invalid pk "${userPublicId}" - object does not exist.`);
    const packageId = lesson.package_id;
    if (!packageId) throw conflict('This lesson plays no web package.');
    if (lesson.state !== 'READY') throw conflict("The lesson's web package is not ready (it is still being imported, or its import failed).");
    const standard = standardOf(lesson.package_type, lesson.standard_version);
    if (!standard) throw conflict("The lesson's web package is of no launchable kind.");
    if (!lesson.launch_path || /^[a-z][a-z0-9+.-]*:/i.test(lesson.launch_path)) throw conflict("The lesson's web package names no launch file inside the package.");
    // the item to play: the one named (SCORM item identifier, cmi5 AU id), else the first
    // a cmi5 block is an item of the course structure, not one a launch plays
    const items = launchable(packageItems(lesson.launch_data, standard, lesson.launch_path, lesson.launch_parameters));
    if (!items.length) throw conflict("The lesson's web package names no launch file inside the package.");
    let itemId = items[0].id;
    if (item && item.value !== undefined && item.value !== null) {
      const badItem = (message: string) => new ValidationFailed([{ field: item.field, pointer: item.pointer, message, v1: { field: item.field, messages: [message] } }], status);
      if (typeof item.value !== 'string' || !item.value) throw badItem('Not a valid string: the identifier of an item (SCORM) or AU (cmi5) of the package.');
      const named = items.find((i) => i.id === item.value);
      if (!named) throw badItem(`The lesson's web package has no launchable item "${item.value.slice(0, 200)}".`);
      itemId = named.id;
    }
    const chosen = items.find((i) => i.id === itemId)!;
    if (!chosen.launch || /^[a-z][a-z0-9+.-]*:/i.test(chosen.launch)) throw conflict('This item of the web package names no launch file inside the package.');

    // the learner's course progress in a published course of the lesson's course, from an active enrollment
    const [cp] = await scoped(this.ds, org).query<{ id: string; user_id: string; course_id: string }[]>(
      `SELECT cp.id, cp.user_id, cp.course_id FROM course_progress cp
         JOIN enrollments e ON e.organization_id = $org AND e.user_id = cp.user_id AND e.published_course_id = cp.published_course_id
                           AND (cp.enrollment_id IS NULL OR cp.enrollment_id = e.id) AND e.active
        WHERE cp.organization_id = $org AND cp.user_id = $1 AND cp.course_id = $2
        ORDER BY e.enrolled_at DESC, cp.id LIMIT 1`,
      [userId, lesson.course_id],
    );
    if (!cp) throw bad('The learner is not enrolled in a published course that holds this lesson.');

    const token = randomToken(32);
    const created = await this.ds.transaction(async (m) => {
      await lockUsers(m, [userId]);
      await this.progress.materializeLessons(m, org, cp, lesson.id);
      const [lp] = await scoped(m, org).query<{ id: string; user_id: string }[]>(
        `SELECT id, user_id FROM lesson_progress WHERE organization_id = $org AND course_progress_id = $1 AND lesson_id = $2`,
        [cp.id, lesson.id],
      );
      if (!lp) throw notFound();
      const attempt = await this.attemptFor(m, org, lp.id, userId, lesson.id, packageId, standard, itemId);
      const [launch] = await scoped(m, org).query<Pick<ContentLaunchRow, 'id' | 'expires_at'>[]>(
        `INSERT INTO content_launches (organization_id, attempt_id, token_hash, expires_at, session_expires_at, entry)
         VALUES ($org, $1, $2, date_trunc('milliseconds', now()) + make_interval(secs => $3), now() + make_interval(secs => $4), $5)
         RETURNING id, expires_at`,
        [attempt.id, sha256(token), LAUNCH_TTL_SECONDS, LAUNCH_TTL_SECONDS + SESSION_TTL_SECONDS, attempt.entry],
      );
      // opening the lesson counts as a view and as activity in the course (first activity starts the enrollment)
      await this.progress.writeLessonIn(m, org, lp, {}, true);
      return { launch, registration: attempt.registration };
    });
    return {
      id: encodeId('launch', created.launch.id),
      launch_url: `${baseUrl.replace(/\/+$/, '')}/launch/${token}`,
      expires_at: new Date(created.launch.expires_at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      registration: created.registration,
      item: itemId,
    };
  }

  /**
   * The attempt a new launch runs: the latest one when it is open (never terminated) or suspended
   * (entry `resume`, and it is open again), else a new one (`ab-initio`).
   */
  private async attemptFor(m: EntityManager, org: string, lpId: string, userId: string, lessonId: string, packageId: string, standard: Standard, item: string) {
    const [last] = await scoped(m, org).query<(Pick<ContentAttemptRow, 'id' | 'number' | 'state' | 'registration' | 'web_package_id' | 'standard'> & { fresh: boolean })[]>(
      `SELECT id, number, state, registration, web_package_id, standard, cmi = '{}'::jsonb AS fresh FROM content_attempts
        WHERE organization_id = $org AND lesson_progress_id = $1 AND item = $2 ORDER BY number DESC LIMIT 1`,
      [lpId, item],
    );
    if (last && last.state !== 'CLOSED' && last.web_package_id === packageId && last.standard === standard) {
      if (last.state === 'SUSPENDED') {
        await scoped(m, org).query(`UPDATE content_attempts SET state = 'OPEN', updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, [last.id]);
        return { id: last.id, registration: last.registration, entry: 'resume' };
      }
      return { id: last.id, registration: last.registration, entry: last.fresh ? 'ab-initio' : '' };
    }
    // cmi5: the AUs of the lesson's course share one registration (the latest of the package's AU attempts)
    const [shared] =
      standard === 'CMI5'
        ? await scoped(m, org).query<Pick<ContentAttemptRow, 'registration'>[]>(
            `SELECT registration FROM content_attempts WHERE organization_id = $org AND lesson_progress_id = $1 AND web_package_id = $2 AND standard = 'CMI5' ORDER BY created_at DESC LIMIT 1`,
            [lpId, packageId],
          )
        : [];
    const [row] = await scoped(m, org).query<Pick<ContentAttemptRow, 'id' | 'registration'>[]>(
      `INSERT INTO content_attempts (organization_id, lesson_progress_id, user_id, lesson_id, web_package_id, number, standard, item, registration)
       VALUES ($org, $1, $2, $3, $4, $5, $6, $7, COALESCE($8::uuid, gen_random_uuid())) RETURNING id, registration`,
      [lpId, userId, lessonId, packageId, (last?.number ?? 0) + 1, standard, item, shared?.registration ?? null],
    );
    return { id: row.id, registration: row.registration, entry: 'ab-initio' };
  }

  /** GET /launch/{token}: the launch opened (once, within its 5 minutes) as a session token; null when it cannot be. */
  async open(token: string): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    // the launch token is the credential: it names its organization's launch, looked up by its hash alone
    const [row] = rowsOf<Pick<ContentLaunchRow, 'id' | 'session_expires_at'>>(
      await unscoped(this.ds, 'a launch token names its launch').query<unknown>(
        `UPDATE content_launches SET opened_at = now(), session_expires_at = now() + make_interval(secs => $2)
        WHERE token_hash = $1 AND opened_at IS NULL AND expires_at > now()
        RETURNING id, session_expires_at`,
        [sha256(token), SESSION_TTL_SECONDS],
      ),
    );
    if (!row) return null;
    return this.sessionToken(row.id, Math.floor(new Date(row.session_expires_at).getTime() / 1000));
  }

  sessionToken(launchId: string, expires: number): string {
    return `${launchId}.${expires}.${hmac(this.config.APP_SECRET, `content-session:${launchId}:${expires}`)}`;
  }

  /** The session a `/play/<token>/` path names, or null (altered, expired, unknown). */
  async session(token: string, now = Date.now()): Promise<Session | null> {
    const m = /^([0-9a-f-]{36})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return null;
    const [, launchId, expires, sig] = m;
    if (Number(expires) * 1000 < now) return null;
    if (!constantTimeEqual(sig, hmac(this.config.APP_SECRET, `content-session:${launchId}:${expires}`))) return null;
    // the signed session names its launch, whose organization scopes everything after
    const [row] = await unscoped(this.ds, 'a signed content session names its launch').query<SessionRow[]>(
      `SELECT cl.id, cl.organization_id, cl.attempt_id, cl.session_state, cl.entry, a.lesson_progress_id, a.user_id, a.standard,
              w.storage_prefix, w.launch_path, w.launch_parameters, w.title, a.item, a.web_package_id, w.launch_data
         FROM content_launches cl
         JOIN content_attempts a ON a.id = cl.attempt_id AND a.organization_id = cl.organization_id
         JOIN web_packages w ON w.id = a.web_package_id AND w.organization_id = a.organization_id
        WHERE cl.id = $1 AND cl.opened_at IS NOT NULL AND cl.session_expires_at > now()`,
      [launchId],
    );
    if (!row) return null;
    // the launch file of the attempt's item
    const item = packageItems(row.launch_data, row.standard, row.launch_path, row.launch_parameters).find((i) => i.id === row.item);
    return {
      launchId: row.id,
      organizationId: row.organization_id,
      attemptId: row.attempt_id,
      lessonProgressId: row.lesson_progress_id,
      userId: row.user_id,
      standard: row.standard,
      sessionState: row.session_state,
      entry: row.entry,
      storagePrefix: row.storage_prefix,
      launchPath: item ? item.launch : row.launch_path,
      launchParameters: item ? item.parameters : row.launch_parameters,
      title: row.title,
      item: row.item,
      webPackageId: row.web_package_id,
      sharedData: item?.data ?? [],
      sharedDataGlobal: row.launch_data?.sharedDataGlobalToSystem !== false,
    };
  }

  /**
   * One call of the SCORM API on a session: Initialize, GetValue, SetValue, Commit, Terminate (the
   * adapter maps SCORM 1.2's LMS* names onto these). Answers the API's return value and error code,
   * as the standard of the attempt defines them; never throws for a wrong call.
   */
  async runtime(s: Session, call: RuntimeCall, body: Record<string, unknown>): Promise<RuntimeAnswer> {
    if (s.standard !== 'SCORM_1_2' && s.standard !== 'SCORM_2004') return { value: 'false', error: 101, diagnostic: 'This launch runs no SCORM content.' };
    const version = versionOf(s.standard);
    const E = STATE_ERRORS[version];
    const org = s.organizationId;
    const arg = body.argument;
    if ((call === 'initialize' || call === 'commit' || call === 'terminate') && arg !== undefined && arg !== '' && arg !== null) {
      return { value: 'false', error: E.argument, diagnostic: 'The argument must be the empty string.' };
    }
    if (call === 'initialize') {
      const [row] = rowsOf<{ id: string }>(
        await scoped(this.ds, org).query<unknown>(`UPDATE content_launches SET session_state = 'RUNNING' WHERE id = $1 AND organization_id = $org AND session_state = 'NEW' RETURNING id`, [
          s.launchId,
        ]),
      );
      if (row) return { value: 'true', error: 0 };
      const [cur] = await scoped(this.ds, org).query<Pick<ContentLaunchRow, 'session_state'>[]>(`SELECT session_state FROM content_launches WHERE id = $1 AND organization_id = $org`, [s.launchId]);
      return { value: 'false', error: cur?.session_state === 'RUNNING' ? E.initTwice : E.initAfterTerm };
    }
    if (s.sessionState !== 'RUNNING') {
      const before = s.sessionState === 'NEW';
      const code = {
        get: before ? E.getBeforeInit : E.getAfterTerm,
        set: before ? E.setBeforeInit : E.setAfterTerm,
        commit: before ? E.commitBeforeInit : E.commitAfterTerm,
        terminate: before ? E.termBeforeInit : E.termAfterTerm,
      }[call];
      return { value: call === 'get' ? '' : 'false', error: code };
    }
    if (call === 'get') {
      const [row] = await scoped(this.ds, org).query<(Pick<ContentAttemptRow, 'cmi' | 'total_time_cs'> & LearnerFacts)[]>(
        `SELECT a.cmi, a.total_time_cs, w.launch_data, u.first_name, u.last_name, u.email
           FROM content_attempts a JOIN web_packages w ON w.id = a.web_package_id AND w.organization_id = a.organization_id
           JOIN users u ON u.id = a.user_id AND u.organization_id = a.organization_id
          WHERE a.id = $1 AND a.organization_id = $org`,
        [s.attemptId],
      );
      const lms = this.lmsValues(s, row);
      if (isSharedData(version, body.element)) lms.sharedData = await this.sharedBuckets(this.ds, s);
      const out = getValue(version, row.cmi as Stored, lms, body.element);
      return out.error ? { ...out, diagnostic: ERROR_STRINGS[version][out.error] } : out;
    }
    if (call === 'set') {
      return this.ds.transaction(async (m) => {
        const [row] = await scoped(m, org).query<Pick<ContentAttemptRow, 'cmi'>[]>(`SELECT cmi FROM content_attempts WHERE id = $1 AND organization_id = $org FOR UPDATE`, [s.attemptId]);
        const shared = isSharedData(version, body.element) ? await this.sharedBuckets(m, s) : undefined;
        const out = setValue(version, row.cmi as Stored, body.element, body.value, shared);
        if (out.shared) {
          await this.writeShared(m, s, out.shared.id, out.shared.value);
          return { value: 'true', error: 0 };
        }
        if (out.error || !out.set) return { value: 'false', error: out.error, diagnostic: ERROR_STRINGS[version][out.error] };
        await scoped(m, org).query(`UPDATE content_attempts SET cmi = cmi || $2::jsonb, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, [
          s.attemptId,
          JSON.stringify(out.set),
        ]);
        return { value: 'true', error: 0 };
      });
    }
    if (call === 'commit') {
      await this.ds.transaction((m) => this.applyProgress(m, s, version, false));
      return { value: 'true', error: 0 };
    }
    // terminate
    const done = await this.ds.transaction(async (m) => {
      const [row] = rowsOf<{ id: string }>(
        await scoped(m, org).query<unknown>(`UPDATE content_launches SET session_state = 'TERMINATED' WHERE id = $1 AND organization_id = $org AND session_state = 'RUNNING' RETURNING id`, [
          s.launchId,
        ]),
      );
      if (!row) return false;
      await this.applyProgress(m, s, version, true);
      return true;
    });
    return done ? { value: 'true', error: 0 } : { value: 'false', error: E.termAfterTerm };
  }

  /**
   * The SCO's shared data buckets (docs/decisions/content-runs.md "Shared data"): its item's
   * `adlcp:map`s, each with the value stored for the learner in the package's scope.
   */
  private async sharedBuckets(runner: DataSource | EntityManager, s: Session): Promise<SharedBucket[]> {
    if (!s.sharedData.length) return [];
    const rows = await scoped(runner, s.organizationId).query<Pick<ContentSharedDataRow, 'target_id' | 'value'>[]>(
      `SELECT target_id, value FROM content_shared_data
        WHERE organization_id = $org AND user_id = $1 AND lesson_progress_id IS NOT DISTINCT FROM $2 AND web_package_id IS NOT DISTINCT FROM $3 AND target_id = ANY($4::text[])`,
      [s.userId, ...sharedScope(s), s.sharedData.map((m) => m.targetId)],
    );
    const values = new Map(rows.map((r) => [r.target_id, r.value]));
    return s.sharedData.map((m) => ({ id: m.targetId, read: m.read, write: m.write, value: values.get(m.targetId) ?? null }));
  }

  /** A bucket's new value, for the learner in the package's scope (one row per learner, scope and targetID). */
  private async writeShared(m: EntityManager, s: Session, targetId: string, value: string): Promise<void> {
    await scoped(m, s.organizationId).query(
      `INSERT INTO content_shared_data (organization_id, user_id, lesson_progress_id, web_package_id, target_id, value) VALUES ($org, $1, $2, $3, $4, $5)
       ON CONFLICT (organization_id, user_id, lesson_progress_id, web_package_id, target_id)
       DO UPDATE SET value = EXCLUDED.value, updated_at = date_trunc('milliseconds', now())`,
      [s.userId, ...sharedScope(s), targetId, value],
    );
  }

  private lmsValues(s: Session, row: Pick<ContentAttemptRow, 'total_time_cs'> & LearnerFacts): LmsValues {
    const first = row.first_name ?? '';
    const last = row.last_name ?? '';
    const name = s.standard === 'SCORM_1_2' ? (last && first ? `${last}, ${first}` : last || first || row.email) : [first, last].filter(Boolean).join(' ') || row.email;
    return {
      learnerId: encodeId('student', s.userId),
      learnerName: name.slice(0, 255),
      entry: s.entry,
      credit: 'credit',
      mode: 'normal',
      launchData: typeof row.launch_data?.dataFromLms === 'string' ? row.launch_data.dataFromLms : '',
      totalTimeCs: Number(row.total_time_cs),
      masteryScore: typeof row.launch_data?.masteryScore === 'number' ? row.launch_data.masteryScore : null,
    };
  }

  /**
   * What the stored data model says, into the lesson progress (completion, success, score; every
   * effect of §10 through ProgressService.writeLessonIn, under the learner's progress lock). On
   * Terminate also: the session's time added to the attempt's total, the write-only session members
   * cleared, and the attempt suspended (exit `suspend`) or closed.
   */
  private async applyProgress(m: EntityManager, s: Session, version: ScormVersion, terminating: boolean): Promise<void> {
    const org = s.organizationId;
    await lockUsers(m, [s.userId]);
    const [row] = await scoped(m, org).query<AttemptOutcomeRow[]>(
      `SELECT a.cmi, w.launch_data, w.launch_path, w.launch_parameters, a.completed AS item_completed, a.success AS item_success, a.score AS item_score,
              lp.completed_at, lp.success_status, lp.score, lp.max_score
         FROM content_attempts a
         JOIN web_packages w ON w.id = a.web_package_id AND w.organization_id = a.organization_id
         JOIN lesson_progress lp ON lp.id = a.lesson_progress_id AND lp.organization_id = a.organization_id
        WHERE a.id = $1 AND a.organization_id = $org FOR UPDATE OF a`,
      [s.attemptId],
    );
    const stored = row.cmi as Stored;
    const mastery = typeof row.launch_data?.masteryScore === 'number' ? row.launch_data.masteryScore : null;
    const out = outcomeOf(version, stored, version === '1.2' && mastery !== null ? mastery * (mastery <= 1 ? 100 : 1) : mastery);
    // the item's own outcome on its attempt, then the lesson's from all items (docs/decisions/content-runs.md "Items")
    const itemScore = out.score === null ? null : Math.round(out.score);
    const item = { completed: row.item_completed || out.completed, success: out.success ?? row.item_success, score: itemScore ?? row.item_score };
    if (item.completed !== row.item_completed || item.success !== row.item_success || item.score !== row.item_score) {
      await scoped(m, org).query(`UPDATE content_attempts SET completed = $2, success = $3, score = $4 WHERE id = $1 AND organization_id = $org`, [
        s.attemptId,
        item.completed,
        item.success,
        item.score,
      ]);
    }
    const items = packageItems(row.launch_data, s.standard, row.launch_path, row.launch_parameters);
    const lesson = items.length > 1 ? rollup(items, s.standard, await itemOutcomes(m, org, s.lessonProgressId, s.webPackageId)) : { completed: out.completed, success: out.success, score: out.score };
    const patch: LessonPatch = {};
    if (lesson.completed && !row.completed_at) patch.completed_at = new Date(Math.floor(Date.now() / 1000) * 1000);
    if (lesson.success && lesson.success !== row.success_status) patch.success_status = lesson.success;
    if (lesson.score !== null && (lesson.score !== row.score || row.max_score !== 100)) {
      patch.score = lesson.score;
      patch.max_score = 100;
    }
    if (Object.keys(patch).length) await this.progress.writeLessonIn(m, org, { id: s.lessonProgressId, user_id: s.userId }, patch, false);
    if (!terminating) return;
    const exitKeys = version === '1.2' ? ['cmi.core.exit', 'cmi.core.session_time'] : ['cmi.exit', 'cmi.session_time', 'adl.nav.request'];
    await scoped(m, org).query(
      `UPDATE content_attempts SET cmi = cmi - $2::text[], total_time_cs = total_time_cs + $3, state = $4, updated_at = date_trunc('milliseconds', now())
        WHERE id = $1 AND organization_id = $org`,
      [s.attemptId, exitKeys, out.sessionTimeCs ?? 0, out.suspended ? 'SUSPENDED' : 'CLOSED'],
    );
  }
}

/**
 * Where a session's shared data buckets live: global to the system (the default), the learner's
 * in the organization (no lesson progress, no package); else the learner's run of this package.
 */
const sharedScope = (s: Session): [string | null, string | null] => (s.sharedDataGlobal ? [null, null] : [s.lessonProgressId, s.webPackageId]);

/** A SCORM 2004 element of the shared data buckets (the runtime then reads them). */
const isSharedData = (version: ScormVersion, element: unknown): boolean => version === '2004' && typeof element === 'string' && element.startsWith('adl.data.');

/** The standard a ready package runs under. */
export function standardOf(type: string | null, version: string | null): Standard | null {
  if (type === 'SCORM') return version === '1.2' ? 'SCORM_1_2' : 'SCORM_2004';
  if (type === 'CMI5') return 'CMI5';
  if (type === 'XAPI') return 'XAPI';
  return null;
}

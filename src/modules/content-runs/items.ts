import type { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { LaunchItem } from '../content-files/manifest';

type Obj = Record<string, any>;

/**
 * The items of a package (docs/decisions/content-runs.md "Items"): each SCORM item that names a
 * resource with a file, each cmi5 AU and block (`launchable` leaves the blocks out); a TinCan
 * package has one ('' ). A package imported before
 * multi-item launches has only its first item, described by launch_data's own members.
 */
export function packageItems(launchData: Obj | null, standard: string, launchPath: string | null, launchParameters: string | null): LaunchItem[] {
  const d = launchData ?? {};
  if (standard !== 'XAPI' && Array.isArray(d.items) && d.items.length) return d.items as LaunchItem[];
  const id = standard === 'CMI5' ? String(d.activityId ?? '') : standard === 'XAPI' ? '' : String(d.item ?? '');
  return [
    {
      id,
      title: null,
      launch: launchPath ?? '',
      parameters: launchParameters,
      ...(standard === 'CMI5' ? { moveOn: d.moveOn ?? 'NotApplicable', masteryScore: d.masteryScore ?? null, launchMethod: d.launchMethod ?? 'AnyWindow' } : {}),
    },
  ];
}

/** The items a launch can play: every item but cmi5 blocks, in the package's order. */
export const launchable = (items: LaunchItem[]): LaunchItem[] => items.filter((i) => i.kind !== 'block');

export const CMI5_MOVE_ON = ['Passed', 'Completed', 'CompletedAndPassed', 'CompletedOrPassed', 'NotApplicable'];
export const moveOnOf = (item: LaunchItem | undefined): string => (item?.moveOn && CMI5_MOVE_ON.includes(item.moveOn) ? item.moveOn : 'NotApplicable');

/** What each item of a lesson's attempts reported, over all its attempts (the latest success and score). */
export interface ItemOutcome {
  item: string;
  completed: boolean;
  satisfied: boolean;
  success: string | null;
  score: number | null;
}

export async function itemOutcomes(m: EntityManager, org: string, lessonProgressId: string, packageId: string): Promise<Map<string, ItemOutcome>> {
  const rows = await scoped(m, org).query<ItemOutcome[]>(
    `SELECT item, bool_or(completed) AS completed, bool_or(satisfied) AS satisfied,
            (array_agg(success ORDER BY number DESC) FILTER (WHERE success IS NOT NULL))[1] AS success,
            (array_agg(score ORDER BY number DESC) FILTER (WHERE score IS NOT NULL))[1] AS score
       FROM content_attempts WHERE organization_id = $org AND lesson_progress_id = $1 AND web_package_id = $2 GROUP BY item`,
    [lessonProgressId, packageId],
  );
  return new Map(rows.map((r) => [r.item, r]));
}

/**
 * The cmi5 blocks that are satisfied (cmi5 9.3.9): every AU the block holds whose moveOn is not
 * NotApplicable is satisfied, and every block it holds is; inner blocks come first (the order the
 * LMS states them in). A block with nothing to satisfy is satisfied.
 */
export function satisfiedBlocks(items: LaunchItem[], outcomes: Map<string, ItemOutcome>): LaunchItem[] {
  const blocks = items.filter((i) => i.kind === 'block');
  if (!blocks.length) return [];
  const memo = new Map<string, boolean>();
  const done = (b: LaunchItem): boolean => {
    if (memo.has(b.id)) return memo.get(b.id)!;
    memo.set(b.id, false); // a cycle (never from a manifest) satisfies nothing
    const ok = items.filter((i) => i.block === b.id).every((i) => (i.kind === 'block' ? done(i) : moveOnOf(i) === 'NotApplicable' || outcomes.get(i.id)?.satisfied === true));
    memo.set(b.id, ok);
    return ok;
  };
  const depth = (b: LaunchItem): number => {
    let d = 0;
    for (let at = b.block; at && d < 50; d++) at = blocks.find((x) => x.id === at)?.block;
    return d;
  };
  return blocks.filter(done).sort((a, b) => depth(b) - depth(a));
}

/** The lesson's outcome rolled up from its items. */
export interface Rollup {
  /** SCORM: every SCO completed; cmi5: every AU with moveOn other than NotApplicable and every block satisfied; TinCan: completed */
  completed: boolean;
  /** FAILED when an item's latest success is FAILED; PASSED when none failed, one passed and every counted item is done */
  success: string | null;
  /** the mean of the items' latest scores (0..100), null when none reported one */
  score: number | null;
}

/**
 * The rollup (SCORM: the SCOs, assets never report; cmi5: the course's AUs whose moveOn is not
 * NotApplicable, which are satisfied as such, and its blocks, satisfied when all they hold is;
 * TinCan: its one activity). With one item it is that item's outcome.
 */
export function rollup(items: LaunchItem[], standard: string, outcomes: Map<string, ItemOutcome>): Rollup {
  const aus = launchable(items);
  const counted = standard === 'CMI5' ? aus.filter((i) => moveOnOf(i) !== 'NotApplicable') : standard === 'XAPI' ? aus : aus.filter((i) => i.scormType !== 'asset');
  const of = (i: LaunchItem) => outcomes.get(i.id);
  let completed: boolean;
  if (standard === 'CMI5') {
    // the course's own children: its AUs and its blocks (each satisfied when all it holds is)
    const blocks = new Set(satisfiedBlocks(items, outcomes).map((b) => b.id));
    completed = items.filter((i) => !i.block).every((i) => (i.kind === 'block' ? blocks.has(i.id) : moveOnOf(i) === 'NotApplicable' || of(i)?.satisfied === true));
  } else completed = counted.length > 0 && counted.every((i) => of(i)?.completed === true);
  const all = aus.map(of).filter((o): o is ItemOutcome => !!o);
  let success: string | null = null;
  if (all.some((o) => o.success === 'FAILED')) success = 'FAILED';
  else if (all.some((o) => o.success === 'PASSED') && counted.every((i) => !!of(i) && (of(i)!.completed || of(i)!.satisfied || of(i)!.success !== null))) success = 'PASSED';
  const scores = all.map((o) => o.score).filter((x): x is number => x !== null);
  const score = scores.length ? Math.round(scores.reduce((a, b) => a + b, 0) / scores.length) : null;
  return { completed, success, score };
}

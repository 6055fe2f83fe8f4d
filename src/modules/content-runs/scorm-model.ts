/**
 * The SCORM run-time data models (CONVENTIONS §18; docs/decisions/content-runs.md): SCORM 1.2
 * (`cmi.core.*`, CMI001 types and limits, error codes 0–405) and SCORM 2004 3rd/4th edition
 * (`cmi.*`, `adl.nav.request`, RTE types and SPMs, error codes 0–408). Pure functions over a flat
 * map of stored values (`"cmi.interactions.0.id" → "q1"`), so the runtime endpoints, the unit tests
 * and the benchmark share one implementation. Collections (`objectives`, `interactions`, their
 * `objectives` and `correct_responses`, 2004's `comments_from_learner`) are stored by index; their
 * `_count` is the number of indices in use; an index may only be the next one (n == _count) or an
 * existing one, and in 2004 an entry's `id` must be set before its other members (408).
 */
export type ScormVersion = '1.2' | '2004';

/** What the LMS provides to a SCO (read-only members), per launch. */
export interface LmsValues {
  learnerId: string;
  learnerName: string;
  /** 'ab-initio' | 'resume' | '' */
  entry: string;
  credit: 'credit' | 'no-credit';
  mode: 'normal' | 'review' | 'browse';
  launchData: string;
  /** total time of earlier sessions, in centiseconds */
  totalTimeCs: number;
  masteryScore?: number | null;
  /** SCORM 2004 4th edition: the SCO's shared data buckets (`adl.data`), in manifest order, with their stored values */
  sharedData?: SharedBucket[];
}

/** One `adl.data.n` of a SCO: the bucket's targetID, what the SCO may do with it, its shared value (null: never written). */
export interface SharedBucket {
  id: string;
  read: boolean;
  write: boolean;
  value: string | null;
}

export type Stored = Record<string, string>;

export interface Outcome {
  value: string;
  error: number;
}

type Access = 'ro' | 'wo' | 'rw';
interface Def {
  access: Access;
  /** a validator: null when the value is fine, else the error code */
  check?: (v: string) => number | null;
  /** read-only members computed from the LMS values */
  lms?: (l: LmsValues, s: Stored) => string;
  /** the value a read answers before one was set (2004 answers 403 without a default) */
  initial?: string;
  children?: string;
  count?: string;
}

/* ------------------------------------------------------------------------------------------------
 * shared value checks
 * --------------------------------------------------------------------------------------------- */

const num = (v: string) => /^-?(\d+(\.\d*)?|\.\d+)$/.test(v);
const maxLen = (n: number, code: number) => (v: string) => (v.length <= n ? null : code);
const vocab = (words: string[], code: number) => (v: string) => (words.includes(v) ? null : code);

// --- SCORM 1.2 (CMI001) -------------------------------------------------------------------------
const E12 = { ok: 0, general: 101, invalidArg: 201, noChildren: 202, notArray: 203, notInit: 301, notImpl: 401, invalidSet: 402, readOnly: 403, writeOnly: 404, type: 405 };
const dec12 = (min: number | null, max: number | null) => (v: string) => {
  if (!num(v)) return E12.type;
  const x = Number(v);
  return (min !== null && x < min) || (max !== null && x > max) ? E12.type : null;
};
const score12 = (v: string) => (v === '' ? null : dec12(0, 100)(v));
const int12 = (min: number, max: number) => (v: string) => (/^-?\d+$/.test(v) && Number(v) >= min && Number(v) <= max ? null : E12.type);
const timespan12 = (v: string) => (/^\d{2,4}:[0-5]\d:[0-5]\d(\.\d{1,2})?$/.test(v) ? null : E12.type);
const time12 = (v: string) => (/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,2})?$/.test(v) ? null : E12.type);
const ident12 = (v: string) => (/^[^\s]{1,255}$/.test(v) ? null : E12.type);
const STATUS12 = ['passed', 'completed', 'failed', 'incomplete', 'browsed', 'not attempted'];
const INTERACTION_TYPES12 = ['true-false', 'choice', 'fill-in', 'matching', 'performance', 'sequencing', 'likert', 'numeric'];
const result12 = (v: string) => (['correct', 'wrong', 'unanticipated', 'neutral'].includes(v) || num(v) ? null : E12.type);

const DEFS_12: Record<string, Def> = {
  'cmi._children': { access: 'ro', lms: () => 'core,suspend_data,launch_data,comments,objectives,student_data,student_preference,interactions' },
  'cmi.core._children': { access: 'ro', lms: () => 'student_id,student_name,lesson_location,credit,lesson_status,entry,score,total_time,lesson_mode,exit,session_time' },
  'cmi.core.student_id': { access: 'ro', lms: (l) => l.learnerId },
  'cmi.core.student_name': { access: 'ro', lms: (l) => l.learnerName },
  'cmi.core.lesson_location': { access: 'rw', check: maxLen(255, E12.type), initial: '' },
  'cmi.core.credit': { access: 'ro', lms: (l) => l.credit },
  'cmi.core.lesson_status': { access: 'rw', check: (v) => (STATUS12.includes(v) && v !== 'not attempted' ? null : E12.type), initial: 'not attempted' },
  'cmi.core.entry': { access: 'ro', lms: (l) => l.entry },
  'cmi.core.score._children': { access: 'ro', lms: () => 'raw,min,max' },
  'cmi.core.score.raw': { access: 'rw', check: score12, initial: '' },
  'cmi.core.score.min': { access: 'rw', check: score12, initial: '' },
  'cmi.core.score.max': { access: 'rw', check: score12, initial: '' },
  'cmi.core.total_time': { access: 'ro', lms: (l) => timespan12Of(l.totalTimeCs) },
  'cmi.core.lesson_mode': { access: 'ro', lms: (l) => l.mode },
  'cmi.core.exit': { access: 'wo', check: vocab(['time-out', 'suspend', 'logout', ''], E12.type) },
  'cmi.core.session_time': { access: 'wo', check: timespan12 },
  'cmi.suspend_data': { access: 'rw', check: maxLen(4096, E12.type), initial: '' },
  'cmi.launch_data': { access: 'ro', lms: (l) => l.launchData },
  'cmi.comments': { access: 'rw', check: maxLen(4096, E12.type), initial: '' },
  'cmi.comments_from_lms': { access: 'ro', lms: () => '' },
  'cmi.objectives._children': { access: 'ro', lms: () => 'id,score,status' },
  'cmi.objectives._count': { access: 'ro', count: 'cmi.objectives' },
  'cmi.objectives.n.id': { access: 'rw', check: ident12, initial: '' },
  'cmi.objectives.n.score._children': { access: 'ro', lms: () => 'raw,min,max' },
  'cmi.objectives.n.score.raw': { access: 'rw', check: score12, initial: '' },
  'cmi.objectives.n.score.min': { access: 'rw', check: score12, initial: '' },
  'cmi.objectives.n.score.max': { access: 'rw', check: score12, initial: '' },
  'cmi.objectives.n.status': { access: 'rw', check: vocab(STATUS12, E12.type), initial: 'not attempted' },
  'cmi.student_data._children': { access: 'ro', lms: () => 'mastery_score,max_time_allowed,time_limit_action' },
  'cmi.student_data.mastery_score': { access: 'ro', lms: (l) => (l.masteryScore === null || l.masteryScore === undefined ? '' : String(l.masteryScore)) },
  'cmi.student_data.max_time_allowed': { access: 'ro', lms: () => '' },
  'cmi.student_data.time_limit_action': { access: 'ro', lms: () => 'continue,no message' },
  'cmi.student_preference._children': { access: 'ro', lms: () => 'audio,language,speed,text' },
  'cmi.student_preference.audio': { access: 'rw', check: int12(-1, 100), initial: '0' },
  'cmi.student_preference.language': { access: 'rw', check: maxLen(255, E12.type), initial: '' },
  'cmi.student_preference.speed': { access: 'rw', check: int12(-100, 100), initial: '0' },
  'cmi.student_preference.text': { access: 'rw', check: int12(-1, 1), initial: '0' },
  'cmi.interactions._children': { access: 'ro', lms: () => 'id,objectives,time,type,correct_responses,weighting,student_response,result,latency' },
  'cmi.interactions._count': { access: 'ro', count: 'cmi.interactions' },
  'cmi.interactions.n.id': { access: 'wo', check: ident12 },
  'cmi.interactions.n.objectives._count': { access: 'ro', count: 'cmi.interactions.n.objectives' },
  'cmi.interactions.n.objectives.n.id': { access: 'wo', check: ident12 },
  'cmi.interactions.n.time': { access: 'wo', check: time12 },
  'cmi.interactions.n.type': { access: 'wo', check: vocab(INTERACTION_TYPES12, E12.type) },
  'cmi.interactions.n.correct_responses._count': { access: 'ro', count: 'cmi.interactions.n.correct_responses' },
  'cmi.interactions.n.correct_responses.n.pattern': { access: 'wo', check: maxLen(255, E12.type) },
  'cmi.interactions.n.weighting': { access: 'wo', check: dec12(null, null) },
  'cmi.interactions.n.student_response': { access: 'wo', check: maxLen(255, E12.type) },
  'cmi.interactions.n.result': { access: 'wo', check: result12 },
  'cmi.interactions.n.latency': { access: 'wo', check: timespan12 },
};

// --- SCORM 2004 ---------------------------------------------------------------------------------
const E04 = {
  ok: 0,
  general: 101,
  initFailure: 102,
  alreadyInit: 103,
  terminated: 104,
  termFailure: 111,
  termBeforeInit: 112,
  termAfterTerm: 113,
  getBeforeInit: 122,
  getAfterTerm: 123,
  setBeforeInit: 132,
  setAfterTerm: 133,
  commitBeforeInit: 142,
  commitAfterTerm: 143,
  arg: 201,
  get: 301,
  set: 351,
  commit: 391,
  undefined: 401,
  notImpl: 402,
  notInit: 403,
  readOnly: 404,
  writeOnly: 405,
  type: 406,
  range: 407,
  dependency: 408,
};
const real04 = (min: number | null, max: number | null) => (v: string) => {
  if (!num(v)) return E04.type;
  const x = Number(v);
  return (min !== null && x < min) || (max !== null && x > max) ? E04.range : null;
};
const str04 = (n: number) => (v: string) => (v.length <= n ? null : E04.type);
const DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d{1,2})?S)?)?$/;
const interval04 = (v: string) => (DURATION.test(v) ? null : E04.type);
const TIMESTAMP = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3])(:[0-5]\d(:[0-5]\d(\.\d{1,2})?)?)?(Z|[+-]([01]\d|2[0-3])(:?[0-5]\d)?)?)?)?)?$/;
const time04 = (v: string) => (TIMESTAMP.test(v) && Number(v.slice(0, 4)) >= 1970 ? null : E04.type);
const uri04 = (v: string) => (v.length > 0 && v.length <= 4000 && !/\s/.test(v) && !/^urn:$/i.test(v) ? null : E04.type);
const lang04 = (v: string) => (v === '' || /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(v) ? null : E04.type);
const langString04 = (n: number) => (v: string) => {
  const m = /^\{lang=([^}]*)\}/.exec(v);
  if (m && lang04(m[1]) !== null) return E04.type;
  return v.length - (m ? m[0].length : 0) <= n ? null : E04.type;
};
const INTERACTION_TYPES04 = ['true-false', 'choice', 'fill-in', 'long-fill-in', 'matching', 'performance', 'sequencing', 'likert', 'numeric', 'other'];
const COMPLETION04 = ['completed', 'incomplete', 'not attempted', 'unknown'];
const SUCCESS04 = ['passed', 'failed', 'unknown'];
const result04 = (v: string) => (['correct', 'incorrect', 'unanticipated', 'neutral'].includes(v) || num(v) ? null : E04.type);
const NAV = /^(continue|previous|exit|exitAll|abandon|abandonAll|suspendAll|_none_|\{target=[^}\s]+\}(choice|jump))$/;

/** adl.data.n.store: the RTE's smallest permitted maximum, kept as the limit (as suspend_data's) */
export const SHARED_DATA_MAX = 64000;

const SCORE_04 = (prefix: string): Record<string, Def> => ({
  [`${prefix}.score._children`]: { access: 'ro', lms: () => 'scaled,raw,min,max' },
  [`${prefix}.score.scaled`]: { access: 'rw', check: real04(-1, 1) },
  [`${prefix}.score.raw`]: { access: 'rw', check: real04(null, null) },
  [`${prefix}.score.min`]: { access: 'rw', check: real04(null, null) },
  [`${prefix}.score.max`]: { access: 'rw', check: real04(null, null) },
});

const DEFS_2004: Record<string, Def> = {
  'cmi._version': { access: 'ro', lms: () => '1.0' },
  'cmi.comments_from_learner._children': { access: 'ro', lms: () => 'comment,location,timestamp' },
  'cmi.comments_from_learner._count': { access: 'ro', count: 'cmi.comments_from_learner' },
  'cmi.comments_from_learner.n.comment': { access: 'rw', check: langString04(4000) },
  'cmi.comments_from_learner.n.location': { access: 'rw', check: str04(250) },
  'cmi.comments_from_learner.n.timestamp': { access: 'rw', check: time04 },
  'cmi.comments_from_lms._children': { access: 'ro', lms: () => 'comment,location,timestamp' },
  'cmi.comments_from_lms._count': { access: 'ro', lms: () => '0' },
  'cmi.completion_status': { access: 'rw', check: vocab(COMPLETION04, E04.type), initial: 'unknown' },
  'cmi.completion_threshold': { access: 'ro', lms: () => '' },
  'cmi.credit': { access: 'ro', lms: (l) => l.credit },
  'cmi.entry': { access: 'ro', lms: (l) => l.entry },
  'cmi.exit': { access: 'wo', check: vocab(['time-out', 'suspend', 'logout', 'normal', ''], E04.type) },
  'cmi.interactions._children': { access: 'ro', lms: () => 'id,type,objectives,timestamp,correct_responses,weighting,learner_response,result,latency,description' },
  'cmi.interactions._count': { access: 'ro', count: 'cmi.interactions' },
  'cmi.interactions.n.id': { access: 'rw', check: uri04 },
  'cmi.interactions.n.type': { access: 'rw', check: vocab(INTERACTION_TYPES04, E04.type) },
  'cmi.interactions.n.objectives._count': { access: 'ro', count: 'cmi.interactions.n.objectives' },
  'cmi.interactions.n.objectives.n.id': { access: 'rw', check: uri04 },
  'cmi.interactions.n.timestamp': { access: 'rw', check: time04 },
  'cmi.interactions.n.correct_responses._count': { access: 'ro', count: 'cmi.interactions.n.correct_responses' },
  'cmi.interactions.n.correct_responses.n.pattern': { access: 'rw', check: str04(7800) },
  'cmi.interactions.n.weighting': { access: 'rw', check: real04(null, null) },
  'cmi.interactions.n.learner_response': { access: 'rw', check: str04(7800) },
  'cmi.interactions.n.result': { access: 'rw', check: result04 },
  'cmi.interactions.n.latency': { access: 'rw', check: interval04 },
  'cmi.interactions.n.description': { access: 'rw', check: langString04(250) },
  'cmi.launch_data': { access: 'ro', lms: (l) => l.launchData },
  'cmi.learner_id': { access: 'ro', lms: (l) => l.learnerId },
  'cmi.learner_name': { access: 'ro', lms: (l) => l.learnerName },
  'cmi.learner_preference._children': { access: 'ro', lms: () => 'audio_level,language,delivery_speed,audio_captioning' },
  'cmi.learner_preference.audio_level': { access: 'rw', check: real04(0, null), initial: '1' },
  'cmi.learner_preference.language': { access: 'rw', check: lang04, initial: '' },
  'cmi.learner_preference.delivery_speed': { access: 'rw', check: real04(0, null), initial: '1' },
  'cmi.learner_preference.audio_captioning': { access: 'rw', check: vocab(['-1', '0', '1'], E04.type), initial: '0' },
  'cmi.location': { access: 'rw', check: str04(1000) },
  'cmi.max_time_allowed': { access: 'ro', lms: () => '' },
  'cmi.mode': { access: 'ro', lms: (l) => l.mode },
  'cmi.objectives._children': { access: 'ro', lms: () => 'id,score,success_status,completion_status,progress_measure,description' },
  'cmi.objectives._count': { access: 'ro', count: 'cmi.objectives' },
  'cmi.objectives.n.id': { access: 'rw', check: uri04 },
  ...SCORE_04('cmi.objectives.n'),
  'cmi.objectives.n.success_status': { access: 'rw', check: vocab(SUCCESS04, E04.type), initial: 'unknown' },
  'cmi.objectives.n.completion_status': { access: 'rw', check: vocab(COMPLETION04, E04.type), initial: 'unknown' },
  'cmi.objectives.n.progress_measure': { access: 'rw', check: real04(0, 1) },
  'cmi.objectives.n.description': { access: 'rw', check: langString04(250) },
  'cmi.progress_measure': { access: 'rw', check: real04(0, 1) },
  'cmi.scaled_passing_score': { access: 'ro', lms: (l) => (l.masteryScore === null || l.masteryScore === undefined ? '' : String(l.masteryScore)) },
  ...SCORE_04('cmi'),
  'cmi.session_time': { access: 'wo', check: interval04 },
  'cmi.success_status': { access: 'rw', check: vocab(SUCCESS04, E04.type), initial: 'unknown' },
  'cmi.suspend_data': { access: 'rw', check: str04(64000) },
  'cmi.time_limit_action': { access: 'ro', lms: () => 'continue,no message' },
  'cmi.total_time': { access: 'ro', lms: (l) => durationOf(l.totalTimeCs) },
  'adl.nav.request': { access: 'rw', check: (v) => (NAV.test(v) ? null : E04.type), initial: '_none_' },
  // 4th edition shared data: the buckets are the manifest's (adlcp:map), their values the LMS's (sharedGet / sharedSet)
  'adl.data._children': { access: 'ro', lms: () => 'id,store' },
  'adl.data._count': { access: 'ro', lms: (l) => String(l.sharedData?.length ?? 0) },
  'adl.data.n.id': { access: 'ro' },
  'adl.data.n.store': { access: 'rw', check: str04(SHARED_DATA_MAX) },
};

/** Where a collection's member depends on its `id` (2004: set the id first). */
const COLLECTION_ID: Record<string, string> = {
  'cmi.objectives': 'id',
  'cmi.interactions': 'id',
  'cmi.interactions.n.objectives': 'id',
  'cmi.interactions.n.correct_responses': 'pattern',
  'cmi.comments_from_learner': '',
};

export const ERROR_STRINGS: Record<ScormVersion, Record<number, string>> = {
  '1.2': {
    0: 'No error',
    101: 'General exception',
    201: 'Invalid argument error',
    202: 'Element cannot have children',
    203: 'Element not an array - cannot have count',
    301: 'Not initialized',
    401: 'Not implemented error',
    402: 'Invalid set value, element is a keyword',
    403: 'Element is read only',
    404: 'Element is write only',
    405: 'Incorrect data type',
  },
  '2004': {
    0: 'No Error',
    101: 'General Exception',
    102: 'General Initialization Failure',
    103: 'Already Initialized',
    104: 'Content Instance Terminated',
    111: 'General Termination Failure',
    112: 'Termination Before Initialization',
    113: 'Termination After Termination',
    122: 'Retrieve Data Before Initialization',
    123: 'Retrieve Data After Termination',
    132: 'Store Data Before Initialization',
    133: 'Store Data After Termination',
    142: 'Commit Before Initialization',
    143: 'Commit After Termination',
    201: 'General Argument Error',
    301: 'General Get Failure',
    351: 'General Set Failure',
    391: 'General Commit Failure',
    401: 'Undefined Data Model Element',
    402: 'Unimplemented Data Model Element',
    403: 'Data Model Element Value Not Initialized',
    404: 'Data Model Element Is Read Only',
    405: 'Data Model Element Is Write Only',
    406: 'Data Model Element Type Mismatch',
    407: 'Data Model Element Value Out Of Range',
    408: 'Data Model Dependency Not Established',
  },
};

/** The data model's element name with indices replaced by `n`, and the indices. */
function shape(element: string): { key: string; indices: number[] } | null {
  if (!/^[a-z._\d]+$/i.test(element) || element.length > 255) return null;
  const indices: number[] = [];
  const key = element
    .split('.')
    .map((seg) => {
      if (/^\d+$/.test(seg)) {
        indices.push(Number(seg));
        return 'n';
      }
      return seg;
    })
    .join('.');
  return { key, indices };
}

/** The concrete path of a collection (`cmi.interactions.n.objectives` with indices [2] → `cmi.interactions.2.objectives`). */
function concrete(pattern: string, indices: number[]): string {
  let i = 0;
  return pattern
    .split('.')
    .map((s) => (s === 'n' ? String(indices[i++]) : s))
    .join('.');
}

/** How many entries a collection holds: one more than its highest stored index. */
export function countOf(stored: Stored, collection: string): number {
  const prefix = `${collection}.`;
  let max = -1;
  for (const k of Object.keys(stored)) {
    if (!k.startsWith(prefix)) continue;
    const m = /^(\d+)\./.exec(k.slice(prefix.length));
    if (m && Number(m[1]) > max) max = Number(m[1]);
  }
  return max + 1;
}

const defsOf = (v: ScormVersion) => (v === '1.2' ? DEFS_12 : DEFS_2004);

/** GetValue / LMSGetValue on an initialized session. */
export function getValue(version: ScormVersion, stored: Stored, lms: LmsValues, element: unknown): Outcome {
  const v12 = version === '1.2';
  if (typeof element !== 'string' || element === '') return { value: '', error: v12 ? E12.invalidArg : E04.get };
  const s = shape(element);
  const defs = defsOf(version);
  const def = s ? defs[s.key] : undefined;
  if (!s || !def) {
    if (s && /\._(children|count)$/.test(s.key)) {
      const base = s.key.replace(/\._(children|count)$/, '');
      const known = Object.keys(defs).some((k) => k.startsWith(`${base}.`)) || defs[base];
      if (known) return { value: '', error: v12 ? (s.key.endsWith('_children') ? E12.noChildren : E12.notArray) : E04.get };
    }
    return { value: '', error: v12 ? E12.invalidArg : E04.undefined };
  }
  if (def.access === 'wo') return { value: '', error: v12 ? E12.writeOnly : E04.writeOnly };
  if (!v12 && (s.key === 'adl.data.n.id' || s.key === 'adl.data.n.store')) return sharedGet(lms.sharedData ?? [], s.key, s.indices[0]);
  if (def.count) {
    const coll = concrete(def.count, s.indices);
    return { value: String(countOf(stored, coll)), error: 0 };
  }
  if (def.lms) return { value: def.lms(lms, stored), error: 0 };
  // a member of a collection entry that does not exist
  if (s.indices.length) {
    const owner = collectionOf(s.key);
    if (owner && s.indices[s.indices.length - 1] >= countOf(stored, concrete(owner, s.indices.slice(0, -1)))) {
      return { value: '', error: v12 ? E12.invalidArg : E04.get };
    }
  }
  const value = stored[element];
  if (value !== undefined) return { value, error: 0 };
  if (def.initial !== undefined) return { value: def.initial, error: 0 };
  return { value: '', error: v12 ? 0 : E04.notInit };
}

/**
 * GetValue of `adl.data.n.id` / `adl.data.n.store` (SCORM 2004 4th edition RTE, shared data): a
 * bucket the SCO has not (n at or past `_count`) is 301; the store of a bucket the SCO may not read
 * (readSharedData false) is 405, of one never written 403.
 */
function sharedGet(buckets: SharedBucket[], key: string, n: number): Outcome {
  const b = buckets[n];
  if (!b) return { value: '', error: E04.get };
  if (key === 'adl.data.n.id') return { value: b.id, error: 0 };
  if (!b.read) return { value: '', error: E04.writeOnly };
  if (b.value === null) return { value: '', error: E04.notInit };
  return { value: b.value, error: 0 };
}

/**
 * SetValue of `adl.data.n.store`: a bucket the SCO has not is 351, one it may not write
 * (writeSharedData false) 404, a value over 64,000 characters 406; else the bucket's new value.
 */
function sharedSet(buckets: SharedBucket[], n: number, v: string): { error: number; shared?: { id: string; value: string } } {
  const b = buckets[n];
  if (!b) return { error: E04.set };
  if (!b.write) return { error: E04.readOnly };
  const err = DEFS_2004['adl.data.n.store'].check!(v);
  if (err) return { error: err };
  return { error: 0, shared: { id: b.id, value: v } };
}

/** The collection a pattern's last `n` belongs to (`cmi.interactions.n.objectives.n.id` → `cmi.interactions.n.objectives`). */
function collectionOf(pattern: string): string | null {
  const i = pattern.lastIndexOf('.n.');
  return i < 0 ? null : pattern.slice(0, i);
}

/**
 * SetValue / LMSSetValue on an initialized session: the stored map's new entries, or the error.
 * Values are strings (the adapter sends String(value), as the standards' API takes strings).
 */
export function setValue(version: ScormVersion, stored: Stored, element: unknown, value: unknown, shared?: SharedBucket[]): { error: number; set?: Stored; shared?: { id: string; value: string } } {
  const v12 = version === '1.2';
  if (typeof element !== 'string' || element === '') return { error: v12 ? E12.invalidArg : E04.set };
  const v = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  const s = shape(element);
  const defs = defsOf(version);
  const def = s ? defs[s.key] : undefined;
  if (!s || !def) {
    if (s && /\._(children|count|version)$/.test(s.key)) return { error: v12 ? E12.invalidSet : E04.readOnly };
    return { error: v12 ? E12.invalidArg : E04.undefined };
  }
  if (def.access === 'ro') return { error: v12 ? (/\._(children|count)$/.test(s.key) ? E12.invalidSet : E12.readOnly) : E04.readOnly };
  if (!v12 && s.key === 'adl.data.n.store') return sharedSet(shared ?? [], s.indices[0], v);
  const owner = collectionOf(s.key);
  if (owner) {
    // the enclosing entry must exist, and this entry is an existing one or the next
    const outer = s.indices.slice(0, -1);
    const n = s.indices[s.indices.length - 1];
    if (outer.length) {
      const parent = collectionOf(owner)!;
      if (outer[outer.length - 1] >= countOf(stored, concrete(parent, outer.slice(0, -1)))) return { error: v12 ? E12.invalidArg : E04.set };
    }
    const coll = concrete(owner, outer);
    const count = countOf(stored, coll);
    if (n > count) return { error: v12 ? E12.invalidArg : E04.set };
    if (!v12) {
      const idMember = COLLECTION_ID[owner];
      const member = s.key.slice(owner.length + 3);
      if (idMember && member !== idMember && stored[`${coll}.${n}.${idMember}`] === undefined) return { error: E04.dependency };
      // an objective's or interaction's id is unique within its collection and never changes
      if (idMember === 'id' && member === 'id') {
        const err = def.check?.(v);
        if (err) return { error: err };
        for (let i = 0; i < count; i++) if (i !== n && stored[`${coll}.${i}.id`] === v && owner === 'cmi.objectives') return { error: E04.set };
      }
    }
  }
  const err = def.check?.(v);
  if (err) return { error: err };
  if (!v12) {
    // dependencies of 2004: a pattern needs the interaction's type; a score's min/max order is not checked (the standard does not)
    if (s.key === 'cmi.interactions.n.correct_responses.n.pattern' || s.key === 'cmi.interactions.n.learner_response') {
      if (stored[`cmi.interactions.${s.indices[0]}.type`] === undefined) return { error: E04.dependency };
    }
  }
  return { error: 0, set: { [element]: v } };
}

/* ------------------------------------------------------------------------------------------------
 * times
 * --------------------------------------------------------------------------------------------- */

/** A SCORM 1.2 CMITimespan in centiseconds (null when not one). */
export function centisOf12(v: string | undefined): number | null {
  const m = v ? /^(\d{2,4}):([0-5]\d):([0-5]\d)(?:\.(\d{1,2}))?$/.exec(v) : null;
  if (!m) return null;
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 100 + (m[4] ? Number(m[4].padEnd(2, '0')) : 0);
}

/** An ISO 8601 duration in centiseconds (years of 365 days, months of 30: the standard leaves it to the LMS). */
export function centisOf2004(v: string | undefined): number | null {
  const m = v ? /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,2})?)S)?)?$/.exec(v) : null;
  if (!m || !DURATION.test(v!)) return null;
  const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(m[i] ?? 0));
  const sec = Number(m[6] ?? 0);
  return Math.round((((y * 365 + mo * 30 + d) * 24 + h) * 60 + mi) * 6000 + sec * 100);
}

export function timespan12Of(cs: number): string {
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  return `${String(Math.min(h, 9999)).padStart(4, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(c).padStart(2, '0')}`;
}

export function durationOf(cs: number): string {
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = (cs % 6000) / 100;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${Number(s.toFixed(2))}S` : ''}`;
}

/* ------------------------------------------------------------------------------------------------
 * what a session's data means for the lesson progress
 * --------------------------------------------------------------------------------------------- */

export interface RunOutcome {
  completed: boolean;
  success: 'PASSED' | 'FAILED' | null;
  /** 0–100, when the content reported a score */
  score: number | null;
  suspended: boolean;
  sessionTimeCs: number | null;
}

/**
 * Read completion, success and score from the stored values (SCORM 1.2: lesson_status passed /
 * completed / failed, raw score against min/max; 2004: completion_status, success_status, scaled
 * score or raw against min/max; the scaled passing score or mastery score decides success when the
 * content left it unknown and reported a score).
 */
export function outcomeOf(version: ScormVersion, stored: Stored, masteryScore: number | null | undefined): RunOutcome {
  const pct = (raw?: string, min?: string, max?: string): number | null => {
    if (raw === undefined || raw === '' || !num(raw)) return null;
    const r = Number(raw);
    const lo = min !== undefined && num(min) ? Number(min) : 0;
    const hi = max !== undefined && num(max) ? Number(max) : 100;
    if (hi <= lo) return Math.max(0, Math.min(100, Math.round(r)));
    return Math.max(0, Math.min(100, Math.round(((r - lo) / (hi - lo)) * 100)));
  };
  if (version === '1.2') {
    let status = stored['cmi.core.lesson_status'] ?? 'not attempted';
    const score = pct(stored['cmi.core.score.raw'], stored['cmi.core.score.min'], stored['cmi.core.score.max']);
    if (masteryScore !== null && masteryScore !== undefined && score !== null && ['completed', 'incomplete', 'browsed'].includes(status)) {
      status = score >= masteryScore ? 'passed' : 'failed';
    }
    return {
      completed: ['completed', 'passed', 'failed'].includes(status),
      success: status === 'passed' ? 'PASSED' : status === 'failed' ? 'FAILED' : null,
      score,
      suspended: stored['cmi.core.exit'] === 'suspend',
      sessionTimeCs: centisOf12(stored['cmi.core.session_time']),
    };
  }
  const scaled = stored['cmi.score.scaled'];
  const score = scaled !== undefined && num(scaled) ? Math.max(0, Math.min(100, Math.round(Number(scaled) * 100))) : pct(stored['cmi.score.raw'], stored['cmi.score.min'], stored['cmi.score.max']);
  let success = stored['cmi.success_status'] ?? 'unknown';
  if (success === 'unknown' && masteryScore !== null && masteryScore !== undefined && scaled !== undefined && num(scaled)) success = Number(scaled) >= masteryScore ? 'passed' : 'failed';
  const completion = stored['cmi.completion_status'] ?? 'unknown';
  return {
    completed: completion === 'completed',
    success: success === 'passed' ? 'PASSED' : success === 'failed' ? 'FAILED' : null,
    score,
    suspended: stored['cmi.exit'] === 'suspend' || stored['adl.nav.request'] === 'suspendAll',
    sessionTimeCs: centisOf2004(stored['cmi.session_time']),
  };
}

/** Errors of the API's state (not initialized, terminated) per standard, for the runtime. */
export const STATE_ERRORS = {
  '1.2': {
    initTwice: 101,
    termBeforeInit: 301,
    termAfterTerm: 101,
    getBeforeInit: 301,
    getAfterTerm: 101,
    setBeforeInit: 301,
    setAfterTerm: 101,
    commitBeforeInit: 301,
    commitAfterTerm: 101,
    initAfterTerm: 101,
    argument: 201,
  },
  '2004': {
    initTwice: 103,
    termBeforeInit: 112,
    termAfterTerm: 113,
    getBeforeInit: 122,
    getAfterTerm: 123,
    setBeforeInit: 132,
    setAfterTerm: 133,
    commitBeforeInit: 142,
    commitAfterTerm: 143,
    initAfterTerm: 104,
    argument: 201,
  },
} as const;

/**
 * xAPI statement validation (1.0.3 and 2.0.0; docs/decisions/lrs.md): the structural MUSTs of
 * the Data section that an LRS enforces — allowed members per object, types, IRIs and IRLs, UUIDs,
 * language maps, exactly one inverse functional identifier per agent, groups, activity
 * definitions, result scores, context rules, timestamps, durations, versions and attachments.
 * Throws XapiInvalid with the path of the first problem.
 */
export class XapiInvalid extends Error {}

type Obj = Record<string, unknown>;
export type XapiVersion = '1.0.3' | '2.0.0';

const fail = (path: string, msg: string): never => {
  throw new XapiInvalid(`${path}: ${msg}`);
};
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IRI_RE = /^[a-z][a-z0-9+.-]*:[^\s]*$/i;
const LANG_RE =
  /^(([a-z]{2,3}(-[a-z]{3}){0,3})|[a-z]{4,8})(-[a-z]{4})?(-([a-z]{2}|\d{3}))?(-([a-z\d]{5,8}|\d[a-z\d]{3}))*(-[0-9a-wy-z](-[a-z\d]{2,8})+)*(-x(-[a-z\d]{1,8})+)?$|^x(-[a-z\d]{1,8})+$|^i-[a-z]+$/i;
/** ISO 8601 date-time with a time zone (xAPI: RFC 3339 profile; a zone offset of -00:00 is refused). */
export const TIMESTAMP_RE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):?([0-5]\d)?)$/i;
const DURATION_RE = /^P(?:\d+(?:\.\d+)?W|(?=\d|T\d)(?:\d+(?:\.\d+)?Y)?(?:\d+(?:\.\d+)?M)?(?:\d+(?:\.\d+)?D)?(?:T(?=\d)(?:\d+(?:\.\d+)?H)?(?:\d+(?:\.\d+)?M)?(?:\d+(?:\.\d+)?S)?)?)$/;
const INTERACTION_TYPES = ['true-false', 'choice', 'fill-in', 'long-fill-in', 'matching', 'performance', 'sequencing', 'likert', 'numeric', 'other'];

function allowed(o: Obj, path: string, keys: string[]) {
  for (const k of Object.keys(o)) if (!keys.includes(k)) fail(path, `unexpected member "${k}"`);
}
function str(v: unknown, path: string): string {
  if (typeof v !== 'string') fail(path, 'must be a string');
  return v as string;
}
function iri(v: unknown, path: string) {
  if (typeof v !== 'string' || !IRI_RE.test(v)) fail(path, 'must be an IRI');
}
function uuid(v: unknown, path: string) {
  if (typeof v !== 'string' || !UUID_RE.test(v)) fail(path, 'must be a UUID');
}
function langMap(v: unknown, path: string) {
  if (!isObj(v)) fail(path, 'must be a language map');
  for (const [k, s] of Object.entries(v as Obj)) {
    if (!LANG_RE.test(k)) fail(path, `"${k}" is not a language tag`);
    if (typeof s !== 'string') fail(`${path}.${k}`, 'must be a string');
  }
}
function extensions(v: unknown, path: string) {
  if (!isObj(v)) fail(path, 'must be an object');
  for (const k of Object.keys(v as Obj)) if (!IRI_RE.test(k)) fail(path, `"${k}" is not an IRI`);
}
export function timestamp(v: unknown, path: string) {
  if (typeof v !== 'string' || !TIMESTAMP_RE.test(v) || /-00:?00$/.test(v)) fail(path, 'must be an ISO 8601 timestamp with a time zone');
  if (Number.isNaN(Date.parse((v as string).replace(/:60(\.\d+)?/, ':59')))) fail(path, 'must be a valid timestamp');
}

const IFIS = ['mbox', 'mbox_sha1sum', 'openid', 'account'];

function ifi(o: Obj, path: string): number {
  let n = 0;
  if (o.mbox !== undefined) {
    n++;
    if (typeof o.mbox !== 'string' || !/^mailto:[^@\s]+@[^@\s]+$/i.test(o.mbox)) fail(`${path}.mbox`, 'must be a mailto: IRI');
  }
  if (o.mbox_sha1sum !== undefined) {
    n++;
    if (typeof o.mbox_sha1sum !== 'string' || !/^[0-9a-f]{40}$/i.test(o.mbox_sha1sum)) fail(`${path}.mbox_sha1sum`, 'must be a SHA-1 hex digest');
  }
  if (o.openid !== undefined) {
    n++;
    iri(o.openid, `${path}.openid`);
  }
  if (o.account !== undefined) {
    n++;
    const a = o.account;
    if (!isObj(a)) fail(`${path}.account`, 'must be an object');
    allowed(a as Obj, `${path}.account`, ['homePage', 'name']);
    iri((a as Obj).homePage, `${path}.account.homePage`);
    str((a as Obj).name, `${path}.account.name`);
  }
  return n;
}

export function agent(v: unknown, path: string, opts: { allowGroup: boolean } = { allowGroup: true }) {
  if (!isObj(v)) fail(path, 'must be an object');
  const o = v as Obj;
  if (o.objectType === 'Group') {
    if (!opts.allowGroup) fail(path, 'a group may not be here');
    allowed(o, path, ['objectType', 'name', 'member', ...IFIS]);
    if (o.name !== undefined) str(o.name, `${path}.name`);
    const n = ifi(o, path);
    if (n > 1) fail(path, 'must have at most one inverse functional identifier');
    if (o.member !== undefined) {
      if (!Array.isArray(o.member)) fail(`${path}.member`, 'must be an array');
      (o.member as unknown[]).forEach((m, i) => agent(m, `${path}.member[${i}]`, { allowGroup: false }));
    }
    if (n === 0 && (!Array.isArray(o.member) || !o.member.length)) fail(path, 'an anonymous group must list its members');
    return;
  }
  if (o.objectType !== undefined && o.objectType !== 'Agent') fail(`${path}.objectType`, 'must be "Agent" or "Group"');
  allowed(o, path, ['objectType', 'name', ...IFIS]);
  if (o.name !== undefined) str(o.name, `${path}.name`);
  if (ifi(o, path) !== 1) fail(path, 'an agent must have exactly one inverse functional identifier');
}

function verb(v: unknown, path: string) {
  if (!isObj(v)) fail(path, 'must be an object');
  allowed(v as Obj, path, ['id', 'display']);
  iri((v as Obj).id, `${path}.id`);
  if ((v as Obj).display !== undefined) langMap((v as Obj).display, `${path}.display`);
}

function components(v: unknown, path: string) {
  if (!Array.isArray(v)) fail(path, 'must be an array');
  const ids = new Set<string>();
  (v as unknown[]).forEach((c, i) => {
    if (!isObj(c)) fail(`${path}[${i}]`, 'must be an object');
    allowed(c as Obj, `${path}[${i}]`, ['id', 'description']);
    const id = str((c as Obj).id, `${path}[${i}].id`);
    if (ids.has(id)) fail(`${path}[${i}].id`, 'must be unique');
    ids.add(id);
    if ((c as Obj).description !== undefined) langMap((c as Obj).description, `${path}[${i}].description`);
  });
}

function activity(v: Obj, path: string) {
  allowed(v, path, ['objectType', 'id', 'definition']);
  iri(v.id, `${path}.id`);
  if (v.definition === undefined) return;
  const d = v.definition;
  if (!isObj(d)) fail(`${path}.definition`, 'must be an object');
  const dp = `${path}.definition`;
  allowed(d as Obj, dp, ['name', 'description', 'type', 'moreInfo', 'extensions', 'interactionType', 'correctResponsesPattern', 'choices', 'scale', 'source', 'target', 'steps']);
  const def = d as Obj;
  if (def.name !== undefined) langMap(def.name, `${dp}.name`);
  if (def.description !== undefined) langMap(def.description, `${dp}.description`);
  if (def.type !== undefined) iri(def.type, `${dp}.type`);
  if (def.moreInfo !== undefined) iri(def.moreInfo, `${dp}.moreInfo`);
  if (def.extensions !== undefined) extensions(def.extensions, `${dp}.extensions`);
  const interactionMembers = ['correctResponsesPattern', 'choices', 'scale', 'source', 'target', 'steps'];
  if (def.interactionType === undefined) {
    for (const k of interactionMembers) if (def[k] !== undefined) fail(`${dp}.${k}`, 'needs an interactionType');
    return;
  }
  if (typeof def.interactionType !== 'string' || !INTERACTION_TYPES.includes(def.interactionType)) fail(`${dp}.interactionType`, 'is not an interaction type');
  if (def.correctResponsesPattern !== undefined) {
    if (!Array.isArray(def.correctResponsesPattern) || def.correctResponsesPattern.some((x) => typeof x !== 'string')) fail(`${dp}.correctResponsesPattern`, 'must be an array of strings');
  }
  const allowedComponents: Record<string, string[]> = { choice: ['choices'], sequencing: ['choices'], likert: ['scale'], matching: ['source', 'target'], performance: ['steps'] };
  for (const k of ['choices', 'scale', 'source', 'target', 'steps']) {
    if (def[k] === undefined) continue;
    if (!(allowedComponents[def.interactionType as string] ?? []).includes(k)) fail(`${dp}.${k}`, `is not allowed for ${def.interactionType}`);
    components(def[k], `${dp}.${k}`);
  }
}

function statementRef(v: Obj, path: string) {
  allowed(v, path, ['objectType', 'id']);
  uuid(v.id, `${path}.id`);
}

function object(v: unknown, path: string, version: XapiVersion, inSub: boolean) {
  if (!isObj(v)) fail(path, 'must be an object');
  const o = v as Obj;
  const type = o.objectType;
  if (type === undefined || type === 'Activity') return activity(o, path);
  if (type === 'Agent' || type === 'Group') return agent(o, path);
  if (type === 'StatementRef') return statementRef(o, path);
  if (type === 'SubStatement') {
    if (inSub) fail(path, 'a SubStatement may not contain a SubStatement');
    allowed(o, path, ['objectType', 'actor', 'verb', 'object', 'result', 'context', 'timestamp', 'attachments']);
    return body(o, path, version, true);
  }
  fail(`${path}.objectType`, 'is not an object type');
}

function result(v: unknown, path: string) {
  if (!isObj(v)) fail(path, 'must be an object');
  const r = v as Obj;
  allowed(r, path, ['score', 'success', 'completion', 'response', 'duration', 'extensions']);
  if (r.score !== undefined) {
    if (!isObj(r.score)) fail(`${path}.score`, 'must be an object');
    const s = r.score as Obj;
    allowed(s, `${path}.score`, ['scaled', 'raw', 'min', 'max']);
    for (const k of ['scaled', 'raw', 'min', 'max']) if (s[k] !== undefined && (typeof s[k] !== 'number' || !Number.isFinite(s[k]))) fail(`${path}.score.${k}`, 'must be a number');
    if (s.scaled !== undefined && ((s.scaled as number) < -1 || (s.scaled as number) > 1)) fail(`${path}.score.scaled`, 'must be between -1 and 1');
    if (s.min !== undefined && s.max !== undefined && (s.min as number) >= (s.max as number)) fail(`${path}.score`, 'min must be less than max');
    if (s.raw !== undefined && s.min !== undefined && (s.raw as number) < (s.min as number)) fail(`${path}.score.raw`, 'must be at least min');
    if (s.raw !== undefined && s.max !== undefined && (s.raw as number) > (s.max as number)) fail(`${path}.score.raw`, 'must be at most max');
  }
  if (r.success !== undefined && typeof r.success !== 'boolean') fail(`${path}.success`, 'must be a boolean');
  if (r.completion !== undefined && typeof r.completion !== 'boolean') fail(`${path}.completion`, 'must be a boolean');
  if (r.response !== undefined) str(r.response, `${path}.response`);
  if (r.duration !== undefined && (typeof r.duration !== 'string' || !DURATION_RE.test(r.duration))) fail(`${path}.duration`, 'must be an ISO 8601 duration');
  if (r.extensions !== undefined) extensions(r.extensions, `${path}.extensions`);
}

function context(v: unknown, path: string, objectIsActivity: boolean, version: XapiVersion) {
  if (!isObj(v)) fail(path, 'must be an object');
  const c = v as Obj;
  const keys = ['registration', 'instructor', 'team', 'contextActivities', 'revision', 'platform', 'language', 'statement', 'extensions'];
  if (version === '2.0.0') keys.push('contextAgents', 'contextGroups');
  allowed(c, path, keys);
  if (c.registration !== undefined) uuid(c.registration, `${path}.registration`);
  if (c.instructor !== undefined) agent(c.instructor, `${path}.instructor`);
  if (c.team !== undefined) {
    agent(c.team, `${path}.team`);
    if ((c.team as Obj).objectType !== 'Group') fail(`${path}.team`, 'must be a Group');
  }
  if (c.contextActivities !== undefined) {
    if (!isObj(c.contextActivities)) fail(`${path}.contextActivities`, 'must be an object');
    const ca = c.contextActivities as Obj;
    allowed(ca, `${path}.contextActivities`, ['parent', 'grouping', 'category', 'other']);
    for (const [k, val] of Object.entries(ca)) {
      const list = Array.isArray(val) ? val : [val];
      list.forEach((a, i) => {
        if (!isObj(a)) fail(`${path}.contextActivities.${k}[${i}]`, 'must be an activity');
        if ((a as Obj).objectType !== undefined && (a as Obj).objectType !== 'Activity') fail(`${path}.contextActivities.${k}[${i}]`, 'must be an activity');
        activity(a as Obj, `${path}.contextActivities.${k}[${i}]`);
      });
    }
  }
  if (c.revision !== undefined) {
    str(c.revision, `${path}.revision`);
    if (!objectIsActivity) fail(`${path}.revision`, 'only with an Activity object');
  }
  if (c.platform !== undefined) {
    str(c.platform, `${path}.platform`);
    if (!objectIsActivity) fail(`${path}.platform`, 'only with an Activity object');
  }
  if (c.language !== undefined && (typeof c.language !== 'string' || !LANG_RE.test(c.language))) fail(`${path}.language`, 'must be a language tag');
  if (c.statement !== undefined) {
    if (!isObj(c.statement) || (c.statement as Obj).objectType !== 'StatementRef') fail(`${path}.statement`, 'must be a StatementRef');
    statementRef(c.statement as Obj, `${path}.statement`);
  }
  if (c.extensions !== undefined) extensions(c.extensions, `${path}.extensions`);
  if (c.contextAgents !== undefined) {
    if (!Array.isArray(c.contextAgents)) fail(`${path}.contextAgents`, 'must be an array');
    (c.contextAgents as unknown[]).forEach((x, i) => {
      if (!isObj(x) || (x as Obj).objectType !== 'contextAgent') fail(`${path}.contextAgents[${i}]`, 'must be a contextAgent');
      allowed(x as Obj, `${path}.contextAgents[${i}]`, ['objectType', 'agent', 'relevantTypes']);
      agent((x as Obj).agent, `${path}.contextAgents[${i}].agent`, { allowGroup: false });
      relevantTypes((x as Obj).relevantTypes, `${path}.contextAgents[${i}].relevantTypes`);
    });
  }
  if (c.contextGroups !== undefined) {
    if (!Array.isArray(c.contextGroups)) fail(`${path}.contextGroups`, 'must be an array');
    (c.contextGroups as unknown[]).forEach((x, i) => {
      if (!isObj(x) || (x as Obj).objectType !== 'contextGroup') fail(`${path}.contextGroups[${i}]`, 'must be a contextGroup');
      allowed(x as Obj, `${path}.contextGroups[${i}]`, ['objectType', 'group', 'relevantTypes']);
      agent((x as Obj).group, `${path}.contextGroups[${i}].group`);
      if (((x as Obj).group as Obj).objectType !== 'Group') fail(`${path}.contextGroups[${i}].group`, 'must be a Group');
      relevantTypes((x as Obj).relevantTypes, `${path}.contextGroups[${i}].relevantTypes`);
    });
  }
}

function relevantTypes(v: unknown, path: string) {
  if (v === undefined) return;
  if (!Array.isArray(v) || !v.length) fail(path, 'must be a non-empty array of IRIs');
  (v as unknown[]).forEach((x, i) => iri(x, `${path}[${i}]`));
}

export function attachmentsOf(v: unknown, path: string) {
  if (!Array.isArray(v)) fail(path, 'must be an array');
  (v as unknown[]).forEach((a, i) => {
    const p = `${path}[${i}]`;
    if (!isObj(a)) fail(p, 'must be an object');
    const o = a as Obj;
    allowed(o, p, ['usageType', 'display', 'description', 'contentType', 'length', 'sha2', 'fileUrl']);
    iri(o.usageType, `${p}.usageType`);
    langMap(o.display, `${p}.display`);
    if (o.description !== undefined) langMap(o.description, `${p}.description`);
    if (typeof o.contentType !== 'string' || !/^[\w.+-]+\/[\w.+-]+/.test(o.contentType)) fail(`${p}.contentType`, 'must be a media type');
    if (typeof o.length !== 'number' || !Number.isInteger(o.length) || o.length < 0) fail(`${p}.length`, 'must be a non-negative integer');
    if (typeof o.sha2 !== 'string' || !/^[0-9a-f]{56,128}$/i.test(o.sha2)) fail(`${p}.sha2`, 'must be a SHA-2 hex digest');
    if (o.fileUrl !== undefined) iri(o.fileUrl, `${p}.fileUrl`);
  });
}

function body(o: Obj, path: string, version: XapiVersion, inSub: boolean) {
  if (o.actor === undefined) fail(`${path}.actor`, 'is required');
  agent(o.actor, `${path}.actor`);
  if (o.verb === undefined) fail(`${path}.verb`, 'is required');
  verb(o.verb, `${path}.verb`);
  if (o.object === undefined) fail(`${path}.object`, 'is required');
  object(o.object, `${path}.object`, version, inSub);
  if (o.result !== undefined) result(o.result, `${path}.result`);
  const obj = o.object as Obj;
  if (o.context !== undefined) context(o.context, `${path}.context`, obj.objectType === undefined || obj.objectType === 'Activity', version);
  if (o.timestamp !== undefined) timestamp(o.timestamp, `${path}.timestamp`);
  if (o.attachments !== undefined) attachmentsOf(o.attachments, `${path}.attachments`);
  if ((o.verb as Obj).id === 'http://adlnet.gov/expapi/verbs/voided' && !inSub) {
    if (obj.objectType !== 'StatementRef') fail(`${path}.object`, 'a voiding statement must have a StatementRef object');
  }
}

/** Validate one statement as posted. */
export function validateStatement(v: unknown, version: XapiVersion) {
  if (!isObj(v)) fail('statement', 'must be an object');
  const o = v as Obj;
  allowed(o, 'statement', ['id', 'actor', 'verb', 'object', 'result', 'context', 'timestamp', 'stored', 'authority', 'version', 'attachments', 'objectType']);
  if (o.objectType !== undefined) fail('statement.objectType', 'unexpected member');
  if (o.id !== undefined) uuid(o.id, 'statement.id');
  if (o.stored !== undefined) timestamp(o.stored, 'statement.stored');
  if (o.authority !== undefined) {
    agent(o.authority, 'statement.authority');
    // a Group authority is the OAuth pair: an anonymous group of exactly two agents
    const a = o.authority as Obj;
    if (a.objectType === 'Group' && (ifi(a, 'statement.authority') !== 0 || !Array.isArray(a.member) || a.member.length !== 2)) {
      fail('statement.authority', 'a Group authority must be an anonymous group of two agents');
    }
  }
  if (o.version !== undefined) {
    if (typeof o.version !== 'string' || !(/^1\.0(\.\d+)?$/.test(o.version) || /^2\.0(\.\d+)?$/.test(o.version))) fail('statement.version', 'must be a 1.0.x or 2.0.x version');
  }
  body(o, 'statement', version, false);
}

/** Every key an agent (or identified group) is matched by: `mbox::mailto:a@b`, `account::home|name`. */
export function agentKey(a: unknown): string | null {
  if (!isObj(a)) return null;
  if (typeof a.mbox === 'string') return `mbox::${a.mbox.toLowerCase()}`;
  if (typeof a.mbox_sha1sum === 'string') return `sha1::${a.mbox_sha1sum.toLowerCase()}`;
  if (typeof a.openid === 'string') return `openid::${a.openid}`;
  if (isObj(a.account)) return `account::${String(a.account.homePage)}|${String(a.account.name)}`;
  return null;
}

/** Parse and validate an `agent` query parameter (a JSON agent); null when it is none. */
export function agentParam(v: unknown, name: string): Obj {
  if (typeof v !== 'string') throw new XapiInvalid(`${name} is required`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new XapiInvalid(`${name} is not JSON`);
  }
  agent(parsed, name);
  return parsed as Obj;
}

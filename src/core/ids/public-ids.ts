import { encodeId } from './ids';
import { externalIdOf } from './external-id';

/** A row's public id and the external id derived from its uuid (used when none is stored). */
export interface PublicIds {
  id: string;
  derivedExternalId: string;
}

type Kind = 'course' | 'lesson' | 'publishedCourse' | 'domain';

const memo: Record<Kind, Map<string, PublicIds>> = { course: new Map(), lesson: new Map(), publishedCourse: new Map(), domain: new Map() };
/** Per kind; about 200 bytes an entry. Cleared when full (a page re-fills what it needs). */
const MEMO_LIMIT = 20_000;

/**
 * The public id (encodeId: a BigInt in base 36) and the derived external id (externalIdOf: a
 * SHA-1 UUID5) of a course, lesson, published course or domain, computed once per uuid: both are pure functions of it, and
 * were most of a /v2 course, lesson or published-course presenter's CPU time per row. The same strings as
 * encodeId(kind, uuid) and externalIdOf(kind, uuid, null).
 */
export function publicIdsOf(kind: Kind, uuid: string): PublicIds {
  const forKind = memo[kind];
  let ids = forKind.get(uuid);
  if (ids === undefined) {
    ids = { id: encodeId(kind, uuid), derivedExternalId: externalIdOf(kind, uuid, null) };
    if (forKind.size >= MEMO_LIMIT) forKind.clear();
    forKind.set(uuid, ids);
  }
  return ids;
}

/** `baseUrl` without its trailing slash (the last one asked, remembered: a page asks with one base per row). */
let lastBase: string | undefined;
let lastTrimmed = '';
export function trimBase(baseUrl: string): string {
  if (baseUrl !== lastBase) {
    lastTrimmed = baseUrl.replace(/\/$/, '');
    lastBase = baseUrl;
  }
  return lastTrimmed;
}

/** `"<base>/v2/<collection>/` as JSON text (its closing quote left out), per collection for the last base asked (a page asks with one). */
const linkPrefixes = new Map<string, { base: string; prefix: string }>();
export function selfLinkJsonPrefix(baseUrl: string, collection: string): string {
  let hit = linkPrefixes.get(collection);
  if (hit === undefined || hit.base !== baseUrl) {
    hit = { base: baseUrl, prefix: JSON.stringify(`${trimBase(baseUrl)}/v2/${collection}/`).slice(0, -1) };
    linkPrefixes.set(collection, hit);
  }
  return hit.prefix;
}

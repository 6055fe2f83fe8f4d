import { XMLParser } from 'fast-xml-parser';
import type { WebPackageType } from './entities';
import { PackageRejected } from './zip-inspect';

export const MANIFEST_NAMES = ['imsmanifest.xml', 'cmi5.xml', 'tincan.xml'] as const;
export const MANIFEST_MAX_BYTES = 5 * 1024 * 1024;

export interface PackageInfo {
  type: WebPackageType;
  /** "1.2", "2004 4th Edition", "2004" for SCORM; null for xAPI and cmi5 */
  version: string | null;
  title: string | null;
  /**
   * launch file relative to the manifest's folder, when declared: `xml:base` of the manifest,
   * resources and resource applied, `.` and `..` segments resolved, percent-escapes decoded (so it
   * names the zip entry); an absolute URL is kept as it is
   */
  launch: string | null;
  /** the query the content is launched with (the href's own query, then the item's `parameters`), without `?`; null when none */
  parameters?: string | null;
  /** what launching needs beyond the file: a cmi5 AU's id, moveOn, masteryScore, launchMethod; an xAPI activity id */
  launchData?: LaunchData | null;
}

export interface LaunchData {
  /** cmi5 AU id (its activity id) or the TinCan launchable activity's id */
  activityId?: string | null;
  moveOn?: string | null;
  masteryScore?: number | null;
  launchMethod?: string | null;
  /** the SCORM item's identifier */
  item?: string | null;
  /** the cmi5 course's id (the activity `satisfied` is issued for) */
  courseId?: string | null;
  /**
   * every launchable item of the package, in the manifest's order (SCORM: the items of the default
   * organization that name a resource with a file; cmi5: every AU, blocks included); the first is
   * the one the members above describe. Absent on packages imported before multi-item launches.
   */
  items?: LaunchItem[];
}

/** One launchable SCORM item (SCO or asset) or cmi5 AU. */
export interface LaunchItem {
  /** the SCORM item's identifier, or the cmi5 AU's id */
  id: string;
  title: string | null;
  /** launch file relative to the manifest's folder (normalised as PackageInfo.launch); an absolute URL kept as it is */
  launch: string;
  parameters: string | null;
  /** SCORM only: `sco` (talks to the API) or `asset` (never does: no part of the rollup) */
  scormType?: string;
  /** cmi5 only */
  moveOn?: string;
  masteryScore?: number | null;
  launchMethod?: string;
}

/** At most this many items of a package are kept. */
export const MAX_ITEMS = 500;

/**
 * Pick the manifest: the shallowest imsmanifest.xml / cmi5.xml / tincan.xml (many packages are
 * zipped with one top folder); at the same depth in that order of preference.
 */
export function pickManifest<T extends { name: string }>(files: T[]): T | null {
  let best: { f: T; depth: number; rank: number } | null = null;
  for (const f of files) {
    const parts = f.name.split('/');
    const rank = (MANIFEST_NAMES as readonly string[]).indexOf(parts[parts.length - 1].toLowerCase());
    if (rank < 0) continue;
    const depth = parts.length - 1;
    if (!best || depth < best.depth || (depth === best.depth && rank < best.rank)) best = { f, depth, rank };
  }
  return best?.f ?? null;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  // no entity expansion at all (billion laughs); the five XML entities are decoded by hand below
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ['organization', 'item', 'resource', 'activity', 'au', 'langstring'].includes(name),
});

function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]{1,6});/gi, (_, h) => safeChar(parseInt(h, 16)))
    .replace(/&#(\d{1,7});/g, (_, d) => safeChar(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
function safeChar(code: number): string {
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

/** The text of an element that may be a string, {#text}, a langstring list or a list of those. */
function text(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return clean(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    for (const x of v) {
      const t = text(x);
      if (t) return t;
    }
    return null;
  }
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o['#text'] !== undefined) return text(o['#text']);
    if (o.langstring !== undefined) return text(o.langstring);
    if (o.string !== undefined) return text(o.string);
  }
  return null;
}
function clean(s: string): string | null {
  const t = decodeEntities(s).replace(/\s+/g, ' ').trim().slice(0, 500);
  return t || null;
}
const list = (v: unknown): any[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

function parse(xml: string, file: string): any {
  if (/<!ENTITY/i.test(xml)) throw new PackageRejected(`${file} declares XML entities, which are not accepted.`);
  try {
    return parser.parse(xml, true);
  } catch (err) {
    throw new PackageRejected(`${file} is not well-formed XML: ${(err as Error).message.split('\n')[0]}.`);
  }
}

/** Read the kind, version, title and launch file of a package from its manifest. */
export function inspectManifest(fileName: string, data: Buffer): PackageInfo {
  const base = fileName.split('/').pop()!.toLowerCase();
  const xml = data.toString('utf8').replace(/^\uFEFF/, '');
  const doc = parse(xml, base);
  if (base === 'imsmanifest.xml') return scorm(doc, xml);
  if (base === 'cmi5.xml') {
    const course = doc.courseStructure?.course;
    if (!doc.courseStructure) throw new PackageRejected('cmi5.xml has no courseStructure element.');
    const aus = cmi5Aus(doc.courseStructure);
    const au = aus[0];
    const url = text(au?.url);
    const split = url ? resolveLaunch([], url) : null;
    const mastery = masteryOf(au);
    const items: LaunchItem[] = [];
    for (const a of aus) {
      const u = text(a?.url);
      const sp = u ? resolveLaunch([], u) : null;
      if (!sp || !a?.['@_id'] || items.length >= MAX_ITEMS) continue;
      items.push({
        id: String(a['@_id']),
        title: text(a.title),
        launch: sp.path,
        parameters: sp.query,
        moveOn: a['@_moveOn'] ? String(a['@_moveOn']) : 'NotApplicable',
        masteryScore: masteryOf(a),
        launchMethod: a['@_launchMethod'] ? String(a['@_launchMethod']) : 'AnyWindow',
      });
    }
    return {
      type: 'CMI5',
      version: null,
      title: text(course?.title),
      launch: split?.path ?? null,
      parameters: split?.query ?? null,
      launchData: {
        activityId: au?.['@_id'] ? String(au['@_id']) : null,
        moveOn: au?.['@_moveOn'] ? String(au['@_moveOn']) : 'NotApplicable',
        masteryScore: mastery,
        launchMethod: au?.['@_launchMethod'] ? String(au['@_launchMethod']) : 'AnyWindow',
        courseId: course?.['@_id'] ? String(course['@_id']) : null,
        items,
      },
    };
  }
  const activities = list(doc.tincan?.activities?.activity);
  if (!doc.tincan) throw new PackageRejected('tincan.xml has no tincan element.');
  const course = activities.find((a: any) => String(a?.['@_type'] ?? '').endsWith('/course')) ?? activities[0];
  const launchable = activities.find((a: any) => a?.launch !== undefined);
  const url = text(launchable?.launch);
  const split = url ? resolveLaunch([], url) : null;
  return {
    type: 'XAPI',
    version: null,
    title: text(course?.name),
    launch: split?.path ?? null,
    parameters: split?.query ?? null,
    launchData: { activityId: launchable?.['@_id'] ? String(launchable['@_id']) : course?.['@_id'] ? String(course['@_id']) : null },
  };
}

/** The AUs of a cmi5 course structure in document order: the AUs and blocks of each level as they appear (blocks nest). */
function cmi5Aus(level: any): any[] {
  const out: any[] = [];
  // fast-xml-parser groups elements by name, so the order of `au` and `block` siblings is lost:
  // AUs of a level come before its blocks' (cmi5 orders AUs; a block's AUs are launched as its own)
  for (const au of list(level?.au)) out.push(au);
  for (const b of list(level?.block)) out.push(...cmi5Aus(b));
  return out;
}

function masteryOf(au: any): number | null {
  const m = au?.['@_masteryScore'] !== undefined ? Number(au['@_masteryScore']) : null;
  return m !== null && Number.isFinite(m) && m >= 0 && m <= 1 ? m : null;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

function decodePath(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/**
 * Resolve a launch reference against the `xml:base` values above it (outermost first), as a URL
 * reference is resolved against a base: each relative base is joined to the one above it, an
 * absolute one (a URL, or a path starting with `/`) restarts. Answers the normalised file path
 * (segments `.` dropped, `..` resolved, never above the package folder, percent-escapes decoded)
 * and the href's query (without `?`); a reference that is an absolute URL stays as it is.
 */
export function resolveLaunch(bases: (string | null | undefined)[], href: string): { path: string; query: string | null } | null {
  let ref = decodeEntities(href.trim());
  if (!ref) return null;
  const hash = ref.indexOf('#');
  if (hash >= 0) ref = ref.slice(0, hash);
  const q = ref.indexOf('?');
  const query = q >= 0 ? ref.slice(q + 1) || null : null;
  let path = q >= 0 ? ref.slice(0, q) : ref;
  if (ABSOLUTE.test(path)) return { path: q >= 0 ? `${path}?${query ?? ''}` : path, query: null };
  let joined = path;
  for (let i = bases.length - 1; i >= 0; i--) {
    if (joined.startsWith('/') || ABSOLUTE.test(joined)) break;
    const b = (bases[i] ?? '').trim();
    if (!b) continue;
    joined = (b.endsWith('/') ? b : `${b}/`) + joined;
  }
  if (ABSOLUTE.test(joined)) return { path: query ? `${joined}?${query}` : joined, query: null };
  const out: string[] = [];
  for (const seg of joined.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      out.pop();
      continue;
    }
    out.push(decodePath(seg));
  }
  path = out.join('/');
  return path ? { path, query } : null;
}

/** The query a SCORM item's `parameters` add to the href's own one (IMS CP: a leading `?` or `&` dropped, joined with `&`). */
export function joinParameters(own: string | null, parameters: string | null): string | null {
  const p = parameters
    ? parameters
        .trim()
        .replace(/^[?&]+/, '')
        .replace(/^#.*$/, '')
    : '';
  if (!p) return own;
  return own ? `${own}&${p}` : p;
}

function scorm(doc: any, xml: string): PackageInfo {
  const manifest = doc.manifest;
  if (!manifest) throw new PackageRejected('imsmanifest.xml has no manifest element.');
  const schemaVersion = text(manifest.metadata?.schemaversion);
  let version: string | null = null;
  if (schemaVersion && /^1\.2$/.test(schemaVersion)) version = '1.2';
  else if (schemaVersion && /2004/.test(schemaVersion)) version = schemaVersion.replace(/^.*?(2004.*)$/, '$1');
  else if (schemaVersion && /CAM 1\.3/i.test(schemaVersion)) version = '2004';
  else if (/adlcp_rootv1p2|imscp_rootv1p1p2/.test(xml)) version = '1.2';
  else if (/adlcp_v1p3|imsss|adlseq_v1p3|adlnav_v1p3|imscp_v1p1/.test(xml)) version = '2004';
  if (!version) throw new PackageRejected('imsmanifest.xml is neither a SCORM 1.2 nor a SCORM 2004 manifest.');

  const orgs = list(manifest.organizations?.organization);
  const wanted = manifest.organizations?.['@_default'];
  const org = orgs.find((o: any) => o?.['@_identifier'] === wanted) ?? orgs[0];
  const firstItem = (items: any[]): any => {
    for (const it of items) {
      if (it?.['@_identifierref']) return it;
      const inner = firstItem(list(it?.item));
      if (inner) return inner;
    }
    return null;
  };
  const item = firstItem(list(org?.item));
  const title = text(org?.title) ?? text(list(org?.item)[0]?.title) ?? text(manifest.metadata?.lom?.general?.title);
  const resources = list(manifest.resources?.resource);
  const res = resources.find((r: any) => item && r?.['@_identifier'] === item['@_identifierref']) ?? resources.find((r: any) => r?.['@_href']);
  const base = (v: any) => (typeof v?.['@_base'] === 'string' ? decodeEntities(v['@_base']) : null);
  const href = res?.['@_href'] ? String(res['@_href']) : null;
  const split = href ? resolveLaunch([base(manifest), base(manifest.resources), base(res)], href) : null;
  const usedItem = item && res && res['@_identifier'] === item['@_identifierref'] ? item : null;
  const parameters = usedItem?.['@_parameters'] !== undefined ? decodeEntities(String(usedItem['@_parameters'])) : null;
  // every item of the organization that names a resource with a file, in document order
  const items: LaunchItem[] = [];
  const walk = (its: any[]) => {
    for (const it of its) {
      if (items.length >= MAX_ITEMS) return;
      const ref = it?.['@_identifierref'];
      const r = ref ? resources.find((x: any) => x?.['@_identifier'] === ref && x?.['@_href']) : null;
      const id = it?.['@_identifier'] ? String(it['@_identifier']) : null;
      if (r && id && !items.some((x) => x.id === id)) {
        const sp = resolveLaunch([base(manifest), base(manifest.resources), base(r)], String(r['@_href']));
        const params = it['@_parameters'] !== undefined ? decodeEntities(String(it['@_parameters'])) : null;
        const kind = String(r['@_scormtype'] ?? r['@_scormType'] ?? 'sco').toLowerCase() === 'asset' ? 'asset' : 'sco';
        if (sp) items.push({ id, title: text(it.title), launch: sp.path, parameters: joinParameters(sp.query, params), scormType: kind });
      }
      walk(list(it?.item));
    }
  };
  walk(list(org?.item));
  return {
    type: 'SCORM',
    version,
    title,
    launch: split?.path ?? null,
    parameters: split ? joinParameters(split.query, parameters) : null,
    launchData: { item: usedItem?.['@_identifier'] ? String(usedItem['@_identifier']) : null, items },
  };
}

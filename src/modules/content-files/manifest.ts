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
   * SCORM 2004 4th edition: the organization's `adlcp:sharedDataGlobalToSystem` (default true),
   * kept when an item declares shared data (`LaunchItem.data`): true, a learner's shared data
   * buckets are shared by every package of the organization naming the same targetID; false, only
   * within the learner's run of this package (docs/decisions/content-runs.md "Shared data").
   */
  sharedDataGlobalToSystem?: boolean;
  /**
   * every item of the package, in the manifest's order (SCORM: the items of the default
   * organization that name a resource with a file; cmi5: every AU and every block, in course
   * structure order, each naming the block that holds it); the members above describe the first
   * launchable one. Absent on packages imported before multi-item launches.
   */
  items?: LaunchItem[];
}

/** One launchable SCORM item (SCO or asset) or cmi5 AU, or a cmi5 block (never launched). */
export interface LaunchItem {
  /** the SCORM item's identifier, the cmi5 AU's or block's id */
  id: string;
  title: string | null;
  /** cmi5 only: `block` for a block of the course structure (no launch file: launch is ''); absent for an AU */
  kind?: 'block';
  /** cmi5 only: the id of the block that holds this AU or block; absent at the course level */
  block?: string;
  /** launch file relative to the manifest's folder (normalised as PackageInfo.launch); an absolute URL kept as it is; '' for a block */
  launch: string;
  parameters: string | null;
  /** SCORM only: `sco` (talks to the API) or `asset` (never does: no part of the rollup) */
  scormType?: string;
  /** SCORM 2004 4th edition: the item's shared data buckets (`adlcp:data`/`adlcp:map`), in manifest order; absent when none */
  data?: SharedDataMap[];
  /** cmi5 only */
  moveOn?: string;
  masteryScore?: number | null;
  launchMethod?: string;
}

/** One `adlcp:map` of an item: the shared data bucket `targetID`, and what the SCO may do with it (CAM defaults: read true, write false). */
export interface SharedDataMap {
  targetId: string;
  read: boolean;
  write: boolean;
}

/** At most this many items of a package are kept. */
export const MAX_ITEMS = 500;
/** At most this many shared data maps of an item are kept; a targetID longer than the RTE's long identifier (4,000 characters) is not. */
export const MAX_DATA_MAPS = 100;
const MAX_TARGET_ID = 4000;

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

/** The same reading with the document order of siblings kept (cmi5 course structures mix `au` and `block`). */
const orderedParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  preserveOrder: true,
});

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
    const nodes = cmi5Structure(orderedParser.parse(xml, true));
    const items: LaunchItem[] = [];
    const blocks = new Set<string>();
    for (const n of nodes) {
      if (items.length >= MAX_ITEMS) break;
      // an AU or block whose block was not kept (no id, or past the limit) is not kept either
      if (!n.id || (n.block && !blocks.has(n.block))) continue;
      const inBlock = n.block ? { block: n.block } : {};
      if (n.kind === 'block') {
        blocks.add(n.id);
        items.push({ id: n.id, title: n.title, kind: 'block', ...inBlock, launch: '', parameters: null });
        continue;
      }
      const sp = n.url ? resolveLaunch([], n.url) : null;
      if (!sp) continue;
      items.push({
        id: n.id,
        title: n.title,
        ...inBlock,
        launch: sp.path,
        parameters: sp.query,
        moveOn: n.attrs['@_moveOn'] ? String(n.attrs['@_moveOn']) : 'NotApplicable',
        masteryScore: masteryOf(n.attrs),
        launchMethod: n.attrs['@_launchMethod'] ? String(n.attrs['@_launchMethod']) : 'AnyWindow',
      });
    }
    // the members of launch_data describe the first AU of the course structure
    const first = nodes.find((n) => n.kind === 'au');
    const au = first?.attrs;
    const split = first?.url ? resolveLaunch([], first.url) : null;
    return {
      type: 'CMI5',
      version: null,
      title: text(course?.title),
      launch: split?.path ?? null,
      parameters: split?.query ?? null,
      launchData: {
        activityId: au?.['@_id'] ? String(au['@_id']) : null,
        moveOn: au?.['@_moveOn'] ? String(au['@_moveOn']) : 'NotApplicable',
        masteryScore: masteryOf(au),
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

interface Cmi5Node {
  kind: 'au' | 'block';
  id: string | null;
  title: string | null;
  url: string | null;
  /** the AU's or block's attributes (`@_id`, `@_moveOn`, ...) */
  attrs: Record<string, unknown>;
  /** the id of the enclosing block, null at the course level */
  block: string | null;
}

/** A node of the order-keeping parse: `{tag: children, ':@': attributes}` or `{'#text': value}`. */
type Ordered = Record<string, any>;
const tagOf = (n: Ordered): string | undefined => Object.keys(n).find((k) => k !== ':@');
const childrenOf = (n: Ordered | undefined): Ordered[] => {
  const tag = n ? tagOf(n) : undefined;
  return tag && Array.isArray(n![tag]) ? (n![tag] as Ordered[]) : [];
};
/** The first text inside nodes (a `<url>`'s value, a title's first langstring). */
function orderedText(nodes: Ordered[]): string | null {
  for (const n of nodes) {
    if (n['#text'] !== undefined) {
      const t = clean(String(n['#text']));
      if (t) return t;
      continue;
    }
    const t = orderedText(childrenOf(n));
    if (t) return t;
  }
  return null;
}

/**
 * The AUs and blocks of a cmi5 course structure in document order (cmi5 orders AUs by the course
 * structure), blocks nested: a block comes before the AUs and blocks it holds, each of which names it.
 */
function cmi5Structure(ordered: Ordered[]): Cmi5Node[] {
  const root = ordered.find((n) => tagOf(n) === 'courseStructure');
  const out: Cmi5Node[] = [];
  const walk = (nodes: Ordered[], block: string | null, depth: number) => {
    if (depth > 20) return;
    for (const n of nodes) {
      const tag = tagOf(n);
      if (tag !== 'au' && tag !== 'block') continue;
      const attrs = (n[':@'] ?? {}) as Record<string, unknown>;
      const kids = childrenOf(n);
      const id = attrs['@_id'] !== undefined ? String(attrs['@_id']) : null;
      const url = tag === 'au' ? orderedText(kids.filter((k) => tagOf(k) === 'url')) : null;
      out.push({ kind: tag, id, title: orderedText(kids.filter((k) => tagOf(k) === 'title')), url, attrs, block });
      if (tag === 'block') walk(kids, id, depth + 1);
    }
  };
  walk(childrenOf(root), null, 0);
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

/** An XML schema boolean attribute (`true`/`false`/`1`/`0`), else the default. */
function xsBoolean(v: unknown, dflt: boolean): boolean {
  const t = typeof v === 'string' ? v.trim() : '';
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  return dflt;
}

/** An item's `adlcp:data` maps (each targetID once, the first kept; no targetID: not kept). */
function dataMaps(item: any): SharedDataMap[] {
  const out: SharedDataMap[] = [];
  for (const d of list(item?.data)) {
    for (const m of list(d?.map)) {
      if (out.length >= MAX_DATA_MAPS) return out;
      const raw = m?.['@_targetID'];
      const targetId = typeof raw === 'string' ? decodeEntities(raw).trim() : '';
      if (!targetId || targetId.length > MAX_TARGET_ID || out.some((x) => x.targetId === targetId)) continue;
      out.push({ targetId, read: xsBoolean(m['@_readSharedData'], true), write: xsBoolean(m['@_writeSharedData'], false) });
    }
  }
  return out;
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
        const data = version !== '1.2' ? dataMaps(it) : [];
        if (sp) items.push({ id, title: text(it.title), launch: sp.path, parameters: joinParameters(sp.query, params), scormType: kind, ...(data.length ? { data } : {}) });
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
    launchData: {
      item: usedItem?.['@_identifier'] ? String(usedItem['@_identifier']) : null,
      items,
      ...(items.some((i) => i.data) ? { sharedDataGlobalToSystem: xsBoolean(org?.['@_sharedDataGlobalToSystem'], true) } : {}),
    },
  };
}

import { randomUUID } from 'node:crypto';

/**
 * Public ids are opaque: a type prefix and the base64url form of a random UUID (v4), e.g.
 * `stu_9aE3...`. They are not sequential, not guessable from a neighbour, and a student's id never
 * decodes as a course's because the prefix is checked. The database keeps the UUID.
 */
export const ID_PREFIXES = {
  organization: 'org',
  client: 'cli',
  admin: 'adm',
  domain: 'dom',
  student: 'stu',
  course: 'crs',
  lesson: 'les',
  publishedCourse: 'pcs',
  enrollment: 'enr',
  certificate: 'cert',
  rating: 'rat',
  group: 'grp',
  groupCategory: 'gcat',
  webhook: 'whk',
  delivery: 'dlv',
  event: 'evt',
  asset: 'ast',
  webPackage: 'wpk',
  label: 'lbl',
  tag: 'tag',
  contentItem: 'cit',
  path: 'pth',
  publishedPath: 'ppth',
  pathItem: 'pit',
  accessCodePool: 'acp',
  accessCode: 'acc',
  courseSeries: 'csr',
  plan: 'pln',
  signupField: 'sfd',
  offer: 'ofr',
  planEnrollment: 'plne',
  publishedPathEnrollment: 'ppen',
  domainUserInvite: 'dui',
  quiz: 'quiz',
} as const;
export type IdType = keyof typeof ID_PREFIXES;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function newUuid(): string {
  return randomUUID();
}

export function encodeId(type: IdType, uuid: string): string {
  return `${ID_PREFIXES[type]}_${Buffer.from(uuid.replace(/-/g, ''), 'hex').toString('base64url')}`;
}

/** The UUID behind a public id of the given type, or null when it is not one. Never throws. */
export function decodeId(type: IdType, id: unknown): string | null {
  if (typeof id !== 'string' || id.length > 64) return null;
  const prefix = `${ID_PREFIXES[type]}_`;
  if (!id.startsWith(prefix)) return null;
  const body = id.slice(prefix.length);
  if (!/^[A-Za-z0-9_-]{22}$/.test(body)) return null;
  const hex = Buffer.from(body, 'base64url').toString('hex');
  if (hex.length !== 32) return null;
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  // base64url of 16 bytes has 2 spare bits in the last character: reject non-canonical forms.
  if (Buffer.from(hex, 'hex').toString('base64url') !== body || !UUID_RE.test(uuid)) return null;
  return uuid;
}

/** Decode many ids at once; undecodable ones are left out. */
export function decodeIds(type: IdType, ids: unknown[]): string[] {
  const out: string[] = [];
  for (const id of ids) {
    const uuid = decodeId(type, id);
    if (uuid) out.push(uuid);
  }
  return out;
}

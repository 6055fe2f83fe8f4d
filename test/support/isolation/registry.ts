import { randomBytes } from 'node:crypto';
import { decodeId, encodeId, ID_PREFIXES, IdType, newUuid } from '../../../src/core/ids/ids';
import type { CreatedOrg } from '../../../src/modules/organizations/organizations.service';
import type { HttpResponse, TestApp } from '../app';

/**
 * The registry of the cross-organization isolation sweep (test/platform/isolation.e2e-spec.ts). Each module
 * registers a seeder that creates one object of each kind it owns in an organization, through the
 * API (or its services), and returns their ids keyed by the path parameter names of the served
 * OpenAPI document. The sweep fills every path template from these values; a path parameter no
 * seeder fills makes the sweep fail, so a new module must register one.
 *
 * Keys: `param` (e.g. `course_id`), or `segment.param` for a generic name, where segment is the
 * path segment before the parameter (`/v2/students/{id}` -> `students.id`). The qualified key wins.
 */

/** A seeded value that is a name, not an opaque id (e.g. `domain_name`): the random value is a random name. */
export interface NamedValue {
  value: string;
  random: () => string;
}
export type SeedValue = string | NamedValue;

export interface SeedWorld {
  t: TestApp;
  org: CreatedOrg;
  token: string;
  /** the values seeded so far in this organization (earlier seeders' results) */
  ids: Record<string, string>;
  /** a /v1 call with the org's API key; throws unless 2xx; returns the body */
  v1(method: string, path: string, body?: unknown): Promise<any>;
  /** a /v2 call with the org's token; throws unless 2xx; returns the body */
  v2(method: string, path: string, body?: unknown): Promise<any>;
}

export type Seeder = (world: SeedWorld) => Promise<Record<string, SeedValue>>;

const seeders: { module: string; seed: Seeder }[] = [];
const unscopedParams = new Map<string, string>();

/** Register a module's seeder; seeders run in registration order and see earlier results in `world.ids`. */
export function registerSeeder(module: string, seed: Seeder): void {
  if (seeders.some((s) => s.module === module)) throw new Error(`seeder ${module} registered twice`);
  seeders.push({ module, seed });
}

/** A path parameter that is not an organization's object (a global file path...): the sweep skips its operations, saying why. */
export function registerUnscopedParam(key: string, reason: string): void {
  unscopedParams.set(key, reason);
}

/**
 * A write body for one operation that passes its validation, so the sweep's call gets as far as the
 * path ids (the served schema's required members are not always enough for /v1). `own` holds the
 * caller's own seeded ids: the body links the caller's objects, the path names the other org's.
 */
export type BodyFor = (own: Record<string, string>) => unknown;
const bodies = new Map<string, BodyFor>();
export function registerBody(method: string, pathTemplate: string, body: BodyFor): void {
  bodies.set(`${method.toUpperCase()} ${pathTemplate}`, body);
}
export const bodyFor = (method: string, pathTemplate: string) => bodies.get(`${method} ${pathTemplate}`);

/**
 * A seeded key that fills `param` on the paths `pattern` matches, before the usual keys (for a
 * parameter whose seeded object differs by path: a builder catalog page's operations need a builder
 * page, the classic ones a classic page).
 */
const paramKeys: { pattern: RegExp; param: string; key: string }[] = [];
export function registerParamKey(pattern: RegExp, param: string, key: string): void {
  paramKeys.push({ pattern, param, key });
}
export const overrideKeys = (path: string, param: string): string[] => paramKeys.filter((k) => k.param === param && k.pattern.test(path)).map((k) => k.key);

export const registeredSeeders = () => [...seeders];
export const unscoped = () => new Map(unscopedParams);

export function named(value: string, random: () => string): NamedValue {
  return { value, random };
}

export const randomName = (prefix = 'iso') => `${prefix}-${randomBytes(6).toString('hex')}`;

/** The id type of a public id (the longest prefix under which it decodes). */
export function idTypeOf(id: string): IdType | null {
  let best: IdType | null = null;
  for (const type of Object.keys(ID_PREFIXES) as IdType[]) {
    if (decodeId(type, id) && (!best || ID_PREFIXES[type].length > ID_PREFIXES[best].length)) best = type;
  }
  return best;
}

/** A random well-formed value of the same kind as `v`: a fresh id of the same type, or a random name. */
export function randomLike(v: SeedValue): string {
  if (typeof v !== 'string') return v.random();
  const type = idTypeOf(v);
  if (!type) throw new Error(`seeded value ${v} is not a public id: register it with named(value, random)`);
  return encodeId(type, newUuid());
}

export const valueOf = (v: SeedValue): string => (typeof v === 'string' ? v : v.value);

/** Seed one organization with every registered seeder. */
export async function seedOrg(t: TestApp, org: CreatedOrg, token: string): Promise<Record<string, SeedValue>> {
  const out: Record<string, SeedValue> = {};
  const ids: Record<string, string> = {};
  const call = (auth: { basic?: string; token?: string }) => async (method: string, path: string, body?: unknown) => {
    const res: HttpResponse = await t.request(method, path, { ...auth, body });
    if (res.status < 200 || res.status >= 300) throw new Error(`seeding: ${method} ${path} -> ${res.status} ${res.text.slice(0, 300)}`);
    return res.body;
  };
  const world: SeedWorld = { t, org, token, ids, v1: call({ basic: org.api_key }), v2: call({ token }) };
  for (const s of seeders) {
    const values = await s.seed(world);
    for (const [k, v] of Object.entries(values)) {
      if (k in out) throw new Error(`seeder ${s.module}: ${k} already seeded`);
      out[k] = v;
      ids[k] = valueOf(v);
    }
  }
  return out;
}

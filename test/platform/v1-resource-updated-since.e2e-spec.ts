import { Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { V1_RESOURCE_LIST } from '../../src/core/routes/v1-resource';
import { startTestApp, TestApp } from '../support/app';

/**
 * Every /v1 list made by @V1Resource takes `updated_since` by construction (docs/decisions/data-out.md,
 * "updated_since on the @V1Resource lists"): found by the route metadata, each list declares the
 * parameter once in the OpenAPI document, answers a bad value with 400 `{"updated_since": [...]}`, and
 * applies a good one (a list whose service does not apply it answers 400 rather than ignore it: those
 * are named in PENDING, lists of modules whose pass is still to come).
 */
jest.setTimeout(120_000);

/** Lists whose services do not apply `updated_since` yet (other modules' passes; docs/decisions/data-out.md). */
const PENDING = new Set<string>([]);

const join = (...parts: string[]) =>
  `/${parts
    .map((x) => x.replace(/^\/+|\/+$/g, ''))
    .filter((x) => x)
    .join('/')}`;

/** The @V1Resource list handlers of the application: `Controller.handler` and the route path (`:param` form). */
function v1ResourceLists(t: TestApp): { name: string; path: string }[] {
  const out = new Map<string, { name: string; path: string }>();
  for (const mod of t.app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const cls = wrapper.metatype as Type | null;
      if (!cls) continue;
      for (const name of Object.getOwnPropertyNames(cls.prototype)) {
        const handler = (cls.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || !Reflect.getMetadata(V1_RESOURCE_LIST, handler)) continue;
        const base = [Reflect.getMetadata(PATH_METADATA, cls)].flat()[0] as string;
        const path = join(base, Reflect.getMetadata(PATH_METADATA, handler) as string);
        out.set(`${cls.name}.${name}`, { name: `${cls.name}.${name}`, path });
      }
    }
  }
  return [...out.values()];
}

describe('@V1Resource lists: updated_since on every one', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('each list declares updated_since once, answers 400 {"updated_since"} on a bad value and applies a good one', async () => {
    const lists = v1ResourceLists(t);
    expect(lists.length).toBeGreaterThan(20);
    const doc = (await t.get('/openapi.json')).body;
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const notApplied: string[] = [];
    for (const { name, path } of lists) {
      const op = doc.paths[path.replace(/:(\w+)/g, '{$1}')]?.get;
      expect({ name, declared: (op?.parameters ?? []).filter((x: any) => x.name === 'updated_since' && x.in === 'query').length }).toEqual({ name, declared: 1 });
      // parent ids that name nothing: the answer is then the parent's 404, after the parameter was read
      const url = path.replace(/:(\w+)/g, 'nothing');
      const bad = await t.get(`${url}?updated_since=yesterday`, key);
      expect({ name, status: bad.status, body: bad.body }).toEqual({ name, status: 400, body: { updated_since: [expect.any(String)] } });
      const good = await t.get(`${url}?updated_since=2000-01-01T00:00:00Z`, key);
      if (good.status === 400 && good.body.updated_since) notApplied.push(name);
      else expect({ name, status: good.status }).toEqual({ name, status: path.includes(':') ? expect.any(Number) : 200 });
      expect(good.status).toBeLessThan(500);
    }
    // a list applies it, or is named pending (and a pending one that applies it leaves the list)
    expect(notApplied.filter((n) => !PENDING.has(n))).toEqual([]);
    expect([...PENDING].filter((n) => !notApplied.includes(n))).toEqual([]);
  });
});

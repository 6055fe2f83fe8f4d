import { DECLARED_V1, DECLARED_V2 } from './declared-shape';
import { published, type JsonSchema } from './published';
import { canonical, declaredComponents, loadDeclaringModules } from './served-components';

/**
 * The published components a declaration covers are served as the declaration
 * (served-components.ts, docs/decisions/openapi.md "Served from the declarations"): each one, its
 * `$ref`s resolved into what the document serves, says exactly what the declaration says
 * (validation keywords; annotations aside). The declaring files are found by their
 * `declaredV1(` / `declaredV2(` call, so a new declaration is checked without being listed here.
 */

describe('the published components served from their declarations', () => {
  const all: Record<string, JsonSchema> = { ...published().v1.schemas, ...published().v2.schemas };
  let served: ReturnType<typeof declaredComponents>;
  const servedOf = (name: string) => served.schemas.get(name) ?? all[name];

  beforeAll(() => {
    loadDeclaringModules();
    served = declaredComponents();
  });

  it('covers every component a declaration names, /v1 and /v2, without a conflict', () => {
    const named = new Set([...DECLARED_V1.flatMap((d) => d.published.map((n) => `v1.${n}`)), ...DECLARED_V2.map((d) => `v2.${d.published}`)].filter((n) => all[n]));
    expect(DECLARED_V2.length).toBeGreaterThan(0);
    expect(served.conflicts).toEqual([]);
    expect([...served.schemas.keys()].sort()).toEqual([...named].sort());
  });

  it('serves each as its declaration: the same validation keywords once its $refs are resolved', () => {
    const differ: string[] = [];
    for (const [name, schema] of served.schemas) {
      // the declaration chosen for the component: of several (a detail and the same with more members), the one the others extend
      const candidates = [...DECLARED_V1.filter((d) => d.published.some((n) => `v1.${n}` === name)), ...DECLARED_V2.filter((d) => `v2.${d.published}` === name)];
      if (!candidates.some((d) => canonical(JSON.parse(JSON.stringify(d.schema)), servedOf) === canonical(schema, servedOf))) differ.push(name);
    }
    expect(differ).toEqual([]);
  });

  it('keeps the published $ref where the declaration says the same (an enum keeps its name), and the extension members marked', () => {
    const course = served.schemas.get('v1.Course')!;
    expect(JSON.stringify(course.properties.course_and_lesson_time_format)).toContain('#/components/schemas/v1.CourseAndLessonTimeFormatEnum');
    expect(course.properties.issues_certificate['x-extension']).toBe(true);
    expect(course.properties.certificate_validity_days).toMatchObject({ type: ['integer', 'null'], 'x-extension': true });
    // the published description and readOnly carried over onto a declared member
    expect(course.properties.id).toMatchObject({ type: 'string', readOnly: true });
    expect(JSON.stringify(course)).not.toContain('"nullable"');
  });

  it('the check tells the published schema from the declaration (it can fail)', () => {
    expect(canonical(all['v1.Course'], servedOf)).not.toBe(canonical(served.schemas.get('v1.Course'), servedOf));
    expect(canonical(all['v2.CourseResource'], servedOf)).not.toBe(canonical(served.schemas.get('v2.CourseResource'), servedOf));
  });

  it('a component two declarations cover serves the one the other extends (the /v1 WebHook, not its rotate-secret answer)', () => {
    expect(DECLARED_V1.filter((d) => d.published.includes('WebHook')).length).toBe(2);
    const webhook = served.schemas.get('v1.WebHook')!;
    expect(Object.keys(webhook.properties)).not.toContain('secret');
  });

  it('is plain, frozen JSON (no TypeBox symbol)', () => {
    for (const schema of served.schemas.values()) {
      expect(Object.isFrozen(schema)).toBe(true);
      expect(Object.getOwnPropertySymbols(schema)).toEqual([]);
    }
  });
});

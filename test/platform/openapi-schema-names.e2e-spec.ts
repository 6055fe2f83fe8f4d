import { Logger } from '@nestjs/common';
import { startTestApp, TestApp } from '../support/app';

/**
 * GET /openapi.json names each request body's component schema after its DTO class. Two body
 * classes of one name collapse into one schema: the document then describes one operation's body
 * with the other's members (the plan and published-path enrollment PATCH showed the course
 * enrollment's rating and feedback, and not their own expires_at and active), and @nestjs/swagger
 * warns "Duplicate DTO detected" at every start.
 */
describe('OpenAPI: one component schema per request body class', () => {
  let t: TestApp;
  const warnings: string[] = [];

  beforeAll(async () => {
    const spy = jest.spyOn(Logger, 'warn').mockImplementation((message: any) => void warnings.push(String(message)));
    try {
      t = await startTestApp();
    } finally {
      spy.mockRestore();
    }
  });
  afterAll(() => t.close());

  it('building the document reports no duplicate DTO', () => {
    expect(warnings.filter((w) => w.includes('Duplicate DTO'))).toEqual([]);
  });

  it('course, plan and published-path enrollment bodies are distinct schemas (the published ones, issue 26)', async () => {
    const doc = (await t.get('/openapi.json')).body;
    const bodySchema = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema;
    const members = (s: any) => Object.keys((s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s).properties ?? {});
    const course = '/v1/domains/{domain_name}/published-courses/{published_course_id}/enrollments';
    const plan = '/v1/domains/{domain_name}/plan/{plan_id}/plan-enrollments';
    const path = '/v1/domains/{domain_name}/published-paths/{published_path_id}/published-path-enrollments';
    for (const [suffix, method] of [
      ['', 'post'],
      ['/{enrollment_id}', 'patch'],
    ] as const) {
      const courseBody = bodySchema(course + suffix, method);
      const planBody = bodySchema(plan + (suffix && '/{plan_enrollment_id}'), method);
      const pathBody = bodySchema(path + (suffix && '/{published_path_enrollment_id}'), method);
      expect(JSON.stringify(planBody)).not.toBe(JSON.stringify(courseBody));
      expect(members(planBody).length).toBeGreaterThan(0);
      expect(members(pathBody).length).toBeGreaterThan(0);
    }
    // the course enrollment update keeps its rating extension (marked); the plan one does not offer it
    const courseUpdate = bodySchema(`${course}/{enrollment_id}`, 'patch');
    expect(members(courseUpdate)).toContain('rating');
    expect((courseUpdate.properties ?? {}).rating?.['x-extension']).toBe(true);
    expect(members(bodySchema(`${plan}/{plan_enrollment_id}`, 'patch'))).not.toContain('rating');
  });
});

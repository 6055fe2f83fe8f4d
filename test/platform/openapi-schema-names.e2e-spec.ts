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

  it('course, plan and published-path enrollment bodies are distinct schemas', async () => {
    const doc = (await t.get('/openapi.json')).body;
    const bodyRef = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema.$ref as string;
    const course = '/v1/domains/{domain_name}/published-courses/{published_course_id}/enrollments';
    const plan = '/v1/domains/{domain_name}/plan/{plan_id}/plan-enrollments';
    const path = '/v1/domains/{domain_name}/published-paths/{published_path_id}/published-path-enrollments';
    for (const [suffix, method] of [['', 'post'], ['/{enrollment_id}', 'patch']] as const) {
      const courseRef = bodyRef(course + suffix, method);
      const planRef = bodyRef(plan + (suffix && '/{plan_enrollment_id}'), method);
      const pathRef = bodyRef(path + (suffix && '/{published_path_enrollment_id}'), method);
      expect(planRef).toBe(pathRef); // one class serves both
      expect(planRef).not.toBe(courseRef);
    }
    // the course enrollment update keeps its rating extension; the plan one does not offer it
    const schema = (ref: string) => doc.components.schemas[ref.split('/').pop()!];
    expect(Object.keys(schema(bodyRef(`${course}/{enrollment_id}`, 'patch')).properties ?? {})).toContain('rating');
    expect(Object.keys(schema(bodyRef(`${plan}/{plan_enrollment_id}`, 'patch')).properties ?? {})).not.toContain('rating');
  });
});

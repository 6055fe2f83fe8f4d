import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { derivedName } from '../../src/modules/mcp/catalog';
import { routeKey } from '../../src/modules/mcp/route-rules';
import { PUBLISHED_V2_OPERATIONS } from '../../src/modules/mcp/v2-operations';

/** The vendored tool table against the reference files (test/reference: copies of ../shared/reference), and the /v1 name rule. */
const REFERENCE = resolve(__dirname, '../reference');

describe('v2-operations.ts matches the published documents', () => {
  const names: string[] = JSON.parse(readFileSync(resolve(REFERENCE, 'official-mcp/tool-names.json'), 'utf8'));
  const doc = JSON.parse(readFileSync(resolve(REFERENCE, 'skilljar-v2-openapi.json'), 'utf8'));
  const ops = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    Object.entries<any>(item)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([m, op]) => ({ method: m.toUpperCase(), path, operationId: op.operationId as string })),
  );

  it('has every published operation once, with its operationId as the tool (none for the token endpoints)', () => {
    expect(ops).toHaveLength(82);
    expect(PUBLISHED_V2_OPERATIONS.map((o) => `${o.method} ${o.path}`).sort()).toEqual(ops.map((o) => `${o.method} ${o.path}`).sort());
    for (const op of ops) {
      const mine = PUBLISHED_V2_OPERATIONS.find((o) => o.method === op.method && o.path === op.path)!;
      expect(mine.tool).toBe(op.path.startsWith('/v2/auth/') ? null : op.operationId);
    }
  });

  it('names all 73 official tools, each marked official', () => {
    expect(names).toHaveLength(73);
    const official = PUBLISHED_V2_OPERATIONS.filter((o) => o.official).map((o) => o.tool);
    expect(official.sort()).toEqual([...names].sort());
  });

  it('maps the README examples to their operations', () => {
    const tool = (method: string, path: string) => PUBLISHED_V2_OPERATIONS.find((o) => routeKey(o.method, o.path) === routeKey(method, path))?.tool;
    expect(tool('GET', '/v2/students/')).toBe('list_students');
    expect(tool('POST', '/v2/students/')).toBe('create_students');
    expect(tool('POST', '/v2/enrollments/')).toBe('bulk_enroll_students');
    expect(tool('PATCH', '/v2/enrollments/completion')).toBe('complete_enrollments');
    expect(tool('POST', '/v2/groups/{id}/relationships/students/')).toBe('add_group_memberships');
    expect(tool('POST', '/v2/published-courses/{id}/publish/')).toBe('republish_published_course');
    expect(tool('POST', '/v2/oauth/register')).toBe('register_oauth_client');
  });
});

describe('v1 tool names', () => {
  it('follow the published /v1 operationIds: literal segments, then the action', () => {
    expect(derivedName('v1', 'GET', '/v1/domains/{domain_name}/users')).toBe('v1_domains_users_list');
    expect(derivedName('v1', 'GET', '/v1/domains/{domain_name}/users/{user_id}')).toBe('v1_domains_users_retrieve');
    expect(derivedName('v1', 'PATCH', '/v1/webhooks/{webhook_id}')).toBe('v1_webhooks_partial_update');
    expect(derivedName('v1', 'POST', '/v1/purchases/{purchase_id}/fulfill')).toBe('v1_purchases_fulfill_create');
    expect(derivedName('v1', 'DELETE', '/v1/promo-code-pools/{promo_code_pool_id}/offers/{offer_id}')).toBe('v1_promo_code_pools_offers_destroy');
  });

  it('drop leading segments to stay within 64 characters', () => {
    const name = derivedName('v1', 'DELETE', '/v1/domains/{domain_name}/published-courses/{published_course_id}/published-course-prerequisites/{prerequisite_published_course_id}');
    expect(name).toBe('v1_published_courses_published_course_prerequisites_destroy');
    expect(derivedName('v1', 'PATCH', '/v1/domains/{d}/catalog-pages/{p}/tile-container/content-blocks/{b}/items/{i}').length).toBeLessThanOrEqual(64);
  });
});

{
  const v1 = readFileSync(resolve(REFERENCE, 'skilljar-v1-openapi.yml'), 'utf8');
  describe('v1 tool names against the published /v1 document', () => {
    it('reproduce its operationIds for its CRUD operations', () => {
      // a few operations, read from the YAML text (no YAML parser in the project)
      for (const [method, path, id] of [
        ['GET', '/v1/domains/{domain_name}/users', 'domains_users_list'],
        ['PUT', '/v1/domains/{domain_name}/published-paths/{published_path_id}/published-path-enrollments/{published_path_enrollment_id}', 'domains_published_paths_published_path_enrollments_update'],
        ['GET', '/v1/license-packages/{license_package_id}/students', 'license_packages_students_list'],
      ]) {
        expect(v1).toContain(`operationId: ${id}`);
        expect(derivedName('v1', method, path)).toBe(`v1_${id}`);
      }
    });
  });
}

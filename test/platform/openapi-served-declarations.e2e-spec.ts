import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DECLARED_V1, DECLARED_V2 } from '../../src/core/openapi/declared-shape';
import { published, routeKey } from '../../src/core/openapi/published';
import { canonical } from '../../src/core/openapi/served-components';
import { McpService } from '../../src/modules/mcp/mcp.service';
import { allTools, mcpClient } from '../mcp/mcp-support';
import { startTestApp, type TestApp } from '../support/app';

/**
 * GET /openapi.json serves a published component that a declaration covers as the declaration
 * (docs/decisions/openapi.md, "Served from the declarations"), under its published name: the
 * document, the MCP tools' outputSchema and our answers derive from one declaration. A component
 * served as the published schema instead (the declaration's extension members missing, or its
 * types) fails here.
 */

const COURSE = 'v1.Course';

describe('/openapi.json serves the declarations of the published components', () => {
  let t: TestApp;
  let doc: any;
  let client: Client;

  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.get('/openapi.json')).body;
    const org = await t.newOrg('Served declarations');
    client = await mcpClient(t, await t.tokenFor(org), { all: true });
    // every declaring module, for the declarations the app has not loaded (none should be missing)
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = join(dir, e.name);
        return e.isDirectory() ? files(p) : p.endsWith('.ts') && !p.endsWith('.spec.ts') && /declaredV[12]\(/.test(readFileSync(p, 'utf8')) ? [p] : [];
      });
    for (const f of files(join(__dirname, '../../src/modules'))) require(f);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const servedOf = (name: string) => doc.components.schemas[name];
  const declarationsOf = (name: string) => [
    ...DECLARED_V1.filter((d) => d.published.some((n) => `v1.${n}` === name)).map((d) => d.schema),
    ...DECLARED_V2.filter((d) => `v2.${d.published}` === name).map((d) => d.schema),
  ];

  it('every covered component the document serves is its declaration (its $refs resolved in the document), not the published schema', () => {
    const all = { ...published().v1.schemas, ...published().v2.schemas };
    const covered = Object.keys(doc.components.schemas).filter((n) => declarationsOf(n).length);
    const notDeclared: string[] = [];
    let differsFromPublished = 0;
    for (const name of covered) {
      const served = canonical(servedOf(name), servedOf);
      if (!declarationsOf(name).some((s) => canonical(JSON.parse(JSON.stringify(s)), servedOf) === served)) notDeclared.push(name);
      if (canonical(all[name], (n) => all[n]) !== served) differsFromPublished++;
    }
    expect(notDeclared).toEqual([]);
    // most declarations add extension members or narrow a type: the published schema would fail the check above
    expect(covered.length).toBeGreaterThan(80);
    expect(differsFromPublished).toBeGreaterThan(40);
  });

  it('the /v1 Course: its extension members in the served component, under the published name GET /v1/courses/{id} answers', () => {
    const course = servedOf(COURSE);
    expect(course.properties.issues_certificate).toMatchObject({ type: 'boolean', 'x-extension': true });
    expect(course.properties.certificate_validity_days).toMatchObject({ type: ['integer', 'null'], 'x-extension': true });
    expect(course.required).toEqual(expect.arrayContaining(['issues_certificate', 'certificate_validity_days']));
    const [path] = Object.keys(doc.paths).filter((p) => routeKey('get', p) === routeKey('get', '/v1/courses/{x}'));
    expect(doc.paths[path].get.responses['200'].content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${COURSE}` });
  });

  it("the MCP tool of GET /v1/courses/{id}: its outputSchema (tools/list) has the declaration's extension members", async () => {
    const spec = (await t.app.get(McpService).tools()).find((x) => x.method.toLowerCase() === 'get' && routeKey('get', x.path) === routeKey('get', '/v1/courses/{x}'));
    expect(spec).toBeDefined();
    const listed = (await allTools(client)).find((x) => x.name === spec!.name);
    const out = listed?.outputSchema as any;
    expect(out?.properties?.issues_certificate).toMatchObject({ type: 'boolean' });
    expect(out?.properties?.certificate_validity_days).toMatchObject({ type: ['integer', 'null'] });
    expect(out?.required).toEqual(expect.arrayContaining(['id', 'title', 'issues_certificate']));
  });

  it('a /v2 resource: the served StudentResource is the declaration, its attributes keeping their published name', () => {
    const student = servedOf('v2.StudentResource');
    expect(student.properties.type).toMatchObject({ const: 'students' });
    expect(student.properties.attributes).toEqual({ $ref: '#/components/schemas/v2.StudentAttributes' });
    // the published optional relationships and links, never answered, are not declared
    expect(Object.keys(student.properties).sort()).toEqual(['attributes', 'id', 'type']);
  });
});

import type { TSchema } from '@sinclair/typebox';
import { DECLARED_V2, openApi, V2BatchSchema, V2DocumentSchema, V2PageSchema } from '../../src/core/openapi/declared-shape';
import { published, type JsonSchema } from '../../src/core/openapi/published';
import { AuditEventSchema } from '../../src/modules/audit/audit.service';
import { ClientSchema } from '../../src/modules/auth/clients.service';
import { ScopeCatalogSchema } from '../../src/modules/auth/scopes.controller';
import { AssetV2Schema } from '../../src/modules/content-files/assets.v2.presenter';
import { LaunchV2Schema } from '../../src/modules/content-runs/launches.presenter';
import { EventSchema } from '../../src/modules/data-out/events.v2.controller';
import { ExportSchema } from '../../src/modules/data-out/exports.presenter';
import { DomainMembershipV2Schema } from '../../src/modules/domain-users/domain-memberships.v2.controller';
import { LessonProgressV2Schema } from '../../src/modules/progress/lesson-progress.v2.controller';
import { startTestApp, type TestApp } from '../support/app';
import { CourseAnalyticsSchema, CourseRatingSchema } from '../../src/modules/analytics/analytics.service';
import { CertificateSchema } from '../../src/modules/certificates/certificates.presenter';
import { WebPackageResourceSchema } from '../../src/modules/content-files/web-packages.v2.presenter';
import { CourseResourceSchema } from '../../src/modules/courses/courses.presenter';
import { SignupFieldValueResourceSchema } from '../../src/modules/domain-users/signup-field-values.v2.service';
import { DomainResourceSchema } from '../../src/modules/domains/domains.v2.presenter';
import { EnrollmentCompletionResourceSchema, EnrollmentResourceSchema, EnrollmentWriteResourceSchema } from '../../src/modules/enrollments/enrollments.v2.presenter';
import { MembershipResourceSchema } from '../../src/modules/groups/group-students.v2.controller';
import { GroupResourceSchema, VisibilityOverrideResourceSchema } from '../../src/modules/groups/groups.presenter';
import { LessonDetailResourceSchema, LessonResourceSchema } from '../../src/modules/lessons/lessons.presenter';
import { PublishedCourseV2Schema } from '../../src/modules/published-courses/published-courses.v2.presenter';
import { QuestionBankAssignmentResourceSchema, QuestionBankResourceSchema, QuestionResourceSchema, QuizResourceSchema } from '../../src/modules/quizzes/quizzes.presenter';
import { StudentResourceSchema } from '../../src/modules/students/students.presenter';

/** Each declared /v2 resource of a published operation, and the published component it answers as. */
const DECLARED_V2_SHAPES: { name: string; published: string; schema: TSchema; omitted?: string[] }[] = [
  // optional published members never answered: a student has no relationships nor links on this platform (as before)
  { name: 'StudentResourceSchema', published: 'StudentResource', schema: StudentResourceSchema, omitted: ['/relationships', '/links'] },
  { name: 'CertificateSchema', published: 'CertificateResource', schema: CertificateSchema },
  { name: 'PublishedCourseV2Schema', published: 'PublishedCourseResource', schema: PublishedCourseV2Schema },
  { name: 'LessonResourceSchema', published: 'LessonResource', schema: LessonResourceSchema, omitted: ['/relationships'] },
  { name: 'LessonDetailResourceSchema', published: 'LessonDetailResource', schema: LessonDetailResourceSchema, omitted: ['/relationships'] },
  { name: 'CourseResourceSchema', published: 'CourseResource', schema: CourseResourceSchema },
  { name: 'CourseAnalyticsSchema', published: 'CourseAnalyticsResource', schema: CourseAnalyticsSchema },
  { name: 'CourseRatingSchema', published: 'CourseRatingResource', schema: CourseRatingSchema },
  { name: 'GroupResourceSchema', published: 'GroupResource', schema: GroupResourceSchema },
  { name: 'VisibilityOverrideResourceSchema', published: 'VisibilityOverrideResource', schema: VisibilityOverrideResourceSchema },
  { name: 'MembershipResourceSchema', published: 'MembershipResource', schema: MembershipResourceSchema },
  { name: 'DomainResourceSchema', published: 'DomainResource', schema: DomainResourceSchema },
  { name: 'EnrollmentResourceSchema', published: 'EnrollmentResource', schema: EnrollmentResourceSchema },
  { name: 'EnrollmentWriteResourceSchema', published: 'EnrollmentWriteResource', schema: EnrollmentWriteResourceSchema },
  { name: 'EnrollmentCompletionResourceSchema', published: 'EnrollmentCompletionResource', schema: EnrollmentCompletionResourceSchema },
  { name: 'QuizResourceSchema', published: 'QuizResource', schema: QuizResourceSchema },
  { name: 'QuestionBankResourceSchema', published: 'QuestionBankResource', schema: QuestionBankResourceSchema },
  { name: 'QuestionResourceSchema', published: 'QuestionResource', schema: QuestionResourceSchema },
  { name: 'QuestionBankAssignmentResourceSchema', published: 'QuestionBankAssignmentResource', schema: QuestionBankAssignmentResourceSchema, omitted: ['/links'] },
  { name: 'WebPackageResourceSchema', published: 'WebPackageResource', schema: WebPackageResourceSchema },
  { name: 'SignupFieldValueResourceSchema', published: 'SignupFieldValueResource', schema: SignupFieldValueResourceSchema },
  { name: 'ScopeCatalogSchema', published: 'ScopeCatalogResponse', schema: ScopeCatalogSchema },
];

/**
 * The /v2 shapes declared once beside their presenters (TypeBox, docs/decisions/serialization.md)
 * agree with the published component schemas (test/reference/skilljar-v2-openapi.json, as
 * src/core/openapi/published.ts holds it) that /openapi.json serves for the published operations
 * (docs/decisions/openapi.md): an answer of the declared type validates against the published schema.
 *
 * For every object the published schema describes (its `properties`), recursively:
 * - every published member is declared, required where the published one is required;
 * - with a compatible type: the declared JSON types are among the published ones (`integer` where
 *   `number` is published; `null` only where the published member is nullable), a declared enum or
 *   const within the published one, the published format;
 * - every declared member the published schema does not have is marked `x-extension: true`.
 * Arrays compare their items; a published open object (`additionalProperties: true`, no members)
 * accepts any declared object.
 */
const schemas = published().v2.schemas;

/** A published schema with its `$ref`s resolved and `anyOf: [X, {type: null}]` read as X or null. */
function resolve(s: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  let nullableHere = false;
  for (;;) {
    if (s.$ref) {
      s = schemas[String(s.$ref).split('/').pop()!];
      continue;
    }
    const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (branches) {
      const rest = branches.filter((b) => b.type !== 'null');
      nullableHere ||= rest.length < branches.length;
      if (rest.length === 1) {
        s = { ...rest[0], ...(s.description ? { description: s.description } : {}) };
        continue;
      }
    }
    break;
  }
  const types = Array.isArray(s.type) ? s.type : [s.type];
  return { schema: s, nullable: nullableHere || types.includes('null') || s.nullable === true };
}

/** The JSON types a schema allows (without null), or undefined when it says none. */
function typesOf(s: JsonSchema): string[] | undefined {
  if (s.const !== undefined) return [typeof s.const === 'number' ? (Number.isInteger(s.const) ? 'integer' : 'number') : typeof s.const];
  if (s.type === undefined) return undefined;
  return (Array.isArray(s.type) ? s.type : [s.type]).filter((t: string) => t !== 'null');
}

function declaredNullable(d: JsonSchema): boolean {
  const t = Array.isArray(d.type) ? d.type : [d.type];
  return t.includes('null') || (Array.isArray(d.anyOf) && d.anyOf.some((b: JsonSchema) => b.type === 'null'));
}

/**
 * The differences between the declared schema `d` and the published `p` at `path`. `omitted`: the
 * optional published members the declaration leaves out on purpose (never answered), by pointer.
 */
function disagreements(d: JsonSchema, p: JsonSchema, path = '', omitted: string[] = []): string[] {
  const out: string[] = [];
  const { schema: pub, nullable } = resolve(p);
  if (declaredNullable(d) && !nullable) out.push(`${path || '/'}: declared nullable, published not nullable`);
  // a declared `anyOf: [X, null]` is X or null; a declared null alone has nothing more to compare
  if (Array.isArray(d.anyOf)) {
    const rest = d.anyOf.filter((b: JsonSchema) => b.type !== 'null');
    if (rest.length === 1) return [...out, ...disagreements(rest[0], { ...pub, anyOf: undefined, oneOf: undefined }, path, omitted)];
  }
  if (d.type === 'null') return out;
  const dt = typesOf(d);
  const pt = typesOf(pub);
  if (pt && dt) {
    const ok = (t: string) => pt.includes(t) || (t === 'integer' && pt.includes('number'));
    for (const t of dt) if (!ok(t)) out.push(`${path || '/'}: declared type ${t}, published ${pt.join('|')}`);
  } else if (pt && !dt && !d.anyOf) out.push(`${path || '/'}: declared without a type, published ${pt.join('|')}`);
  const allowed = pub.const !== undefined ? [pub.const] : pub.enum;
  const declaredValues = d.const !== undefined ? [d.const] : d.enum;
  if (allowed) {
    if (!declaredValues) out.push(`${path || '/'}: published enum ${JSON.stringify(allowed)}, declared none`);
    else for (const v of declaredValues) if (v !== null && !allowed.includes(v)) out.push(`${path || '/'}: declared value ${JSON.stringify(v)} not in the published enum`);
  }
  if (pub.format && d.format !== pub.format) out.push(`${path || '/'}: published format ${pub.format}, declared ${d.format ?? 'none'}`);
  if (pub.items && d.items) out.push(...disagreements(d.items, pub.items, `${path}/items`, omitted));
  else if (pub.items && !d.items) out.push(`${path || '/'}: published items, declared none`);
  if (pub.properties) {
    const declared: Record<string, JsonSchema> = d.properties ?? {};
    const required = new Set<string>(d.required ?? []);
    for (const [name, ps] of Object.entries<JsonSchema>(pub.properties)) {
      const at = `${path}/${name}`;
      if (!(name in declared)) {
        if ((pub.required ?? []).includes(name) || !omitted.includes(at)) out.push(`${at}: published, not declared`);
        continue;
      }
      if ((pub.required ?? []).includes(name) && !required.has(name)) out.push(`${at}: published required, declared optional`);
      out.push(...disagreements(declared[name], ps, at, omitted));
    }
    for (const [name, ds] of Object.entries(declared)) {
      if (!(name in pub.properties) && ds['x-extension'] !== true) out.push(`${path}/${name}: not published, not marked x-extension`);
    }
  }
  return out;
}

describe('declared /v2 shapes agree with the published component schemas', () => {
  it.each(DECLARED_V2_SHAPES.map((s) => [s.published, s.name, s.schema, s.omitted ?? []] as [string, string, TSchema, string[]]))('%s (%s)', (component, _name, schema, omitted) => {
    expect(schemas[`v2.${component}`]).toBeDefined();
    expect(disagreements(schema as JsonSchema, { $ref: `#/components/schemas/v2.${component}` }, '', omitted)).toEqual([]);
  });

  it('lists every /v2 declaration registered with declaredV2 (what /openapi.json serves as the component), with its component', () => {
    const unlisted = DECLARED_V2.filter((d) => !DECLARED_V2_SHAPES.some((s) => s.schema === d.schema && s.published === d.published)).map((d) => d.published);
    expect(unlisted).toEqual([]);
    // and each listed one is registered: the document serves it
    expect(DECLARED_V2_SHAPES.filter((s) => !DECLARED_V2.some((d) => d.schema === s.schema && d.published === s.published)).map((s) => s.name)).toEqual([]);
  });

  it('finds a missing member, a wrong type, a new nullability and an unmarked extension (the check itself)', () => {
    const pub = { $ref: '#/components/schemas/v2.StudentAttributes' };
    const good = schemas['v2.StudentAttributes'];
    expect(disagreements(good, pub)).toEqual([]);
    const { email: _e, ...rest } = good.properties;
    expect(disagreements({ ...good, properties: rest }, pub)).toEqual(['/email: published, not declared']);
    expect(disagreements({ ...good, properties: { ...good.properties, is_inactive: { type: 'string' } } }, pub)).toEqual(['/is_inactive: declared type string, published boolean']);
    expect(disagreements({ ...good, properties: { ...good.properties, email: { type: ['string', 'null'] } } }, pub)).toEqual(['/email: declared nullable, published not nullable']);
    expect(disagreements({ ...good, properties: { ...good.properties, extra: { type: 'string' } } }, pub)).toEqual(['/extra: not published, not marked x-extension']);
    expect(disagreements({ ...good, properties: { ...good.properties, extra: { type: 'string', 'x-extension': true } } }, pub)).toEqual([]);
    expect(disagreements({ ...good, required: ['email'] }, pub)).toContain('/first_name: published required, declared optional');
  });
});

/**
 * The extension /v2 answers nothing published describes: /openapi.json serves their declaration
 * itself (the same JSON), so the document, the presenter's type and the conformance sweep's check of
 * the answer (test/platform/conformance.e2e-spec.ts, against /openapi.json) read one declaration.
 */
describe('/openapi.json serves the declared /v2 answers nothing published describes', () => {
  let t: TestApp;
  let doc: any;
  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.get('/openapi.json')).body;
  });
  afterAll(() => t?.close());

  const MB = '/v2/students/{id}/relationships/domain-memberships';
  const cases: [string, string, string, TSchema][] = [
    ['get', '/v2/assets', '200', V2PageSchema(AssetV2Schema)],
    ['post', '/v2/assets', '207', V2BatchSchema(AssetV2Schema)],
    ['get', '/v2/assets/{id}', '200', V2DocumentSchema(AssetV2Schema)],
    ['patch', '/v2/assets/{id}', '200', V2DocumentSchema(AssetV2Schema)],
    ['get', MB, '200', V2PageSchema(DomainMembershipV2Schema)],
    ['post', MB, '200', V2BatchSchema(DomainMembershipV2Schema)],
    ['get', `${MB}/{domain_id}`, '200', V2DocumentSchema(DomainMembershipV2Schema)],
    ['get', '/v2/lesson-progress', '200', V2PageSchema(LessonProgressV2Schema)],
    ['post', '/v2/exports', '202', V2DocumentSchema(ExportSchema)],
    ['get', '/v2/exports', '200', V2PageSchema(ExportSchema)],
    ['get', '/v2/exports/{id}', '200', V2DocumentSchema(ExportSchema)],
    ['get', '/v2/events', '200', V2PageSchema(EventSchema)],
    ['get', '/v2/events/{id}', '200', V2DocumentSchema(EventSchema)],
    ['get', '/v2/audit-events', '200', V2PageSchema(AuditEventSchema)],
    ['get', '/v2/audit-events/{id}', '200', V2DocumentSchema(AuditEventSchema)],
    ['post', '/v2/launches', '201', V2DocumentSchema(LaunchV2Schema)],
    // published, but as open objects without members: the declaration says what they answer
    ['get', '/v2/clients', '200', V2PageSchema(ClientSchema)],
    ['post', '/v2/clients', '201', V2DocumentSchema(ClientSchema)],
    ['get', '/v2/clients/{id}', '200', V2DocumentSchema(ClientSchema)],
    ['patch', '/v2/clients/{id}', '200', V2DocumentSchema(ClientSchema)],
    ['post', '/v2/clients/{id}/rotate-secret', '200', V2DocumentSchema(ClientSchema)],
  ];

  it.each(cases)('%s %s %s', (method, path, status, schema) => {
    const served = doc.paths[path]?.[method]?.responses?.[status]?.content?.['application/vnd.api+json']?.schema;
    expect(served).toEqual(JSON.parse(JSON.stringify(openApi(schema))));
  });
});

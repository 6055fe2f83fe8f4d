import { published, type JsonSchema } from '../../core/openapi/published';
import { PingSchema } from './webhooks.shape';

/**
 * The ping answer is published inline (`webhooks_ping_create`, no component that declaredV1 could
 * name): its declaration has exactly the published members, each of the published type, none
 * nullable, and a required member only where the service always answers it.
 */
const publishedPing = (): JsonSchema => {
  const op = published().v1.operations.find((o) => o.operationId === 'webhooks_ping_create');
  return op!.responses!['200'].content!['application/json'].schema!;
};

function differences(declared: JsonSchema, pub: JsonSchema): string[] {
  const out: string[] = [];
  const dp: Record<string, JsonSchema> = declared.properties ?? {};
  for (const [name, ps] of Object.entries<JsonSchema>(pub.properties ?? {})) {
    const d = dp[name];
    if (!d) {
      out.push(`${name}: published, not declared`);
      continue;
    }
    const types = Array.isArray(d.type) ? d.type : [d.type];
    for (const t of types) if (t !== ps.type && !(t === 'integer' && ps.type === 'number')) out.push(`${name}: declared ${t}, published ${ps.type}`);
    if ((pub.required ?? []).includes(name) && !(declared.required ?? []).includes(name)) out.push(`${name}: required in the published answer, optional here`);
  }
  for (const name of Object.keys(dp)) if (!(name in (pub.properties ?? {})) && dp[name]['x-extension'] !== true) out.push(`${name}: not published and not marked x-extension`);
  return out;
}

describe('the ping answer declaration against the published one', () => {
  it('declares the published members with their types', () => {
    expect(Object.keys(publishedPing().properties).sort()).toEqual(['http_status_code', 'message', 'succeeded']);
    expect(differences(PingSchema, publishedPing())).toEqual([]);
    expect(PingSchema.required).toEqual(['succeeded', 'message']);
  });

  it('finds a missing member, a wrong or nullable type and an unmarked member (the check itself)', () => {
    const { message: _m, ...rest } = PingSchema.properties;
    expect(differences({ ...PingSchema, properties: rest }, publishedPing())).toEqual(['message: published, not declared']);
    expect(differences({ ...PingSchema, properties: { ...PingSchema.properties, succeeded: { type: ['boolean', 'null'] } } }, publishedPing())).toEqual([
      'succeeded: declared null, published boolean',
    ]);
    expect(differences({ ...PingSchema, properties: { ...PingSchema.properties, extra: { type: 'string' } } }, publishedPing())).toEqual(['extra: not published and not marked x-extension']);
  });
});

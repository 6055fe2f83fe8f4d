/**
 * A /v1 400 body, nested as Django REST framework nests it (CONVENTIONS §16: `{"user": {"email":
 * [...]}}`, `{"users": [{}, {"email": [...]}]}`), as dotted member names and their messages
 * (`{"user.email": [...]}`, `{"users.1.email": [...]}`): for tests that ask which members a refusal
 * names. A list of objects' entries are named by their index, its `{}` entries (valid elements) left out.
 */
export function drfFlat(body: unknown, prefix = '', out: Record<string, any> = {}): Record<string, any> {
  if (typeof body !== 'object' || body === null || (Array.isArray(body) && body.every((m) => typeof m === 'string'))) {
    out[prefix] = body;
    return out;
  }
  const entries: [string, unknown][] = Array.isArray(body) ? body.map((v, i) => [String(i), v]) : Object.entries((body ?? {}) as object);
  for (const [k, v] of entries) drfFlat(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

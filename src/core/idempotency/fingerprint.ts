import { createHash } from 'node:crypto';

/** A literal piece of output on the serializer's stack (the other entries are values still to write). */
class Piece {
  constructor(readonly text: string) {}
}
const COMMA = new Piece(',');
const CLOSE_ARRAY = new Piece(']');
const CLOSE_OBJECT = new Piece('}');

/**
 * Canonical JSON of a parsed body: object members sorted by name, no white space, strings and
 * numbers as JSON.stringify writes them (lone surrogates escaped, so `"\ud800"` and `"\ud801"`
 * differ). Iterative, with an explicit stack: a body nested a million levels deep (it fits in 1 MiB)
 * cannot overflow the call stack here.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v instanceof Piece) {
      out.push(v.text);
    } else if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v) ?? 'null');
    } else if (Array.isArray(v)) {
      out.push('[');
      stack.push(CLOSE_ARRAY);
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i]);
        if (i > 0) stack.push(COMMA);
      }
    } else {
      out.push('{');
      stack.push(CLOSE_OBJECT);
      const keys = Object.keys(v).sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push((v as Record<string, unknown>)[keys[i]]);
        stack.push(new Piece(`${JSON.stringify(keys[i])}:`));
        if (i > 0) stack.push(COMMA);
      }
    }
  }
  return out.join('');
}

/**
 * What "the same request" means for a key: the query string and the body. A JSON body is compared
 * by its canonical form (member order and white space do not matter); a body the JSON parser did not
 * produce (text, bytes) by its exact content; no body at all differs from an empty one.
 */
export function requestFingerprint(query: string, body: unknown): Buffer {
  const h = createHash('sha256');
  h.update(query);
  if (body === undefined) h.update('\0-');
  else if (Buffer.isBuffer(body)) h.update('\0b').update(body);
  else if (typeof body === 'string') h.update('\0s').update(body);
  else h.update('\0j').update(canonicalJson(body));
  return h.digest();
}

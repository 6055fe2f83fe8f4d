import { createHash } from 'node:crypto';

/** RFC 4122 name-based UUID (version 5, SHA-1). */
export function uuid5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(Buffer.concat([ns, Buffer.from(name, 'utf8')])).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// A fixed namespace for this platform's external ids (uuid5 of the URL namespace and a name).
const NAMESPACE = uuid5('https://course-platform.invalid/external-id', '6ba7b811-9dad-11d1-80b4-00c04fd430c8');

/**
 * `external_id` is a stable UUID5 for cross-system correlation: the stored value when one was
 * set (imports), else derived from the row's kind and uuid, so it never changes.
 */
export function externalIdOf(kind: 'course' | 'lesson', uuid: string, stored: string | null | undefined): string {
  return stored ? stored : uuid5(`${kind}:${uuid}`, NAMESPACE);
}

import { uuidV5 } from './uuid-v5';

// A fixed namespace for this platform's external ids (uuid5 of the URL namespace and a name).
const NAMESPACE = uuidV5('6ba7b811-9dad-11d1-80b4-00c04fd430c8', 'https://course-platform.invalid/external-id');

/**
 * `external_id` is a stable UUID5 for cross-system correlation: the stored value when one was
 * set (imports), else derived from the row's kind and uuid, so it never changes.
 */
export function externalIdOf(kind: 'course' | 'lesson' | 'domain' | 'publishedCourse', uuid: string, stored: string | null | undefined): string {
  return stored ? stored : uuidV5(NAMESPACE, `${kind}:${uuid}`);
}

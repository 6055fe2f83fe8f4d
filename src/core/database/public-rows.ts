import { notFound } from '../http/api-error';
import { decodeId, IdType } from '../ids/ids';

/**
 * The first row `read` answers for the uuid behind a public id, or the 404 with `message` that a
 * malformed, unknown or foreign id gets alike (`read` is not called for a malformed one).
 */
export async function publicRowOr404<T>(type: IdType, publicId: string, read: (uuid: string) => Promise<T[]>, message: string): Promise<T> {
  const id = decodeId(type, publicId);
  const rows = id ? await read(id) : [];
  if (!rows[0]) throw notFound(message);
  return rows[0];
}

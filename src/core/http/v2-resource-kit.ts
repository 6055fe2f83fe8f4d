import { encodeId, IdType } from '../ids/ids';

/** A /v2 JSON:API resource object without relationships. */
export interface V2Resource<T extends string, A> {
  type: T;
  id: string;
  attributes: A;
  links: { self: string };
}

/**
 * A /v2 JSON:API resource object: its `type`, the opaque id of `uuid` (encoded as `idType`), its
 * attributes, its relationships when it has any, and its self link `<base URL>/v2/<type>/<id>`,
 * members in that order (the order every /v2 presenter answers them in).
 */
export function v2Resource<T extends string, A>(type: T, idType: IdType, uuid: string, baseUrl: string, attributes: A): V2Resource<T, A>;
export function v2Resource<T extends string, A, R>(type: T, idType: IdType, uuid: string, baseUrl: string, attributes: A, relationships: R): V2Resource<T, A> & { relationships: R };
export function v2Resource<T extends string, A, R>(type: T, idType: IdType, uuid: string, baseUrl: string, attributes: A, relationships?: R) {
  const id = encodeId(idType, uuid);
  const self = `${baseUrl.replace(/\/$/, '')}/v2/${type}/${id}`;
  return relationships === undefined ? { type, id, attributes, links: { self } } : { type, id, attributes, relationships, links: { self } };
}

import { ID_BODY_LENGTH, ID_PREFIXES, IdType } from '../../core/ids/ids';

/**
 * The public id of a uuid, exactly as core/ids encodeId writes it (prefix + the 128-bit value in 25
 * base-36 digits), but not remembered: an export writes millions of distinct ids once each, and
 * encodeId's memo would only churn (its Map insertions cost several times the conversion).
 * public-ids.spec.ts compares the two.
 */
export function exportPublicId(type: IdType, uuid: string): string {
  const hex = uuid.length === 36 ? uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18) + uuid.slice(19, 23) + uuid.slice(24) : uuid.replace(/-/g, '');
  return (
    ID_PREFIXES[type] +
    BigInt('0x' + hex)
      .toString(36)
      .padStart(ID_BODY_LENGTH, '0')
  );
}

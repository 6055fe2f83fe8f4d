import { ID_PREFIXES, IdType } from '../../core/ids/ids';

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';
/** 36^7: seven base-36 digits per round of long division (remainder * 2^16 + limb stays below 2^53). */
const D7 = 36 ** 7;
const limbs = new Float64Array(8);

/**
 * The public id of a uuid, exactly as core/ids encodeId writes it (prefix + the 128-bit value in 25
 * base-36 digits), computed with float long division on eight 16-bit limbs instead of a BigInt,
 * and not remembered: an export writes millions of distinct ids once each (encodeId's memo would
 * only churn). About five times faster than the BigInt conversion. public-ids.spec.ts compares the two.
 */
export function exportPublicId(type: IdType, uuid: string): string {
  const hex = uuid.length === 36 ? uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(14, 18) + uuid.slice(19, 23) + uuid.slice(24) : uuid.replace(/-/g, '');
  for (let i = 0; i < 8; i++) limbs[i] = parseInt(hex.slice(i * 4, i * 4 + 4), 16);
  let out = '';
  for (let round = 0; round < 4; round++) {
    let rem = 0;
    for (let i = 0; i < 8; i++) {
      const cur = rem * 65536 + limbs[i];
      const q = Math.floor(cur / D7);
      limbs[i] = q;
      rem = cur - q * D7;
    }
    let chunk = '';
    for (let k = 0; k < 7; k++) {
      const d = rem % 36;
      chunk = DIGITS[d] + chunk;
      rem = (rem - d) / 36;
    }
    out = chunk + out;
  }
  return ID_PREFIXES[type] + out.slice(3);
}

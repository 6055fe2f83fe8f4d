import { gzipSync } from 'node:zlib';

/**
 * Bitstring Status List v1.0 (W3C): one list holds STATUS_LIST_SIZE entries (the specification's
 * minimum of 16 KB, 131,072 bits, for group privacy); a certificate's `status_index` n lives in list
 * floor(n / size) at bit n mod size. Bit 0 is the most significant bit of the first byte. The list
 * travels GZIP-compressed, base64url without padding, as a multibase value (`u` prefix).
 */
export const STATUS_LIST_SIZE = 131_072;

export function statusListPosition(index: number): { list: number; bit: number } {
  return { list: Math.floor(index / STATUS_LIST_SIZE), bit: index % STATUS_LIST_SIZE };
}

/** The encodedList of a list whose set bits are `bits` (positions within the list). */
export function encodeStatusList(bits: Iterable<number>): string {
  const bytes = Buffer.alloc(STATUS_LIST_SIZE / 8);
  for (const b of bits) {
    if (!Number.isInteger(b) || b < 0 || b >= STATUS_LIST_SIZE) throw new RangeError(`status bit out of range: ${b}`);
    bytes[b >> 3] |= 0x80 >> (b & 7);
  }
  return 'u' + gzipSync(bytes).toString('base64url');
}

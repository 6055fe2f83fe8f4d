import { gunzipSync } from 'node:zlib';
import { encodeStatusList, STATUS_LIST_SIZE, statusListPosition } from './status-list';

const decode = (encoded: string) => gunzipSync(Buffer.from(encoded.slice(1), 'base64url'));

describe('Bitstring Status List encoding', () => {
  it('is multibase base64url of the GZIP of 16 KB, bit 0 the most significant bit of byte 0', () => {
    const encoded = encodeStatusList([0, 9, STATUS_LIST_SIZE - 1]);
    expect(encoded[0]).toBe('u');
    expect(encoded).not.toMatch(/[=+/]/);
    const bytes = decode(encoded);
    expect(bytes.length).toBe(16_384);
    expect(bytes[0]).toBe(0x80);
    expect(bytes[1]).toBe(0x40);
    expect(bytes[bytes.length - 1]).toBe(0x01);
    expect(bytes.subarray(2, bytes.length - 1).every((b) => b === 0)).toBe(true);
  });

  it('an empty list is all zeros; a bit outside the list is refused', () => {
    expect(decode(encodeStatusList([])).every((b) => b === 0)).toBe(true);
    expect(() => encodeStatusList([STATUS_LIST_SIZE])).toThrow(RangeError);
    expect(() => encodeStatusList([-1])).toThrow(RangeError);
  });

  it('places an index in its list and bit', () => {
    expect(statusListPosition(0)).toEqual({ list: 0, bit: 0 });
    expect(statusListPosition(STATUS_LIST_SIZE + 5)).toEqual({ list: 1, bit: 5 });
  });
});

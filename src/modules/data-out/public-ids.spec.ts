import { randomUUID } from 'node:crypto';
import { encodeId } from '../../core/ids/ids';
import { exportPublicId } from './public-ids';

describe('exportPublicId', () => {
  it('writes the same public ids as encodeId', () => {
    const uuids = [
      '00000000-0000-0000-0000-000000000000',
      '00000000-0000-0000-0000-000000000001',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '80000000-0000-0000-0000-000000000000',
      '0000ffff-0000-ffff-0000-ffff0000ffff',
    ];
    for (let i = 0; i < 20_000; i++) uuids.push(randomUUID());
    for (const u of uuids) {
      expect(exportPublicId('student', u)).toBe(encodeId('student', u));
      expect(exportPublicId('enrollment', u)).toBe(encodeId('enrollment', u));
    }
  });
});

import { randomUUID } from 'node:crypto';
import { uuidV5 } from '../../core/ids/uuid-v5';
import { studentExternalId } from './students.service';

describe('studentExternalId', () => {
  it('is uuidV5 of the uuid in the students namespace', () => {
    const NAMESPACE = '5b0e8c1e-3f5e-4d8a-9a57-6c1f2b7c9d10';
    const names = [...Array.from({ length: 2000 }, () => randomUUID()), '', 'x', 'é-ünïcode-😀', '00000000-0000-0000-0000-000000000000'];
    for (const name of names) expect([name, studentExternalId(name)]).toEqual([name, uuidV5(NAMESPACE, name)]);
  });
});

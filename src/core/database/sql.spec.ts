import { isUniqueViolation, rowsOf } from './sql';
import { uuidV5 } from '../ids/uuid-v5';

describe('SQL helpers', () => {
  it('rowsOf: [rows, count] of an UPDATE/DELETE, rows of anything else', () => {
    expect(rowsOf([[{ id: 1 }], 1])).toEqual([{ id: 1 }]);
    expect(rowsOf([[], 0])).toEqual([]);
    expect(rowsOf([{ id: 1 }, { id: 2 }])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(rowsOf([])).toEqual([]);
  });

  it('isUniqueViolation: pg errors and TypeORM-wrapped ones, of any or of the named constraint', () => {
    const pg = { code: '23505', constraint: 'a_uq' };
    expect(isUniqueViolation(pg)).toBe(true);
    expect(isUniqueViolation(pg, 'a_uq')).toBe(true);
    expect(isUniqueViolation(pg, 'b_uq')).toBe(false);
    expect(isUniqueViolation({ driverError: pg }, 'a_uq')).toBe(true);
    expect(isUniqueViolation({ code: '23503', constraint: 'a_uq' }, 'a_uq')).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation(new Error('x'))).toBe(false);
  });

  it('uuidV5(namespace, name): the RFC test vector (DNS namespace, "www.example.com")', () => {
    // RFC 9562 appendix A.4
    expect(uuidV5('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
});

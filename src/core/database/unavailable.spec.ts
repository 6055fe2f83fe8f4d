import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './unavailable';

const err = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('isDatabaseUnavailable', () => {
  it.each([
    ['refused', err('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED')],
    ['timed out', err('connect ETIMEDOUT', 'ETIMEDOUT')],
    ['pool timeout', err('timeout exceeded when trying to connect')],
    ['cut mid-query', err('Connection terminated unexpectedly')],
    ['admin shutdown', err('terminating connection due to administrator command', '57P01')],
    ['starting up', err('the database system is starting up', '57P03')],
    ['too many connections', err('sorry, too many clients already', '53300')],
    ['connection exception class', err('connection failure', '08006')],
    ['connections not allowed', err('database "x" is not currently accepting connections', '55000')],
    ['wrapped by TypeORM', new QueryFailedError('SELECT 1', [], err('terminating connection due to administrator command', '57P01'))],
  ])('%s: yes', (_name, e) => expect(isDatabaseUnavailable(e)).toBe(true));

  it.each([
    ['unique violation', new QueryFailedError('INSERT', [], err('duplicate key value violates unique constraint', '23505'))],
    ['bad input', new QueryFailedError('INSERT', [], err('invalid byte sequence', '22021'))],
    ['other 55000', err('cannot refresh materialized view concurrently', '55000')],
    ['a plain bug', new TypeError('x is undefined')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: no', (_name, e) => expect(isDatabaseUnavailable(e)).toBe(false));
});

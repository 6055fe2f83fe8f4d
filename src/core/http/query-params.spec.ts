import { ApiError } from './api-error';
import { dateTimeParam, escapeLike, listParam, stringParam } from './query-params';

const dt = (v: unknown, requireOffset = true) => dateTimeParam({ x: v }, 'x', requireOffset);
const fails = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(422);
    expect((e as ApiError).problems[0].parameter).toBe('x');
    return;
  }
  throw new Error('expected a 422');
};

describe('query-params', () => {
  it('date-times with an offset', () => {
    expect(dt('2024-01-01T00:00:00Z')!.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(dt('2024-01-01T02:00:00+02:00')!.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(dt('2024-01-01T02:00:00 02:00')!.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(dt('2024-01-01T00:00:00.123456-0130')!.toISOString()).toBe('2024-01-01T01:30:00.123Z');
    expect(dt('2024-01-01T00:00z')!.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(dt(undefined)).toBeUndefined();
  });

  it('refuses naive, malformed and impossible date-times when an offset is required', () => {
    for (const v of ['2024-01-01T00:00:00', '2024-01-01', 'yesterday', '2024-13-01T00:00:00Z', '2024-02-30T00:00:00Z', '2024-01-01T24:00:00Z', ['2024-01-01T00:00:00Z'], '']) fails(() => dt(v));
  });

  it('reads naive date-times as UTC when no offset is required', () => {
    expect(dt('2024-01-01T05:00:00', false)!.toISOString()).toBe('2024-01-01T05:00:00.000Z');
    fails(() => dt('2024-01-01', false));
  });

  it('single string values only, no NUL, bounded length', () => {
    expect(stringParam({ x: 'a' }, 'x')).toBe('a');
    fails(() => stringParam({ x: ['a', 'b'] }, 'x'));
    fails(() => stringParam({ x: 'a\u0000b' }, 'x'));
    fails(() => stringParam({ x: 'a'.repeat(11) }, 'x', 10));
  });

  it('comma-separated lists are trimmed, lowercased and deduplicated', () => {
    expect(listParam({ x: ' A.test, b.test,,a.TEST ' }, 'x')).toEqual(['a.test', 'b.test']);
    expect(listParam({}, 'x')).toBeUndefined();
    fails(() => listParam({ x: Array.from({ length: 101 }, (_, i) => `d${i}`).join(',') }, 'x'));
  });

  it('escapes LIKE wildcards', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
  });
});

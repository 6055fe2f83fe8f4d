import { ApiError } from '../http/api-error';
import { parseV1Page, v1List } from './v1-page';

describe('v1 pagination', () => {
  it('defaults, clamps page_size to the cap and computes the offset', () => {
    expect(parseV1Page({}, 100)).toEqual({ page: 1, pageSize: 100, offset: 0 });
    expect(parseV1Page({ page: '3', page_size: '5000' }, 1000)).toEqual({ page: 3, pageSize: 1000, offset: 2000 });
    expect(parseV1Page({ page_size: '10' }, 100, 20)).toEqual({ page: 1, pageSize: 10, offset: 0 });
  });

  it('refuses bad page numbers with a 400 field error', () => {
    for (const page of ['0', '-1', 'x', '1.5']) {
      expect(() => parseV1Page({ page }, 100)).toThrow(ApiError);
      try {
        parseV1Page({ page }, 100);
      } catch (e) {
        expect((e as ApiError).status).toBe(400);
      }
    }
  });

  it('links next and previous pages and 404s past the end', () => {
    const p = parseV1Page({ page: '2', page_size: '2' }, 100);
    const body = v1List(['c', 'd'], 5, p, 'http://h', '/v1/tags?page=2&page_size=2');
    expect(body.next).toBe('http://h/v1/tags?page=3&page_size=2');
    expect(body.previous).toBe('http://h/v1/tags?page_size=2');
    expect(() => v1List([], 5, parseV1Page({ page: '9' }, 100), 'http://h', '/v1/tags?page=9')).toThrow('Invalid page.');
  });
});

import { isPublishedOperation } from './not-implemented';

describe('isPublishedOperation (issue 29 point 6)', () => {
  it('matches published templates by method and segments, parameters matching one segment', () => {
    expect(isPublishedOperation('GET', '/v1/domains/acme.example.com/catalog-pages')).toBe(true);
    expect(isPublishedOperation('GET', '/v1/domains/acme.example.com/catalog-pages/')).toBe(true);
    expect(isPublishedOperation('GET', '/v1/domains/acme.example.com/catalog-pages?page=2')).toBe(true);
    expect(isPublishedOperation('HEAD', '/v1/courses/abc')).toBe(true);
    expect(isPublishedOperation('GET', '/v2/students/abc/')).toBe(true);
    expect(isPublishedOperation('PUT', '/v1/courses')).toBe(false); // not a published method there
    expect(isPublishedOperation('GET', '/v1/courses/abc/def/ghi')).toBe(false);
    expect(isPublishedOperation('GET', '/v1/nothing')).toBe(false);
    expect(isPublishedOperation('GET', '/v1/domains//catalog-pages')).toBe(false);
  });
});

describe('notImplemented (issue 29 point 6)', () => {
  const { notImplemented } = require('./not-implemented') as typeof import('./not-implemented');
  const { ApiError } = require('../http/api-error') as typeof import('../http/api-error');
  const req = (method: string, url: string, is404 = true) => ({ method, url, is404 }) as any;
  const nf = new ApiError(404, 'Not found.');

  it('a request that matched no route for a published operation is a 501', () => {
    const e = notImplemented(req('GET', '/v1/domains/acme.test/catalog-pages/abc/unknown-things'), nf, false);
    expect(e).toBeNull(); // not a published path
    const got = notImplemented(req('DELETE', '/v1/domains/acme.test/catalog-pages/abc'), nf, false);
    expect(got?.status).toBe(501);
    expect(got?.code).toBe('not_implemented');
    // through the /v1 catch-all route (not is404) counts the same
    expect(notImplemented(req('GET', '/v1/domains/acme.test/catalog-pages', false), nf, true)?.status).toBe(501);
  });

  it('a handler 404 (a served route, an unknown id) and other errors stay as they are', () => {
    expect(notImplemented(req('GET', '/v1/courses/abc', false), nf, false)).toBeNull();
    expect(notImplemented(req('GET', '/v1/courses/abc'), new ApiError(400, 'x'), false)).toBeNull();
  });
});

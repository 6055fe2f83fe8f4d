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

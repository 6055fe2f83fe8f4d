import { encodeId, newUuid } from './ids';
import { externalIdOf } from './external-id';
import { publicIdsOf, trimBase } from './public-ids';

describe('publicIdsOf', () => {
  it('is encodeId and the derived externalIdOf, the same object on a second call', () => {
    for (const kind of ['course', 'lesson'] as const) {
      for (let i = 0; i < 50; i++) {
        const uuid = newUuid();
        const ids = publicIdsOf(kind, uuid);
        expect(ids).toEqual({ id: encodeId(kind, uuid), derivedExternalId: externalIdOf(kind, uuid, null) });
        expect(publicIdsOf(kind, uuid)).toBe(ids);
      }
    }
    const uuid = newUuid();
    expect(publicIdsOf('course', uuid).id).not.toBe(publicIdsOf('lesson', uuid).id);
  });

  it('stays right past its size limit', () => {
    const uuids = Array.from({ length: 20_050 }, () => newUuid());
    for (const u of uuids) publicIdsOf('course', u);
    for (const u of [uuids[0], uuids[20_049]]) expect(publicIdsOf('course', u).id).toBe(encodeId('course', u));
  });
});

describe('trimBase', () => {
  it('drops one trailing slash, whichever base comes', () => {
    expect(trimBase('http://a.test/')).toBe('http://a.test');
    expect(trimBase('http://a.test/')).toBe('http://a.test');
    expect(trimBase('http://b.test')).toBe('http://b.test');
    expect(trimBase('http://c.test//')).toBe('http://c.test/');
  });
});

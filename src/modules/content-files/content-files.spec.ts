import { inspectManifest, pickManifest } from './manifest';
import { assetFileName, keyPath, keySegment } from './storage-names';
import { assertKey } from '../../core/storage/storage';
import { unsafeEntryName } from './zip-inspect';

describe('zip entry names', () => {
  it.each([
    ['../evil', /escapes/],
    ['a/../../evil', /escapes/],
    ['a/..', /escapes/],
    ['/etc/passwd', /absolute/],
    ['C:/win.ini', /drive letter/],
    ['c:evil', /drive letter/],
    ['..\\evil', /backslash/],
    ['a\\b', /backslash/],
    ['a//b', /plain relative/],
    ['./a', /plain relative/],
    ['a\u0000b', /control/],
    ['', /empty/],
  ])('refuses %j', (name, reason) => {
    expect(unsafeEntryName(name)).toMatch(reason);
  });

  it.each(['index.html', 'a/b/c.js', 'dir/', 'ünïcode/ﬁle name (1).png', 'a..b/c'])('accepts %j', (name) => {
    expect(unsafeEntryName(name)).toBeNull();
  });

  it('maps any safe entry path to a valid storage key, reversibly and without collisions', () => {
    const names = ['ünïcode/ﬁle name (1).png', 'a+b.js', 'a%2Bb.js', 'x&y#z?.html', 'a..b/c'];
    const keys = names.map((n) => `org/x/files/${keyPath(n)}`);
    for (const k of keys) expect(() => assertKey(k)).not.toThrow();
    expect(new Set(keys).size).toBe(names.length);
    expect(keySegment('a+b')).toBe('a+2Bb');
    const decode = (s: string) => Buffer.from(s.replace(/\+([0-9A-F]{2})|([^+])/g, (_, h, c) => (h ? `%${h}` : encodeURIComponent(c))).replace(/%([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
    expect(decode(keySegment('ﬁle (1).png'))).toBe('ﬁle (1).png');
  });

  it('asset file names are storage-safe and get an extension from the content type', () => {
    expect(assetFileName('https://x.test/media/intro%20video.mp4', 'mp4')).toBe('intro video.mp4');
    expect(assetFileName('https://x.test/download?id=1', 'pdf')).toBe('download.pdf');
    expect(assetFileName('https://x.test/', null)).toBe('file');
    expect(assetFileName('https://x.test/..%2F..%2Fetc%2Fpasswd', null)).toBe('etc_passwd');
    for (const n of ['https://x.test/%E2%80%AE.exe', 'https://x.test/a%00b']) expect(() => assertKey(`org/x/${assetFileName(n, null)}`)).not.toThrow();
  });
});

describe('manifests', () => {
  it('prefers the shallowest manifest', () => {
    const files = [{ name: 'deep/x/imsmanifest.xml' }, { name: 'top/tincan.xml' }, { name: 'top/imsmanifest.xml' }, { name: 'index.html' }];
    expect(pickManifest(files)!.name).toBe('top/imsmanifest.xml');
    expect(pickManifest([{ name: 'index.html' }])).toBeNull();
  });

  it('reads cmi5 course structures', () => {
    const xml = `<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
      <course id="c"><title><langstring lang="en-US">Cmi5 &amp; you</langstring></title></course>
      <au id="au1"><title><langstring lang="en-US">AU</langstring></title><url>index.html</url></au></courseStructure>`;
    expect(inspectManifest('cmi5.xml', Buffer.from(xml))).toEqual({ type: 'CMI5', version: null, title: 'Cmi5 & you', launch: 'index.html' });
  });

  it('recognises SCORM 2004 from its namespaces when schemaversion is missing, and refuses other manifests', () => {
    const v2004 = `<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"><organizations><organization identifier="o"><title>T</title></organization></organizations></manifest>`;
    expect(inspectManifest('imsmanifest.xml', Buffer.from(v2004))).toMatchObject({ type: 'SCORM', version: '2004', title: 'T' });
    expect(() => inspectManifest('imsmanifest.xml', Buffer.from('<manifest><organizations/></manifest>'))).toThrow(/neither a SCORM 1.2 nor a SCORM 2004/);
  });
});

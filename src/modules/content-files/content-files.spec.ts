import { inspectManifest, joinParameters, pickManifest, resolveLaunch } from './manifest';
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
    const decode = (s: string) =>
      Buffer.from(
        s.replace(/\+([0-9A-F]{2})|([^+])/g, (_, h, c) => (h ? `%${h}` : encodeURIComponent(c))).replace(/%([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))),
        'latin1',
      ).toString('utf8');
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
    expect(inspectManifest('cmi5.xml', Buffer.from(xml))).toEqual({
      type: 'CMI5',
      version: null,
      title: 'Cmi5 & you',
      launch: 'index.html',
      parameters: null,
      launchData: {
        activityId: 'au1',
        moveOn: 'NotApplicable',
        masteryScore: null,
        launchMethod: 'AnyWindow',
        courseId: 'c',
        items: [{ id: 'au1', title: 'AU', launch: 'index.html', parameters: null, moveOn: 'NotApplicable', masteryScore: null, launchMethod: 'AnyWindow' }],
      },
    });
    const withMastery = xml
      .replace('<au id="au1">', '<au id="https://x.test/au/1" moveOn="CompletedAndPassed" masteryScore="0.8" launchMethod="OwnWindow">')
      .replace('index.html', './au/../au1/start.html?x=1');
    expect(inspectManifest('cmi5.xml', Buffer.from(withMastery))).toMatchObject({
      launch: 'au1/start.html',
      parameters: 'x=1',
      launchData: { activityId: 'https://x.test/au/1', moveOn: 'CompletedAndPassed', masteryScore: 0.8, launchMethod: 'OwnWindow' },
    });
  });

  it('keeps every AU and block of a cmi5 course in course structure order, each naming its block, with its own moveOn and masteryScore', () => {
    const xml = `<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
      <course id="c"><title><langstring lang="en-US">C</langstring></title></course>
      <block id="b0"><title><langstring lang="en-US">Intro</langstring></title>
        <au id="au0" moveOn="Completed"><title><langstring lang="en-US">Zero</langstring></title><url>zero.html</url></au>
      </block>
      <au id="au1" moveOn="Completed"><title><langstring lang="en-US">One</langstring></title><url>one/index.html</url></au>
      <block id="b1"><title><langstring lang="en-US">B</langstring></title>
        <au id="au3"><title><langstring lang="en-US">Three</langstring></title><url>three.html</url></au>
        <block id="b2"><title><langstring lang="en-US">Inner</langstring></title>
          <au id="au4" moveOn="Passed"><title><langstring lang="en-US">Four</langstring></title><url>four.html</url></au>
        </block>
        <au id="au5"><title><langstring lang="en-US">Five</langstring></title><url>five.html</url></au>
      </block>
      <au id="au2" moveOn="Passed" masteryScore="0.5"><title><langstring lang="en-US">Two</langstring></title><url>two.html?x=1</url></au>
      </courseStructure>`;
    const info = inspectManifest('cmi5.xml', Buffer.from(xml));
    // the first AU of the course structure (inside a block) is the one launch_data describes
    expect(info).toMatchObject({ launch: 'zero.html', launchData: { activityId: 'au0', moveOn: 'Completed' } });
    const au = (id: string, title: string, launch: string, rest: Record<string, unknown> = {}) => ({
      id,
      title,
      launch,
      parameters: null,
      moveOn: 'NotApplicable',
      masteryScore: null,
      launchMethod: 'AnyWindow',
      ...rest,
    });
    expect(info.launchData?.items).toEqual([
      { id: 'b0', title: 'Intro', kind: 'block', launch: '', parameters: null },
      au('au0', 'Zero', 'zero.html', { block: 'b0', moveOn: 'Completed' }),
      au('au1', 'One', 'one/index.html', { moveOn: 'Completed' }),
      { id: 'b1', title: 'B', kind: 'block', launch: '', parameters: null },
      au('au3', 'Three', 'three.html', { block: 'b1' }),
      { id: 'b2', title: 'Inner', kind: 'block', block: 'b1', launch: '', parameters: null },
      au('au4', 'Four', 'four.html', { block: 'b2', moveOn: 'Passed' }),
      au('au5', 'Five', 'five.html', { block: 'b1' }),
      au('au2', 'Two', 'two.html', { parameters: 'x=1', moveOn: 'Passed', masteryScore: 0.5 }),
    ]);
  });

  it('recognises SCORM 2004 from its namespaces when schemaversion is missing, and refuses other manifests', () => {
    const v2004 = `<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"><organizations><organization identifier="o"><title>T</title></organization></organizations></manifest>`;
    expect(inspectManifest('imsmanifest.xml', Buffer.from(v2004))).toMatchObject({ type: 'SCORM', version: '2004', title: 'T' });
    expect(() => inspectManifest('imsmanifest.xml', Buffer.from('<manifest><organizations/></manifest>'))).toThrow(/neither a SCORM 1.2 nor a SCORM 2004/);
  });
});

describe('SCORM launch paths', () => {
  const manifest = (opts: { manifestBase?: string; resourcesBase?: string; resourceBase?: string; href: string; parameters?: string }) => {
    const attr = (name: string, v?: string) => (v === undefined ? '' : ` ${name}="${v}"`);
    return Buffer.from(`<?xml version="1.0"?>
<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:xml="http://www.w3.org/XML/1998/namespace"${attr('xml:base', opts.manifestBase)}>
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Course</title>
    <item identifier="folder"><title>Folder</title>
      <item identifier="i1" identifierref="r1"${attr('parameters', opts.parameters)}><title>SCO</title></item>
    </item>
  </organization></organizations>
  <resources${attr('xml:base', opts.resourcesBase)}>
    <resource identifier="r0" type="webcontent" href="other.html"/>
    <resource identifier="r1" type="webcontent" adlcp:scormType="sco" href="${opts.href}"${attr('xml:base', opts.resourceBase)}><file href="${opts.href}"/></resource>
  </resources>
</manifest>`);
  };
  const read = (opts: Parameters<typeof manifest>[0]) => inspectManifest('imsmanifest.xml', manifest(opts));

  it('keeps every item that names a resource with a file, nested ones too, in document order, SCOs and assets told apart', () => {
    const xml = `<?xml version="1.0"?>
<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Course</title>
    <item identifier="a" identifierref="r1" parameters="?p=a"><title>A</title></item>
    <item identifier="folder"><title>Folder</title>
      <item identifier="b" identifierref="r2"><title>B</title></item>
      <item identifier="c" identifierref="nofile"><title>C</title></item>
    </item>
    <item identifier="d" identifierref="r3"><title>D</title></item>
  </organization></organizations>
  <resources xml:base="res/">
    <resource identifier="r1" type="webcontent" adlcp:scormType="sco" href="a.html"/>
    <resource identifier="r2" type="webcontent" adlcp:scormType="sco" href="b/index.html?q=1"/>
    <resource identifier="nofile" type="webcontent" adlcp:scormType="asset"/>
    <resource identifier="r3" type="webcontent" adlcp:scormType="asset" href="d.pdf"/>
  </resources>
</manifest>`;
    expect(inspectManifest('imsmanifest.xml', Buffer.from(xml)).launchData?.items).toEqual([
      { id: 'a', title: 'A', launch: 'res/a.html', parameters: 'p=a', scormType: 'sco' },
      { id: 'b', title: 'B', launch: 'res/b/index.html', parameters: 'q=1', scormType: 'sco' },
      { id: 'd', title: 'D', launch: 'res/d.pdf', parameters: null, scormType: 'asset' },
    ]);
  });

  it('applies xml:base of the resources element, as 187 of ADL 189 conformance packages need', () => {
    expect(read({ resourcesBase: 'resources/', href: 'SCO1.html' })).toMatchObject({ launch: 'resources/SCO1.html', parameters: null, launchData: { item: 'i1' } });
  });

  it('applies xml:base at every level, outermost first, with or without trailing slashes', () => {
    expect(read({ manifestBase: 'course/', resourcesBase: 'res', resourceBase: 'sco1/', href: 'index.html' }).launch).toBe('course/res/sco1/index.html');
    expect(read({ manifestBase: 'course/', resourceBase: '/abs/', href: 'index.html' }).launch).toBe('abs/index.html');
    expect(read({ manifestBase: 'https://cdn.test/pkg/', href: 'index.html' }).launch).toBe('https://cdn.test/pkg/index.html');
  });

  it('normalises the path: ./, ../, duplicate slashes, percent escapes; never above the package folder', () => {
    expect(read({ href: './index.html' }).launch).toBe('index.html');
    expect(read({ resourcesBase: 'a/b/', href: '../c/./start%20here.html' }).launch).toBe('a/c/start here.html');
    expect(read({ href: '../../../etc/passwd' }).launch).toBe('etc/passwd');
    expect(read({ href: 'a//b.html#frag' }).launch).toBe('a/b.html');
  });

  it('keeps the href query and appends the item parameters (leading ? or & dropped)', () => {
    expect(read({ href: 'index.html', parameters: '?lesson=2&amp;mode=x' })).toMatchObject({ launch: 'index.html', parameters: 'lesson=2&mode=x' });
    expect(read({ href: 'index.html?a=1', parameters: '&amp;b=2' })).toMatchObject({ launch: 'index.html', parameters: 'a=1&b=2' });
    expect(read({ href: 'index.html?a=1' })).toMatchObject({ parameters: 'a=1' });
  });

  it("reads SCORM 2004 shared data maps per item (CAM defaults: read true, write false; each targetID once) and the organization's sharedDataGlobalToSystem", () => {
    const xml = (orgAttr: string, schema = '2004 4th Edition') => `<?xml version="1.0"?>
<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>${schema}</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"${orgAttr}><title>Course</title>
    <item identifier="a" identifierref="r1"><title>A</title>
      <adlcp:data>
        <adlcp:map targetID="urn:notes"/>
        <adlcp:map targetID="urn:scores" readSharedData="false" writeSharedData="true"/>
        <adlcp:map targetID="urn:flags" readSharedData="0" writeSharedData="1"/>
        <adlcp:map targetID="urn:notes" writeSharedData="true"/>
        <adlcp:map readSharedData="true"/>
        <adlcp:map targetID="urn:a&amp;b" writeSharedData="maybe"/>
      </adlcp:data>
    </item>
    <item identifier="b" identifierref="r1"><title>B</title></item>
  </organization></organizations>
  <resources><resource identifier="r1" type="webcontent" adlcp:scormType="sco" href="a.html"/></resources>
</manifest>`;
    const info = inspectManifest('imsmanifest.xml', Buffer.from(xml('')));
    expect(info.launchData?.items).toEqual([
      {
        id: 'a',
        title: 'A',
        launch: 'a.html',
        parameters: null,
        scormType: 'sco',
        data: [
          { targetId: 'urn:notes', read: true, write: false },
          { targetId: 'urn:scores', read: false, write: true },
          { targetId: 'urn:flags', read: false, write: true },
          { targetId: 'urn:a&b', read: true, write: false },
        ],
      },
      { id: 'b', title: 'B', launch: 'a.html', parameters: null, scormType: 'sco' },
    ]);
    // global to the system unless the organization says false
    expect(info.launchData?.sharedDataGlobalToSystem).toBe(true);
    expect(inspectManifest('imsmanifest.xml', Buffer.from(xml(' adlcp:sharedDataGlobalToSystem="false"'))).launchData?.sharedDataGlobalToSystem).toBe(false);
    // a package with no maps keeps neither
    const plain = inspectManifest('imsmanifest.xml', Buffer.from(xml('').replace(/<adlcp:data>[\s\S]*<\/adlcp:data>/, '')));
    expect(plain.launchData).not.toHaveProperty('sharedDataGlobalToSystem');
    expect(plain.launchData?.items?.[0]).not.toHaveProperty('data');
    // SCORM 1.2 has no shared data
    expect(inspectManifest('imsmanifest.xml', Buffer.from(xml('', '1.2'))).launchData?.items?.[0]).not.toHaveProperty('data');
  });

  it('resolveLaunch and joinParameters on their own', () => {
    expect(resolveLaunch(['x/', null, 'y'], 'z.html')).toEqual({ path: 'x/y/z.html', query: null });
    expect(resolveLaunch([], '   ')).toBeNull();
    expect(joinParameters(null, '#only-a-fragment')).toBeNull();
    expect(joinParameters(null, '?a=1')).toBe('a=1');
  });
});

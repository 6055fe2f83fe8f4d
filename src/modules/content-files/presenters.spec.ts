import { declaredViolations } from '../../../test/support/declared-validator';
import type { AppConfig } from '../../core/config/config';
import { Asset, WebPackage } from './entities';
import { AssetV1Schema, presentAsset, presentWebPackage, WebPackageV1Schema } from './presenters';

const config = { SIGNED_URL_TTL: 3600, APP_SECRET: 's'.repeat(32) } as AppConfig;
const read = { withDownload: true, baseUrl: 'http://api.test' } as const;
const list = { withDownload: false } as const;

const asset = (over: Partial<Asset>): Asset =>
  Object.assign(new Asset(), {
    id: '0f0e2d3c-4b5a-4697-8877-665544332211',
    name: 'Handbook',
    type: null,
    sourceUrl: 'https://files.example.com/h.pdf',
    embedLinkUrl: null,
    aspectRatio: '16:9',
    storageKey: null,
    contentType: null,
    syncCompletion: false,
    state: 'PROCESSING',
    failureReason: null,
    sizeBytes: null,
    ...over,
  });

const pkg = (over: Partial<WebPackage>): WebPackage =>
  Object.assign(new WebPackage(), {
    id: '11111111-2222-4333-8444-555555555555',
    title: 'SCORM course',
    type: null,
    standardVersion: null,
    redirectOnCompletion: true,
    sourceUrl: 'https://files.example.com/p.zip',
    storagePrefix: 'org/web-packages/1',
    syncCompletion: true,
    state: 'PROCESSING',
    failureReason: null,
    sizeBytes: null,
    ...over,
  });

describe('the /v1 content file presenters against their declarations', () => {
  it('an asset in every state, listed and read, is what AssetV1Schema declares', () => {
    const assets = [
      asset({}),
      asset({ state: 'READY', type: 'PDF', storageKey: 'org/assets/1/h.pdf', contentType: 'application/pdf' }),
      asset({ state: 'READY', type: 'HTML', embedLinkUrl: 'https://video.example.com/e/1', sourceUrl: null }),
      asset({ state: 'FAILED', failureReason: 'The file could not be fetched.' }),
    ];
    for (const a of assets) for (const o of [list, read]) expect(declaredViolations(AssetV1Schema, JSON.parse(JSON.stringify(presentAsset(a, config, o))))).toEqual([]);
    const processing = presentAsset(assets[0], config, read);
    for (const m of ['type', 'embed_link_url', 'download_url']) expect(processing).not.toHaveProperty(m);
    expect(presentAsset(assets[1], config, read).download_url).toMatch(/^http:\/\/api\.test\/files\//);
  });

  it('a web package in every state, listed and read, is what WebPackageV1Schema declares', () => {
    const packages = [pkg({}), pkg({ state: 'READY', type: 'SCORM', standardVersion: '1.2' }), pkg({ state: 'READY', type: 'XAPI' }), pkg({ state: 'FAILED', failureReason: 'Not a zip.' })];
    for (const w of packages) for (const o of [list, read]) expect(declaredViolations(WebPackageV1Schema, JSON.parse(JSON.stringify(presentWebPackage(w, config, o))))).toEqual([]);
    expect(presentWebPackage(packages[0], config, read)).not.toHaveProperty('download_url');
    expect(presentWebPackage(packages[1], config, read)).toMatchObject({ type: 'SCORM', standard_version: '1.2', download_url: expect.stringMatching(/package\.zip/) });
  });
});

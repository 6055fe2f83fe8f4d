import { Type, type Static } from '@sinclair/typebox';
import { AppConfig } from '../../core/config/config';
import { encodeId } from '../../core/ids/ids';
import { declaredV1, ext, nullable, PublicId, StringEnum } from '../../core/openapi/declared-shape';
import { signedFileUrl } from '../../core/storage/storage';
import { Asset, ASSET_TYPES, packageZipKey, WebPackage } from './entities';

/** Where the worker's import stands, and why it failed: extensions so a caller can see an import that failed. */
const IMPORT_STATES = ['PROCESSING', 'READY', 'FAILED'] as const;
const importMembers = () => ({
  state: StringEnum(IMPORT_STATES, ext({ description: "Where the worker's import stands." })),
  failure_reason: nullable(Type.String(ext({ description: 'Why the import failed (state FAILED); null otherwise.' }))),
});

/**
 * /v1 Asset, declared once (core/openapi/declared-shape.ts). `type` appears once known (at once for
 * embed links, after the import for files); `embed_link_url` only for an embed link; `download_url`
 * (signed, SIGNED_URL_TTL) only on read and only once the file is stored (all optional, not nullable
 * in the published Asset). `state` and `failure_reason` are additions.
 */
export const AssetV1Schema = declaredV1(
  'Asset',
  Type.Object({
    id: PublicId(),
    name: Type.String(),
    type: Type.Optional(StringEnum(ASSET_TYPES)),
    embed_link_url: Type.Optional(Type.String()),
    aspect_ratio: StringEnum(['16:9', '4:3'] as const),
    sync_completion: Type.Boolean(),
    ...importMembers(),
    download_url: Type.Optional(Type.String()),
  }),
);

export function presentAsset(a: Asset, config: AppConfig, opts: { withDownload: false } | { withDownload: true; baseUrl: string }): Static<typeof AssetV1Schema> {
  return {
    id: encodeId('asset', a.id),
    name: a.name,
    ...(a.type ? { type: a.type } : {}),
    ...(a.embedLinkUrl ? { embed_link_url: a.embedLinkUrl } : {}), // left out without one (optional, not nullable in the published Asset)
    aspect_ratio: a.aspectRatio,
    sync_completion: a.syncCompletion,
    state: a.state,
    failure_reason: a.state === 'FAILED' ? a.failureReason : null,
    ...(opts.withDownload && a.state === 'READY' && a.storageKey ? { download_url: signedFileUrl(config, a.storageKey, opts.baseUrl) } : {}),
  };
}

/**
 * /v1 WebPackage (WebPackageSummary on lists), declared once. While PROCESSING (and when FAILED)
 * `type` and `download_url` are left out; READY adds them (download_url on read only: the signed URL
 * of the original zip). `standard_version` ("1.2", "2004 4th Edition", ...) tells SCORM 1.2 from
 * SCORM 2004.
 */
export const WebPackageV1Schema = declaredV1(
  ['WebPackage', 'WebPackageSummary'],
  Type.Object({
    id: PublicId(),
    title: Type.String(ext()),
    state: StringEnum(IMPORT_STATES, { description: 'PROCESSING while the worker fetches and checks the package, READY once usable, FAILED (see failure_reason).' }),
    type: Type.Optional(StringEnum(['SCORM', 'XAPI', 'CMI5'] as const)),
    standard_version: Type.Optional(nullable(Type.String(ext({ description: 'The SCORM version ("1.2", "2004 4th Edition", ...), once READY; null when the package names none.' })))),
    redirect_on_completion: Type.Boolean(),
    sync_completion: Type.Boolean(),
    failure_reason: importMembers().failure_reason,
    download_url: Type.Optional(Type.String()),
  }),
);

export function presentWebPackage(w: WebPackage, config: AppConfig, opts: { withDownload: false } | { withDownload: true; baseUrl: string }): Static<typeof WebPackageV1Schema> {
  const ready = w.state === 'READY';
  return {
    id: encodeId('webPackage', w.id),
    title: w.title,
    state: w.state,
    ...(ready && w.type ? { type: w.type, standard_version: w.standardVersion } : {}),
    redirect_on_completion: w.redirectOnCompletion,
    sync_completion: w.syncCompletion,
    failure_reason: w.state === 'FAILED' ? w.failureReason : null,
    ...(opts.withDownload && ready ? { download_url: signedFileUrl(config, packageZipKey(w.storagePrefix), opts.baseUrl) } : {}),
  };
}

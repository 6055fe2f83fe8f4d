import { AppConfig } from '../../core/config/config';
import { encodeId } from '../../core/ids/ids';
import { signedFileUrl } from '../../core/storage/storage';
import { Asset, packageZipKey, WebPackage } from './entities';

/**
 * /v1 Asset. `type` appears once known (at once for embed links, after the import for files);
 * `download_url` (signed, SIGNED_URL_TTL) only on read and only once the file is stored. `state`
 * and `failure_reason` are additions so a caller can see an import that failed.
 */
export function presentAsset(a: Asset, config: AppConfig, opts: { withDownload: false } | { withDownload: true; baseUrl: string }) {
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
 * /v1 WebPackage (summary on lists). While PROCESSING (and when FAILED) `type` and `download_url`
 * are left out; READY adds them (download_url on read only: the signed URL of the original zip).
 * `standard_version` ("1.2", "2004 4th Edition", ...) tells SCORM 1.2 from SCORM 2004.
 */
export function presentWebPackage(w: WebPackage, config: AppConfig, opts: { withDownload: false } | { withDownload: true; baseUrl: string }) {
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

import { v2Resource } from '../../core/http/v2-resource-kit';
import type { Asset } from './entities';

/**
 * AssetResource of the live /v2 (CONVENTIONS §17, the /v1 Asset in the /v2 style of §4): `type`
 * (AssetTypeEnum) is null until the import knows it, `state` PROCESSING / READY / ERROR (the stored
 * FAILED, as web packages answer it), `failure_reason` only with ERROR, `embed_link_url` null
 * without one. No download URL (the /v1 read signs one).
 */
export function presentAssetV2(a: Asset, baseUrl: string) {
  const state = a.state === 'FAILED' ? 'ERROR' : a.state;
  return v2Resource('assets', 'asset', a.id, baseUrl, {
    name: a.name,
    type: a.type,
    state,
    embed_link_url: a.embedLinkUrl,
    aspect_ratio: a.aspectRatio,
    sync_completion: a.syncCompletion,
    failure_reason: state === 'ERROR' ? a.failureReason : null,
    created_at: a.createdAt.toISOString(),
    modified_at: a.updatedAt.toISOString(),
  });
}

export type AssetResourceV2 = ReturnType<typeof presentAssetV2>;

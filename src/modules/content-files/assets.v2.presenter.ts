import { v2Resource } from '../../core/http/v2-resource-kit';
import { v2ResourceSchema } from '../../core/openapi/v2-answer-schemas';
import { ASSET_TYPES, type Asset } from './entities';

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

/** The JSON schema of presentAssetV2's resource, for the /v2/assets answers. */
export const ASSET_V2_SCHEMA = v2ResourceSchema({
  type: 'assets',
  description: 'An asset (AssetResource).',
  attributes: {
    name: { type: 'string', description: 'Name of the asset.' },
    type: { type: 'string', enum: [...ASSET_TYPES], nullable: true, description: 'AssetTypeEnum; null until the import knows it.' },
    state: { type: 'string', enum: ['PROCESSING', 'READY', 'ERROR'], description: 'PROCESSING while a content_url is imported, READY once usable, ERROR if the import failed.' },
    embed_link_url: { type: 'string', nullable: true, description: 'The embed link of an embed-link asset; null otherwise.' },
    aspect_ratio: { type: 'string', enum: ['16:9', '4:3'], description: 'Display aspect ratio.' },
    sync_completion: { type: 'boolean', description: 'Whether completion is synced from the embedded content.' },
    failure_reason: { type: 'string', nullable: true, description: 'Why the import failed; null unless state is ERROR.' },
    created_at: { type: 'string', format: 'date-time', description: 'When the asset was created.' },
    modified_at: { type: 'string', format: 'date-time', description: 'When the asset was last modified.' },
  },
});

export type AssetResourceV2 = ReturnType<typeof presentAssetV2>;

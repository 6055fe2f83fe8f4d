import { Type, type Static } from '@sinclair/typebox';
import { v2Resource } from '../../core/http/v2-resource-kit';
import { DateTime, nullable, NullableStringEnum, StringEnum, V2ResourceSchema } from '../../core/openapi/declared-shape';
import { ASSET_TYPES, type Asset } from './entities';

/**
 * AssetResource of the live /v2 (CONVENTIONS §17), declared once (core/openapi/declared-shape.ts):
 * the type of presentAssetV2's result and the /v2/assets answers of /openapi.json.
 */
export const AssetV2Schema = V2ResourceSchema(
  'assets',
  Type.Object({
    name: Type.String({ description: 'Name of the asset.' }),
    type: NullableStringEnum(ASSET_TYPES, { description: 'AssetTypeEnum; null until the import knows it.' }),
    state: StringEnum(['PROCESSING', 'READY', 'ERROR'], { description: 'PROCESSING while a content_url is imported, READY once usable, ERROR if the import failed.' }),
    embed_link_url: nullable(Type.String({ description: 'The embed link of an embed-link asset; null otherwise.' })),
    aspect_ratio: StringEnum(['16:9', '4:3'], { description: 'Display aspect ratio.' }),
    sync_completion: Type.Boolean({ description: 'Whether completion is synced from the embedded content.' }),
    failure_reason: nullable(Type.String({ description: 'Why the import failed; null unless state is ERROR.' })),
    created_at: DateTime({ description: 'When the asset was created.' }),
    modified_at: DateTime({ description: 'When the asset was last modified.' }),
  }),
  { description: 'An asset (AssetResource).' },
);
export type AssetResourceV2 = Static<typeof AssetV2Schema>;

/**
 * AssetResource of the live /v2 (CONVENTIONS §17, the /v1 Asset in the /v2 style of §4): `type`
 * (AssetTypeEnum) is null until the import knows it, `state` PROCESSING / READY / ERROR (the stored
 * FAILED, as web packages answer it), `failure_reason` only with ERROR, `embed_link_url` null
 * without one. No download URL (the /v1 read signs one).
 */
export function presentAssetV2(a: Asset, baseUrl: string): AssetResourceV2 {
  const state = a.state === 'FAILED' ? 'ERROR' : a.state;
  return v2Resource<'assets', AssetResourceV2['attributes']>('assets', 'asset', a.id, baseUrl, {
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

import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { DateTime, declaredV2, StringEnum, V2ResourceSchema } from '../../core/openapi/declared-shape';
import { packageFilesPrefix, WebPackage } from './entities';

/**
 * WebPackageResource of the published /v2 document, declared once (core/openapi/declared-shape.ts):
 * the type of presentWebPackageV2's result.
 */
export const WebPackageResourceSchema = declaredV2(
  'WebPackageResource',
  V2ResourceSchema(
    'web-packages',
    Type.Object({
      type: Type.String({ description: 'Package format: SCORM, SCORM_2004, XAPI or CMI5; "" until the import has read the manifest.' }),
      state: StringEnum(['PROCESSING', 'READY', 'ERROR'], { description: 'PROCESSING while the package is fetched and unpacked, READY once usable, ERROR if it could not be processed.' }),
      title: Type.String(),
      display_name: Type.String({ description: 'The title once READY, else "<STATE>: <archive file name>".' }),
      base_path: Type.String({ description: 'Where the unpacked files are stored.' }),
      created_at: DateTime(),
      modified_at: DateTime(),
    }),
    { description: 'A web package (WebPackageResource).' },
  ),
);
export type WebPackageResource = Static<typeof WebPackageResourceSchema>;

/** The published `type`: SCORM 1.2 is SCORM, SCORM 2004 (any edition) SCORM_2004; "" until the import has read the manifest. */
function packageType(w: WebPackage): string {
  if (!w.type) return '';
  if (w.type === 'SCORM' && w.standardVersion?.startsWith('2004')) return 'SCORM_2004';
  return w.type;
}

/** The archive's file name, from the last segment of its source URL. */
function archiveName(sourceUrl: string): string {
  try {
    const last = new URL(sourceUrl).pathname.split('/').filter(Boolean).pop() ?? '';
    return decodeURIComponent(last) || sourceUrl;
  } catch {
    return sourceUrl;
  }
}

/**
 * WebPackageResource. `state` is PROCESSING, READY or ERROR (the stored FAILED); `display_name` is
 * the title once READY, else "<STATE>: <archive file name>" (as published: a title change shows
 * there only once the package is READY); `base_path` is where the unpacked files are stored.
 */
export function presentWebPackageV2(w: WebPackage, baseUrl: string): WebPackageResource {
  const id = encodeId('webPackage', w.id);
  const state = w.state === 'FAILED' ? 'ERROR' : w.state;
  return {
    type: 'web-packages',
    id,
    attributes: {
      type: packageType(w),
      state,
      title: w.title,
      display_name: state === 'READY' ? w.title : `${state}: ${archiveName(w.sourceUrl)}`,
      base_path: packageFilesPrefix(w.storagePrefix),
      created_at: w.createdAt.toISOString(),
      modified_at: w.updatedAt.toISOString(),
    },
    links: { self: `${baseUrl.replace(/\/$/, '')}/v2/web-packages/${id}` },
  };
}

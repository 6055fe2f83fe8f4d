import { Type, type Static } from '@sinclair/typebox';
import type { AppConfig } from '../../core/config/config';
import { encodeId } from '../../core/ids/ids';
import { DateTime, nullable, StringEnum, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';
import { signedFileUrl } from '../../core/storage/storage';
import { EXPORT_RESOURCE_NAMES } from './export-resources';
import type { ExportRow } from './exports.store';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const num = (v: string | number | null) => (v === null ? null : Number(v));

/** The export resource (CONVENTIONS §20), declared once (core/openapi/declared-shape.ts): presentExport's type and the /v2/exports answers of /openapi.json. */
export const ExportSchema = V2UnlinkedResourceSchema(
  'exports',
  Type.Object({
    resource: StringEnum(EXPORT_RESOURCE_NAMES),
    format: StringEnum(['csv', 'ndjson']),
    filter: Type.Object({ updated_since: Type.Optional(DateTime()) }),
    state: StringEnum(['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'EXPIRED']),
    rows_done: Type.Integer(),
    rows_total: nullable(Type.Integer({ description: 'null until counted' })),
    file_size: nullable(Type.Integer({ description: 'Bytes; null until written' })),
    download_url: nullable(Type.String({ format: 'uri', description: 'Signed, valid 3600 s; null unless SUCCEEDED and not expired' })),
    error: nullable(Type.String()),
    created_at: DateTime(),
    started_at: nullable(DateTime()),
    finished_at: nullable(DateTime()),
    expires_at: nullable(DateTime()),
  }),
);
export type ExportResource = Static<typeof ExportSchema>;

/** An export as a /v2 resource; `download_url` (signed, valid 3600 s, CONVENTIONS §7) once it has SUCCEEDED and until it expires. */
export function presentExport(r: ExportRow, config: AppConfig, baseUrl: string): ExportResource {
  const ready = r.state === 'SUCCEEDED' && r.file_key && r.expires_at && new Date(r.expires_at).getTime() > Date.now();
  return {
    type: 'exports',
    id: encodeId('dataExport', r.id),
    attributes: {
      resource: r.resource,
      format: r.format,
      filter: r.filter ?? {},
      state: r.state,
      rows_done: num(r.rows_done) ?? 0,
      rows_total: num(r.rows_total),
      file_size: num(r.file_size),
      download_url: ready ? signedFileUrl(config, r.file_key!, baseUrl) : null,
      error: r.error,
      created_at: new Date(r.created_at).toISOString(),
      started_at: iso(r.started_at),
      finished_at: iso(r.finished_at),
      expires_at: iso(r.expires_at),
    },
  };
}

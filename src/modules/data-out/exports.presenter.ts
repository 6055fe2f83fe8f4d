import type { AppConfig } from '../../core/config/config';
import { encodeId } from '../../core/ids/ids';
import { signedFileUrl } from '../../core/storage/storage';
import type { ExportRow } from './exports.store';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const num = (v: string | number | null) => (v === null ? null : Number(v));

/** An export as a /v2 resource; `download_url` (signed, valid 3600 s, CONVENTIONS §7) once it has SUCCEEDED and until it expires. */
export function presentExport(r: ExportRow, config: AppConfig, baseUrl: string) {
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
      created_at: iso(r.created_at),
      started_at: iso(r.started_at),
      finished_at: iso(r.finished_at),
      expires_at: iso(r.expires_at),
    },
  };
}

import type { AppConfig } from '../../core/config/config';
import { encodeId } from '../../core/ids/ids';
import { signedFileUrl } from '../../core/storage/storage';
import { EXPORT_RESOURCE_NAMES } from './export-resources';
import type { ExportRow } from './exports.store';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const num = (v: string | number | null) => (v === null ? null : Number(v));

const dateTime = { type: 'string', format: 'date-time' };
const orNull = (s: object) => ({ ...s, nullable: true });

/** What presentExport answers (declared for the OpenAPI document). */
export const EXPORT_SCHEMA = {
  type: 'object',
  required: ['type', 'id', 'attributes'],
  properties: {
    type: { type: 'string', enum: ['exports'] },
    id: { type: 'string' },
    attributes: {
      type: 'object',
      required: ['resource', 'format', 'filter', 'state', 'rows_done', 'rows_total', 'file_size', 'download_url', 'error', 'created_at', 'started_at', 'finished_at', 'expires_at'],
      properties: {
        resource: { type: 'string', enum: EXPORT_RESOURCE_NAMES },
        format: { type: 'string', enum: ['csv', 'ndjson'] },
        filter: { type: 'object', properties: { updated_since: { type: 'string', format: 'date-time' } } },
        state: { type: 'string', enum: ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'EXPIRED'] },
        rows_done: { type: 'integer' },
        rows_total: orNull({ type: 'integer', description: 'null until counted' }),
        file_size: orNull({ type: 'integer', description: 'Bytes; null until written' }),
        download_url: orNull({ type: 'string', format: 'uri', description: 'Signed, valid 3600 s; null unless SUCCEEDED and not expired' }),
        error: orNull({ type: 'string' }),
        created_at: dateTime,
        started_at: orNull(dateTime),
        finished_at: orNull(dateTime),
        expires_at: orNull(dateTime),
      },
    },
  },
};

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

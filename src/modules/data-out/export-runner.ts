import { Injectable, Logger } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool } from 'pg';
import QueryStream from 'pg-query-stream';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../core/config/config';
import { FileStorage } from '../../core/storage/storage';
import { EXPORT_TYPES, exportHeader, exportQuery, exportValues } from './export-resources';
import { expiredExports, failExport, finishExport, markExpired, setProgress, startExport, staleExports } from './exports.store';

/** Rows fetched per round trip of the cursor (pg-query-stream): the worker holds at most this many rows at a time, plus the streams' buffers. */
export const EXPORT_BATCH_ROWS = 2000;
/** rows_done is written at most this often while an export runs. */
const PROGRESS_EVERY_MS = 1000;

/**
 * Runs one export (worker process; docs/decisions/data-out.md). In one REPEATABLE READ, READ ONLY
 * transaction (so `rows_total` and the rows written agree): count, then a server-side cursor
 * (pg-query-stream) read EXPORT_BATCH_ROWS at a time, each row made into the export's values (public
 * ids, ISO times), then CSV (csv-stringify: RFC 4180 quoting, CRLF, header row, UTF-8 with a BOM so
 * spreadsheets read it as UTF-8) or NDJSON, piped into storage with back-pressure: memory does not
 * grow with the number of rows. rows_done is written every second.
 */
@Injectable()
export class ExportRunner {
  private readonly logger = new Logger(ExportRunner.name);

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly storage: FileStorage,
  ) {}

  private get pool(): Pool {
    return (this.ds.driver as unknown as { master: Pool }).master;
  }

  async run(organizationId: string, exportId: string): Promise<void> {
    const row = await startExport(this.ds, organizationId, exportId);
    if (!row) return; // finished, failed or expired meanwhile
    const key = `exports/${organizationId}/${exportId}.${row.format}`;
    const { text, count, values } = exportQuery(row.resource, row.filter ?? {});
    values[0] = organizationId;
    const client = await this.pool.connect();
    let done = 0;
    let bytes = 0;
    let timer: NodeJS.Timeout | undefined;
    let writing: Promise<void> = Promise.resolve();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const [{ n }] = (await client.query(count, values)).rows;
      const total = Number(n);
      await setProgress(this.ds, organizationId, exportId, 0, total);
      timer = setInterval(() => {
        writing = writing.then(() => setProgress(this.ds, organizationId, exportId, done)).catch(() => undefined);
      }, PROGRESS_EVERY_MS);

      const rows = client.query(new QueryStream(text, values, { batchSize: EXPORT_BATCH_ROWS, rowMode: 'array', types: EXPORT_TYPES }));
      const toValues = exportValues(row.resource);
      const header = exportHeader(row.resource);
      const encode =
        row.format === 'csv'
          ? stringify({ header: true, columns: header, bom: true, record_delimiter: 'windows', cast: { boolean: (v) => (v ? 'true' : 'false') } })
          : new Transform({
              writableObjectMode: true,
              transform(vals: unknown[], _enc, cb) {
                const o: Record<string, unknown> = {};
                for (let i = 0; i < header.length; i++) o[header[i]] = vals[i];
                cb(null, JSON.stringify(o) + '\n');
              },
            });
      const shape = new Transform({
        objectMode: true,
        transform(r: unknown[], _enc, cb) {
          done++;
          cb(null, toValues(r));
        },
      });
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          bytes += chunk.length;
          cb(null, chunk);
        },
      });
      const out = new PassThrough();
      await Promise.all([pipeline(rows, shape, encode, counter, out), this.storage.putStream(key, out, row.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson')]);
      await client.query('COMMIT');
      clearInterval(timer);
      timer = undefined;
      await writing;
      await finishExport(this.ds, organizationId, exportId, done, key, bytes, this.config.EXPORT_RETENTION_HOURS);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      this.logger.error({ msg: 'export failed', exportId, err: (err as Error).message });
      if (timer) clearInterval(timer);
      await writing;
      await this.storage.deletePrefix(key).catch(() => undefined);
      await failExport(this.ds, organizationId, exportId, 'The export could not be written; create it again.');
    } finally {
      client.release();
    }
  }

  /** Delete the files of expired exports (state EXPIRED, no download_url any more). */
  async expire(limit = 200): Promise<number> {
    const rows = await expiredExports(this.ds, limit);
    const gone: string[] = [];
    for (const r of rows) {
      try {
        if (r.file_key) await this.storage.deletePrefix(r.file_key);
        gone.push(r.id);
      } catch (err) {
        this.logger.warn({ msg: 'could not delete an expired export file', exportId: r.id, err: (err as Error).message });
      }
    }
    await markExpired(this.ds, gone);
    return gone.length;
  }

  stale(seconds: number, limit = 200) {
    return staleExports(this.ds, seconds, limit);
  }
}

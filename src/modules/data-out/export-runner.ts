import { Injectable, Logger } from '@nestjs/common';
import { driverPool } from '../../core/database/pool-reads';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Pool } from 'pg';
import Cursor from 'pg-cursor';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../core/config/config';
import { FileStorage } from '../../core/storage/storage';
import { csvField, csvRecordOfSegments, EXPORT_TYPES, exportHeader, exportQuery, exportValues } from './export-resources';
import { expiredExports, failExport, finishExport, markExpired, setProgress, startExport, staleExports } from './exports.store';

/** Rows fetched per round trip of the cursor (pg-cursor): the worker holds at most two batches at a time, plus the file stream's buffer. */
export const EXPORT_BATCH_ROWS = 2000;
/** rows_done is written at most this often while an export runs. */
const PROGRESS_EVERY_MS = 1000;

const read = (cursor: Cursor, n: number) => new Promise<unknown[][]>((resolve, reject) => cursor.read(n, (err: Error | undefined, rows: unknown[][]) => (err ? reject(err) : resolve(rows))));

/** Write a chunk, waiting for the stream to drain when its buffer is full; answers the bytes written. */
async function write(out: PassThrough, chunk: string): Promise<number> {
  const buf = Buffer.from(chunk, 'utf8');
  if (!out.write(buf)) await once(out, 'drain');
  return buf.length;
}

/**
 * Runs one export (worker process; docs/decisions/data-out.md). In one REPEATABLE READ, READ ONLY
 * transaction (so `rows_total` and the rows written agree): count, then a server-side cursor
 * (pg-cursor) read EXPORT_BATCH_ROWS at a time, each batch made into the export's values (public
 * ids, ISO times), then CSV (RFC 4180 quoting, CRLF, a header row, UTF-8 with a BOM so spreadsheets
 * read it as UTF-8: runs of times, booleans and text come as CSV text made by PostgreSQL, the rest
 * through csvRecord's writers, checked against csv-stringify) or NDJSON, written into storage with
 * back-pressure (the next batch waits for the file to drain): memory does not grow with the number
 * of rows. rows_done is written every second.
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
    return driverPool(this.ds) as unknown as Pool;
  }

  async run(organizationId: string, exportId: string): Promise<void> {
    const row = await startExport(this.ds, organizationId, exportId);
    if (!row) return; // finished, failed or expired meanwhile
    const key = `exports/${organizationId}/${exportId}.${row.format}`;
    const { text, count, values } = exportQuery(organizationId, row.resource, row.filter ?? {}, row.format === 'csv' ? 'csv' : 'columns');
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

      const cursor = client.query(new Cursor(text, values, { rowMode: 'array', types: EXPORT_TYPES }));
      const toValues = exportValues(row.resource);
      const toCsv = row.format === 'csv' ? csvRecordOfSegments(row.resource) : null;
      const header = exportHeader(row.resource);
      const out = new PassThrough({ highWaterMark: 1 << 20 });
      const stored = this.storage.putStream(key, out, row.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson');
      let failed: unknown = null;
      stored.catch((err) => (failed = err));
      try {
        if (row.format === 'csv') {
          // the header row (RFC 4180), after a UTF-8 BOM so that spreadsheets read the file as UTF-8
          bytes += await write(out, '\ufeff' + header.map(csvField).join(',') + '\r\n');
        }
        // one batch in memory at a time; the next batch is asked for before this one is written
        const ask = () => {
          const p = read(cursor, EXPORT_BATCH_ROWS);
          p.catch(() => undefined); // awaited below; a read left pending by a failed write must not crash the process
          return p;
        };
        let next = ask();
        for (;;) {
          const batch = await next;
          if (!batch.length) break;
          next = ask();
          let chunk = '';
          if (toCsv) for (const r of batch) chunk += toCsv(r);
          else {
            for (const r of batch) {
              const vals = toValues(r);
              const o: Record<string, unknown> = {};
              for (let i = 0; i < header.length; i++) o[header[i]] = vals[i];
              chunk += JSON.stringify(o) + '\n';
            }
          }
          if (failed) throw failed;
          bytes += await write(out, chunk);
          done += batch.length;
        }
        await new Promise<void>((resolve) => cursor.close(() => resolve()));
      } finally {
        out.end();
      }
      await stored;
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

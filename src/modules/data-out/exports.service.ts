import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import { addWithin } from '../../core/queue/enqueue';
import { DataExportJob, QUEUES } from '../../core/queue/queues';
import { dateTimeParam } from '../../core/http/query-params';
import { EXPORT_RESOURCE_NAMES, EXPORT_RESOURCES, ExportFilter, ExportResourceName } from './export-resources';
import { ExportRow, findExport, insertExport, listExports } from './exports.store';

const problem = (member: string, message: string) => new ValidationFailed([{ pointer: `/${member}`, field: member, message }]);

export const exportJobOptions = (exportId: string) => ({ jobId: `export-${exportId}`, attempts: 3, backoff: { type: 'exponential', delay: 5000 }, removeOnComplete: 100, removeOnFail: 100 });

/** POST /v2/exports/ and its reads (API process): the row is the truth, the worker runs it. */
@Injectable()
export class ExportsService {
  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    @InjectQueue(QUEUES.dataExports) private readonly queue: Queue<DataExportJob>,
  ) {}

  /** Body `{resource, format, filter?}` (bare, or JSON:API `{data: {type: "exports", attributes}}`): every bad member is 422 naming it. */
  async create(p: Principal, body: unknown): Promise<ExportRow> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw problem('resource', 'the body must be an object {resource, format, filter}');
    let b = body as Record<string, unknown>;
    if (b.data && typeof b.data === 'object' && !Array.isArray(b.data) && (b.data as Record<string, unknown>).attributes) {
      b = (b.data as Record<string, unknown>).attributes as Record<string, unknown>;
      if (!b || typeof b !== 'object') throw problem('data/attributes', 'must be an object');
    }
    const resource = b.resource;
    if (typeof resource !== 'string') throw problem('resource', `is required: one of ${EXPORT_RESOURCE_NAMES.join(', ')}`);
    if (!(EXPORT_RESOURCE_NAMES as string[]).includes(resource)) throw problem('resource', `must be one of ${EXPORT_RESOURCE_NAMES.join(', ')}`);
    const format = b.format ?? 'csv';
    if (format !== 'csv' && format !== 'ndjson') throw problem('format', 'must be csv or ndjson');
    const filter: ExportFilter = {};
    if (b.filter !== undefined && b.filter !== null) {
      if (typeof b.filter !== 'object' || Array.isArray(b.filter)) throw problem('filter', 'must be an object');
      for (const [k, v] of Object.entries(b.filter as Record<string, unknown>)) {
        if (k !== 'updated_since' || !EXPORT_RESOURCES[resource as ExportResourceName].updatedSince) {
          throw problem(`filter/${k}`, `is not a filter of ${resource}${EXPORT_RESOURCES[resource as ExportResourceName].updatedSince ? ' (updated_since is)' : ''}`);
        }
        let since: Date | undefined;
        try {
          since = dateTimeParam({ updated_since: v }, 'updated_since', true);
        } catch {
          throw problem('filter/updated_since', 'must be an RFC 3339 date-time with an offset, e.g. 2026-01-01T00:00:00Z');
        }
        if (since) filter.updated_since = since.toISOString();
      }
    }
    const row = await insertExport(this.ds, p.organizationId, resource as ExportResourceName, format, filter);
    // the row is saved: a job Redis did not take in time is queued by the worker's sweeper
    await addWithin(this.queue, 'export', { kind: 'export', organizationId: p.organizationId, exportId: row.id }, exportJobOptions(row.id), this.config.ENQUEUE_TIMEOUT_MS);
    return row;
  }

  async get(p: Principal, publicId: string): Promise<ExportRow> {
    const id = decodeId('dataExport', publicId);
    const row = id ? await findExport(this.ds, p.organizationId, id) : null;
    if (!row) throw notFound('Export not found.');
    return row;
  }

  list(p: Principal, after: { t: string; id: string } | undefined, limit: number, since?: Date): Promise<ExportRow[]> {
    return listExports(this.ds, p.organizationId, after, limit, since);
  }
}

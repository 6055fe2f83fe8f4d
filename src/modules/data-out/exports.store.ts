import type { DataSource } from 'typeorm';
import { scoped, unscoped } from '../../core/database/scoped';
import type { ExportFilter, ExportResourceName } from './export-resources';

/** data_exports (owner: modules/data-out): one export, its state, counts and file. */
export type ExportState = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'EXPIRED';

/** A data_exports row as pg answers it. @table data_exports */
export interface ExportRow {
  id: string;
  organization_id: string;
  resource: ExportResourceName;
  format: 'csv' | 'ndjson';
  filter: ExportFilter;
  state: ExportState;
  /** bigint: pg answers it as text */
  rows_done: string;
  rows_total: string | null;
  file_key: string | null;
  file_size: string | null;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A row as the statements below answer it: the columns, and created_at again as the keyset position of a list. */
export type ExportRowRead = ExportRow & { createdAt?: Date };

const COLUMNS = `id, organization_id, resource, format, filter, state, rows_done, rows_total, file_key, file_size, error, started_at, finished_at, expires_at, created_at, updated_at, created_at AS "createdAt"`;

export async function insertExport(ds: DataSource, org: string, resource: ExportResourceName, format: string, filter: ExportFilter): Promise<ExportRow> {
  const [row] = await scoped(ds, org).query<ExportRowRead[]>(`INSERT INTO data_exports (organization_id, resource, format, filter) VALUES ($org, $1, $2, $3::jsonb) RETURNING ${COLUMNS}`, [
    resource,
    format,
    JSON.stringify(filter),
  ]);
  return row;
}

export async function findExport(ds: DataSource, org: string, id: string): Promise<ExportRow | null> {
  const [row] = await scoped(ds, org).query<ExportRowRead[]>(`SELECT ${COLUMNS} FROM data_exports WHERE id = $1 AND organization_id = $org`, [id]);
  return row ?? null;
}

/**
 * A page of the organization's exports after the cursor position `after`: by creation, or with
 * `since` (filter[updated_since]) the exports changed at or after it (a state change, rows done),
 * by last change on data_exports_org_updated_idx (updated_at kept at the millisecond by updated_at_ms).
 */
export async function listExports(ds: DataSource, org: string, after: { t: string; id: string } | undefined, limit: number, since?: Date): Promise<ExportRow[]> {
  const params: unknown[] = [];
  const by = since ? 'updated_at' : 'created_at';
  let where = 'organization_id = $org';
  if (since) where += ` AND updated_at >= $${params.push(since)}`;
  if (after) where += ` AND (${by}, id) > ($${params.push(after.t)}::timestamptz, $${params.push(after.id)}::uuid)`;
  return scoped(ds, org).query<ExportRowRead[]>(`SELECT ${COLUMNS} FROM data_exports WHERE ${where} ORDER BY ${by}, id LIMIT ${Math.trunc(limit)}`, params);
}

/** The worker takes a queued export (or one left RUNNING by a worker that died); null when it is not to run. */
export async function startExport(ds: DataSource, org: string, id: string): Promise<ExportRow | null> {
  const [rows] = await scoped(ds, org).query<[ExportRowRead[], number]>(
    `UPDATE data_exports SET state = 'RUNNING', started_at = now(), rows_done = 0, error = NULL, updated_at = now()
      WHERE id = $1 AND organization_id = $org AND state IN ('QUEUED', 'RUNNING') RETURNING ${COLUMNS}`,
    [id],
  );
  return rows?.[0] ?? null;
}

export async function setProgress(ds: DataSource, org: string, id: string, done: number, total?: number): Promise<void> {
  await scoped(ds, org).query(`UPDATE data_exports SET rows_done = $2, rows_total = COALESCE($3, rows_total), updated_at = now() WHERE id = $1 AND organization_id = $org AND state = 'RUNNING'`, [
    id,
    done,
    total ?? null,
  ]);
}

export async function finishExport(ds: DataSource, org: string, id: string, done: number, key: string, size: number, hours: number): Promise<void> {
  await scoped(ds, org).query(
    `UPDATE data_exports SET state = 'SUCCEEDED', rows_done = $2, rows_total = $2, file_key = $3, file_size = $4, finished_at = now(),
            expires_at = now() + make_interval(hours => $5), updated_at = now()
      WHERE id = $1 AND organization_id = $org AND state = 'RUNNING'`,
    [id, done, key, size, hours],
  );
}

export async function failExport(ds: DataSource, org: string, id: string, error: string): Promise<void> {
  await scoped(ds, org).query(
    `UPDATE data_exports SET state = 'FAILED', error = $2, finished_at = now(), updated_at = now() WHERE id = $1 AND organization_id = $org AND state IN ('QUEUED', 'RUNNING')`,
    [id, error.slice(0, 500)],
  );
}

/** Exports past their expiry (every organization), for the sweeper: their files are deleted, then they are marked EXPIRED. */
export async function expiredExports(ds: DataSource, limit: number): Promise<{ id: string; organization_id: string; file_key: string | null }[]> {
  return unscoped(ds, 'the export sweeper expires files of every organization').query<Pick<ExportRow, 'id' | 'organization_id' | 'file_key'>[]>(
    `SELECT id, organization_id, file_key FROM data_exports WHERE state = 'SUCCEEDED' AND expires_at < now() ORDER BY expires_at LIMIT $1`,
    [limit],
  );
}

export async function markExpired(ds: DataSource, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await unscoped(ds, 'the export sweeper expires files of every organization').query(
    `UPDATE data_exports SET state = 'EXPIRED', file_key = NULL, updated_at = now() WHERE id = ANY($1::uuid[]) AND state = 'SUCCEEDED'`,
    [ids],
  );
}

/** Queued exports whose job may never have reached Redis, and running ones not heard of for a while (their worker died). */
export async function staleExports(ds: DataSource, seconds: number, limit: number): Promise<{ id: string; organization_id: string }[]> {
  return unscoped(ds, 'the export sweeper re-queues exports of every organization').query<Pick<ExportRow, 'id' | 'organization_id'>[]>(
    `SELECT id, organization_id FROM data_exports WHERE state IN ('QUEUED', 'RUNNING') AND updated_at < now() - make_interval(secs => $1) ORDER BY updated_at LIMIT $2`,
    [seconds, limit],
  );
}

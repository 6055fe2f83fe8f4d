import { Injectable } from '@nestjs/common';
import { Type, type Static } from '@sinclair/typebox';
import { DataSource } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import { DateTime, nullable, StringEnum, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';

/** Who wrote: an administrator, a client (client credentials) or an organization API key. */
const ACTOR_TYPES = ['administrator', 'client', 'api_key'] as const;

export interface AuditRow {
  id: string;
  createdAt: Date;
  actor_type: (typeof ACTOR_TYPES)[number];
  actor_id: string | null;
  client_id: string | null;
  operation: string;
  method: string;
  route: string;
  status: number;
  resource_ids: { path: Record<string, string>; result: string[] };
  ip_address: string | null;
  request_id: string | null;
}

const COLUMNS = `id, created_at AS "createdAt", actor_type, actor_id, client_id, operation, method, route, status, resource_ids, ip_address, request_id`;

/** The /v2 audit-events resource (CONVENTIONS §19), declared once (core/openapi/declared-shape.ts): presentAuditEvent's type and the answers of /openapi.json. */
export const AuditEventSchema = V2UnlinkedResourceSchema(
  'audit-events',
  Type.Object({
    operation: Type.String({ description: "The handler's operation" }),
    method: Type.String({ description: 'The HTTP method' }),
    route: Type.String({ description: 'The route template' }),
    status: Type.Integer({ description: 'The answer status' }),
    actor: Type.Object({
      type: StringEnum(ACTOR_TYPES),
      id: nullable(Type.String({ description: "The administrator's or the client's id; null for an API key" })),
    }),
    client_id: nullable(Type.String()),
    resource_ids: Type.Object({
      path: Type.Record(Type.String(), Type.String(), { description: 'The path parameters' }),
      result: Type.Array(Type.String(), { description: 'The ids the write answered' }),
    }),
    ip_address: nullable(Type.String()),
    request_id: nullable(Type.String()),
    created_at: DateTime(),
  }),
);
export type AuditEventResource = Static<typeof AuditEventSchema>;

/** The /v2 audit-events resource. */
export function presentAuditEvent(r: AuditRow): AuditEventResource {
  return {
    type: 'audit-events',
    id: encodeId('auditEvent', r.id),
    attributes: {
      operation: r.operation,
      method: r.method,
      route: r.route,
      status: r.status,
      actor: { type: r.actor_type, id: r.actor_id },
      client_id: r.client_id,
      resource_ids: r.resource_ids,
      ip_address: r.ip_address,
      request_id: r.request_id,
      created_at: new Date(r.createdAt).toISOString(),
    },
  };
}

/** Reads of the audit log (`audit:read`): a keyset page on (organization_id, created_at, id), the index audit_events_org_created_idx. */
@Injectable()
export class AuditService {
  constructor(private readonly ds: DataSource) {}

  /** `updatedSince` (filter[updated_since]): an event never changes, so the events made at or after it, in the list's order. */
  async list(p: Principal, page: PageRequest, filters: { actorId?: string; createdGte?: Date; updatedSince?: Date }): Promise<AuditRow[]> {
    const params: unknown[] = [];
    let where = 'organization_id = $org';
    if (filters.actorId !== undefined) where += ` AND actor_id = $${params.push(filters.actorId)}`;
    if (filters.createdGte !== undefined) where += ` AND created_at >= $${params.push(filters.createdGte)}`;
    if (filters.updatedSince !== undefined) where += ` AND created_at >= $${params.push(filters.updatedSince)}`;
    if (page.after) where += ` AND (created_at, id) > ($${params.push(page.after.t)}::timestamptz, $${params.push(page.after.id)}::uuid)`;
    return scoped(this.ds, p.organizationId).query<AuditRow[]>(`SELECT ${COLUMNS} FROM audit_events WHERE ${where} ORDER BY created_at, id LIMIT ${page.size + 1}`, params);
  }

  async get(p: Principal, publicId: string): Promise<AuditRow> {
    const id = decodeId('auditEvent', publicId);
    const rows = id ? await scoped(this.ds, p.organizationId).query<AuditRow[]>(`SELECT ${COLUMNS} FROM audit_events WHERE id = $1 AND organization_id = $org`, [id]) : [];
    if (!rows.length) throw notFound('Audit event not found.');
    return rows[0];
  }
}

/** One bounded batch of audit events older than `days` (365 by CONVENTIONS §19); run by the maintenance clean-up. */
export async function deleteOldAuditEvents(ds: DataSource, batch: number, days = 365): Promise<number> {
  const [, affected] = (await ds.query(
    `/* unscoped: clean-up across organizations */ DELETE FROM audit_events WHERE id IN (
       SELECT id FROM audit_events WHERE created_at < now() - make_interval(days => $2) LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [batch, days],
  )) as [unknown[], number];
  return affected;
}

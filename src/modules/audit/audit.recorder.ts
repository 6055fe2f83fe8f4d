import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped } from '../../core/database/scoped';
import { apiOf } from '../../core/http/interfaces';
import { decodeId, encodeId } from '../../core/ids/ids';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** At most this many ids of one answer are kept (a batch of BATCH_MAX_ITEMS, with room). */
const MAX_IDS = 200;
const ID = /^[0-9a-z]{1,64}$/;

/** Who made a write: an administrator (a code-flow token's subject), a client (client credentials), or an organization API key. */
export function actorOf(p: Principal): { actor_type: 'administrator' | 'client' | 'api_key'; actor_id: string | null; client_id: string | null } {
  if (p.kind === 'api_key') return { actor_type: 'api_key', actor_id: null, client_id: null };
  const client = p.clientId ? encodeId('client', p.clientId) : null;
  if (decodeId('admin', p.subject)) return { actor_type: 'administrator', actor_id: p.subject, client_id: client };
  return { actor_type: 'client', actor_id: client, client_id: client };
}

/** The ids an answer names: `id` and `data.id` of one resource, `data[].id` of a batch result or a list; only id-shaped strings. */
export function idsOfAnswer(payload: unknown): string[] {
  if (typeof payload !== 'string' || payload.length > 2_000_000 || (payload[0] !== '{' && payload[0] !== '[')) return [];
  let body: any;
  try {
    body = JSON.parse(payload);
  } catch {
    return [];
  }
  const out: string[] = [];
  const take = (v: unknown) => {
    if (typeof v === 'string' && ID.test(v) && out.length < MAX_IDS && !out.includes(v)) out.push(v);
  };
  if (body && typeof body === 'object') {
    take(body.id);
    const data = body.data;
    if (Array.isArray(data)) for (const item of data) take(item?.id ?? item?.result?.id);
    else if (data && typeof data === 'object') take(data.id);
  }
  return out;
}

/**
 * The audit log's one hook (CONVENTIONS §19, docs/decisions/identity.md "Audit log"): every
 * successful write (POST, PUT, PATCH, DELETE answered 2xx) of /v1, /v2 and SCIM by an authenticated
 * caller is recorded once, whatever handler served it (MCP tool calls included: they are dispatched
 * to the same routes), with who (actor), what (method and route template), which ids (the path's
 * parameters and the ids the answer names), when, from which address (the request's, as the
 * proxy settings read it) and the request id. Bodies are never read into it: no secrets, no
 * personal data beyond ids. Registered as a Fastify onSend hook (app.factory.ts), awaited before the
 * answer goes out, so a caller who saw a success finds its event; a failure to record is logged and
 * does not fail the answer (the write has committed).
 */
@Injectable()
export class AuditRecorder {
  private readonly logger = new Logger('Audit');

  constructor(private readonly ds: DataSource) {}

  /** Whether this answered request is an administrative write to record. */
  private wanted(req: FastifyRequest, reply: FastifyReply): Principal | undefined {
    if (!WRITES.has(req.method) || reply.statusCode < 200 || reply.statusCode >= 300) return undefined;
    // a dry run (core/dry-run) wrote nothing: nothing to record
    if (reply.getHeader('Dry-Run') === 'true') return undefined;
    // an Idempotency-Key replay answers the first write's answer again: that write was recorded, this one wrote nothing
    if (reply.getHeader('Idempotent-Replayed') === 'true') return undefined;
    const principal = (req as { principal?: Principal }).principal;
    if (!principal?.organizationId) return undefined;
    const api = apiOf(req);
    const route = req.routeOptions?.url ?? '';
    if (api !== 'v1' && api !== 'v2' && !route.startsWith('/scim/')) return undefined;
    return principal;
  }

  hook() {
    return (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload: unknown) => void) => {
      const principal = this.wanted(req, reply);
      if (!principal) return done(null, payload);
      this.record(req, reply, principal, payload).then(
        () => done(null, payload),
        (err) => {
          this.logger.error({ err: (err as Error).message }, 'audit event not recorded');
          done(null, payload);
        },
      );
    };
  }

  private async record(req: FastifyRequest, reply: FastifyReply, p: Principal, payload: unknown): Promise<void> {
    const route = req.routeOptions?.url ?? req.url.split('?')[0];
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries((req.params ?? {}) as Record<string, unknown>)) if (typeof v === 'string') params[k] = v.slice(0, 255);
    const ids = { path: params, result: idsOfAnswer(payload) };
    const actor = actorOf(p);
    await scoped(this.ds, p.organizationId).query(
      `INSERT INTO audit_events (organization_id, actor_type, actor_id, client_id, operation, method, route, status, resource_ids, ip_address, request_id)
       VALUES ($org, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [actor.actor_type, actor.actor_id, actor.client_id, `${req.method} ${route}`, req.method, route, reply.statusCode, JSON.stringify(ids), req.ip ?? null, String(req.id)],
    );
  }
}

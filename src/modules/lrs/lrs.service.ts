import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, createVerify, randomUUID, X509Certificate } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../core/config/config';
import { constantTimeEqual, randomToken, sha256, signPayload, verifyPayload } from '../../core/crypto/crypto';
import { bindOrg, scoped, unscoped } from '../../core/database/scoped';
import { poolQuery } from '../../core/database/pool-reads';
import { rowsOf } from '../../core/database/sql';
import { LrsAttachmentRow } from './lrs-attachments.store';
import { LrsDocumentRow } from './lrs-documents.store';
import { LrsKeyRow } from './lrs-keys.store';
import { LrsStatementRow } from './lrs-statements.store';
import { agentKey, agentParam, timestamp, UUID_RE, validateStatement, XapiInvalid, XapiVersion } from './xapi-validate';

type Obj = Record<string, any>;

/** An error the LRS answers with its status and a plain message. */
export class XapiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
const bad = (m: string) => new XapiError(400, m);

export interface LrsPrincipal {
  organizationId: string;
  keyId: string | null;
  /** the launch a per-launch key belongs to (cmi5 fetch, TinCan auth); null for an organization key */
  launchId: string | null;
  canRead: boolean;
  canWrite: boolean;
  authority: Obj;
  /** what a per-launch key may reach (docs/decisions/content-runs.md "Launch keys"); absent for an organization key */
  launch?: LaunchScope;
}

/**
 * The reach of a per-launch key: statements and state of its own learner (`agent`, an agent key
 * as agentKey gives it) in its own attempt (`registration`); `registrationRequired` (cmi5: every
 * AU statement carries it) refuses statements and state without it.
 */
export interface LaunchScope {
  registration: string;
  agent: string;
  registrationRequired: boolean;
}

export interface Attachment {
  sha2: string;
  contentType: string;
  content: Buffer;
}

const VOIDED = 'http://adlnet.gov/expapi/verbs/voided';
/**
 * The posted statements that came without a timestamp (the LRS set it), for the same-statement
 * comparison (a set beside them, not a mark on them: a symbol member takes JSON.stringify off its
 * fast path for the whole batch).
 */
const noTimestamp = new WeakSet<Obj>();
const STATEMENT_PARAMS = [
  'statementId',
  'voidedStatementId',
  'agent',
  'verb',
  'activity',
  'registration',
  'related_activities',
  'related_agents',
  'since',
  'until',
  'limit',
  'format',
  'attachments',
  'ascending',
  'more',
];
const PAGE_MAX = 100;
/**
 * The rows of a batch, as one jsonb parameter (`rowsParam`): the array columns as array literals
 * (cast by the server, cheaper than unnesting a jsonb array per row and column).
 */
const ROWS_OF = `jsonb_to_recordset($2::jsonb) AS v(id uuid, statement jsonb, verb_id text, activity_id text, agents text, related_agents text, related_activities text, registration uuid, voiding_target uuid, hashes text)`;
const INSERT_COLUMNS = `INSERT INTO lrs_statements (organization_id, id, statement, stored, verb_id, activity_id, agents, related_agents, related_activities, registration, voiding_target, attachment_hashes)
  SELECT $org, v.id, v.statement, $1, v.verb_id, v.activity_id, v.agents::text[], v.related_agents::text[], v.related_activities::text[], v.registration, v.voiding_target, v.hashes::text[]`;
/**
 * The agents of the statements `ins` inserted, in the same statement (lrs_statement_agents: the
 * ordered index of an `agent` query, docs/decisions/lrs.md "Queries that stay flat").
 */
const INSERT_AGENTS = `INSERT INTO lrs_statement_agents (organization_id, agent, direct, stored, seq)
  SELECT $org, k.agent, k.agent = ANY(ins.agents), ins.stored, ins.seq FROM ins, unnest(ins.related_agents) AS k(agent)`;
const RETURNING = `RETURNING stored, seq, agents, related_agents`;
/** A batch whose ids the LRS made (fresh random UUIDs): inserted; `inserted` counts the rows. */
const INSERT_FRESH = `WITH ins AS (${INSERT_COLUMNS} FROM ${ROWS_OF} ON CONFLICT (organization_id, id) DO NOTHING ${RETURNING}),
  ag AS (${INSERT_AGENTS})
SELECT 0 AS existing, (SELECT count(*) FROM ins)::int AS inserted`;
/**
 * A batch naming ids of its own: inserted only when none of them exists (then the transactional
 * path compares them); the counts tell which happened.
 */
const INSERT_NEW_IDS = `WITH v AS (SELECT * FROM ${ROWS_OF}),
  existing AS (SELECT s.id FROM lrs_statements s WHERE s.organization_id = $org AND s.id IN (SELECT id FROM v)),
  ins AS (${INSERT_COLUMNS} FROM v WHERE NOT EXISTS (SELECT 1 FROM existing) ON CONFLICT (organization_id, id) DO NOTHING ${RETURNING}),
  ag AS (${INSERT_AGENTS})
SELECT (SELECT count(*) FROM existing)::int AS existing, (SELECT count(*) FROM ins)::int AS inserted`;
/**
 * The two statements of the common case with the organization bound as the last parameter
 * (`$org`, as scoped() binds it), once: they go to the pool as named statements.
 */
const INSERT_FRESH_BOUND = bindOrg(INSERT_FRESH, 2);
const INSERT_NEW_IDS_BOUND = bindOrg(INSERT_NEW_IDS, 2);
/** The plain INSERT of the transactional path (with the statements' agents). */
const INSERT_ROWS = `WITH ins AS (${INSERT_COLUMNS} FROM ${ROWS_OF} ${RETURNING}) ${INSERT_AGENTS}`;

/** What verifying a key reads of its row. */
type KeyRead = Pick<LrsKeyRow, 'id' | 'organization_id' | 'secret_hash' | 'can_read' | 'can_write' | 'launch_id' | 'expires_at'>;

/** How long a verified key's row is reused without reading it again. */
const KEY_CACHE_MS = 30_000;

const iso = (d: Date | string) => new Date(d).toISOString();

/** The JSON schema of createKey's answer (POST /v1/lrs-keys): the key with its secret, shown only then. */
export const LRS_KEY_SCHEMA = {
  type: 'object',
  description: 'An LRS key of the organization: HTTP Basic credentials (key:secret) of /xapi/.',
  required: ['id', 'key', 'secret', 'read', 'write', 'name', 'created_at'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the key.' },
    key: { type: 'string', description: 'The Basic user name.' },
    secret: { type: 'string', description: 'The Basic password; shown only in this answer.' },
    read: { type: 'boolean', description: 'Whether the key may read statements and documents.' },
    write: { type: 'boolean', description: 'Whether the key may write statements and documents.' },
    name: { type: 'string', description: 'Name of the key (empty without one).' },
    created_at: { type: 'string', format: 'date-time', description: 'When the key was created.' },
  },
};

/**
 * The LRS (CONVENTIONS §18, docs/decisions/lrs.md): statements, documents, activities, agents,
 * per organization. Credentials: organization LRS keys (HTTP Basic, key:secret, the secret kept
 * as its SHA-256). Everything is scoped by the credential's organization.
 */
@Injectable()
export class LrsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  /* --------------------------------------------------------------------------------------------
   * credentials
   * ------------------------------------------------------------------------------------------ */

  async createKey(organizationId: string, opts: { read: boolean; write: boolean; name: string }) {
    const key = randomToken(18);
    const secret = randomToken(32);
    const [row] = await scoped(this.ds, organizationId).query<Pick<LrsKeyRow, 'id' | 'created_at'>[]>(
      `INSERT INTO lrs_keys (organization_id, key, secret_hash, can_read, can_write, name) VALUES ($org, $1, $2, $3, $4, $5) RETURNING id, created_at`,
      [key, sha256(secret), opts.read, opts.write, opts.name],
    );
    return { id: row.id, key, secret, read: opts.read, write: opts.write, name: opts.name, created_at: iso(row.created_at) };
  }

  /** A launch's own key (cmi5 fetch, TinCan `auth`), read and write, expiring with the launch's session. */
  async createLaunchKey(m: EntityManager, organizationId: string, launchId: string, expiresAt: Date): Promise<string> {
    const key = randomToken(18);
    const secret = randomToken(32);
    await scoped(m, organizationId).query<unknown>(
      `INSERT INTO lrs_keys (organization_id, key, secret_hash, can_read, can_write, name, launch_id, expires_at) VALUES ($org, $1, $2, true, true, 'launch', $3, $4)`,
      [key, sha256(secret), launchId, expiresAt],
    );
    return Buffer.from(`${key}:${secret}`).toString('base64');
  }

  /**
   * Hooks run inside the transaction that stores statements, with the statements stored (never
   * for the hooks' own writes): the content runs' cmi5 and TinCan rules (modules/content-runs).
   * A hook may refuse the batch by throwing an XapiError.
   */
  private readonly hooks: ((m: EntityManager, p: LrsPrincipal, statements: Obj[]) => Promise<void>)[] = [];
  onStore(hook: (m: EntityManager, p: LrsPrincipal, statements: Obj[]) => Promise<void>): void {
    this.hooks.push(hook);
  }

  /** Resolves a per-launch key's scope (content-runs owns the launches); null: the launch is gone. */
  private launchScope: ((organizationId: string, launchId: string, baseUrl: string) => Promise<LaunchScope | null>) | null = null;
  onLaunchScope(resolve: (organizationId: string, launchId: string, baseUrl: string) => Promise<LaunchScope | null>): void {
    this.launchScope = resolve;
  }

  /** Keys read recently (keys are never changed nor deleted; a launch key's cache ends with its expiry). */
  private readonly keyCache = new Map<string, { row: KeyRead; until: number }>();

  /** The principal of an `Authorization: Basic key:secret` header, or null. */
  async authenticate(header: unknown, baseUrl: string): Promise<LrsPrincipal | null> {
    if (typeof header !== 'string' || !/^basic /i.test(header)) return null;
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) return null;
    const key = decoded.slice(0, colon);
    const secret = decoded.slice(colon + 1);
    if (!/^[A-Za-z0-9_-]{10,64}$/.test(key)) return null;
    const cached = this.keyCache.get(key);
    let row = cached && cached.until > Date.now() ? cached.row : undefined;
    if (!row) {
      [row] = await unscoped(this.ds, 'an LRS key names its organization').query<KeyRead[]>(
        `SELECT id, organization_id, secret_hash, can_read, can_write, launch_id, expires_at FROM lrs_keys WHERE key = $1 AND (expires_at IS NULL OR expires_at > now())`,
        [key],
      );
      if (!row) return null;
      if (this.keyCache.size >= 10_000) this.keyCache.clear();
      this.keyCache.set(key, { row, until: Math.min(Date.now() + KEY_CACHE_MS, row.expires_at ? new Date(row.expires_at).getTime() : Infinity) });
    }
    if (!constantTimeEqual(row.secret_hash, sha256(secret))) return null;
    let launch: LaunchScope | undefined;
    if (row.launch_id) {
      // a launch key reaches only its own learner and attempt; without a resolver or a launch, nothing
      const scope = this.launchScope ? await this.launchScope(row.organization_id, row.launch_id, baseUrl) : null;
      if (!scope) return null;
      launch = scope;
    }
    return {
      launch,
      organizationId: row.organization_id,
      keyId: row.id,
      launchId: row.launch_id,
      canRead: row.can_read,
      canWrite: row.can_write,
      authority: { objectType: 'Agent', name: `LRS key ${key}`, account: { homePage: baseUrl, name: key } },
    };
  }

  /* --------------------------------------------------------------------------------------------
   * statements: writes
   * ------------------------------------------------------------------------------------------ */

  /**
   * Store statements (POST, or PUT with `statementId`): validated all first (a batch is stored
   * whole or not at all), ids assigned, `stored`, `timestamp`, `authority`, `version` set, voiding
   * applied. A statement whose id exists already: the same statement again is no change; a
   * different one is 409.
   */
  async store(p: LrsPrincipal, input: unknown[], version: XapiVersion, attachments: Attachment[]): Promise<string[]> {
    const storedAt = iso(new Date());
    const seen = new Set<string>();
    const rows: Obj[] = [];
    const hashes = new Set(attachments.map((a) => a.sha2));
    const used = new Set<string>();
    for (const [i, raw] of input.entries()) {
      try {
        validateStatement(raw, version);
      } catch (e) {
        if (e instanceof XapiInvalid) throw bad(input.length > 1 ? `statement ${i}: ${e.message}` : e.message);
        throw e;
      }
      // Object.assign, not a spread: members added to a spread copy of a parsed object make V8 build
      // a new hidden class per statement (measured: 60 times slower, and JSON.stringify after it too)
      const s: Obj = Object.assign({}, raw as Obj);
      s.id = (s.id ?? randomUUID()).toLowerCase();
      if (seen.has(s.id)) throw bad(`the statement id ${s.id} appears twice in the batch`);
      seen.add(s.id);
      for (const a of (s.attachments ?? []) as Obj[]) {
        if (a.fileUrl === undefined && !hashes.has(a.sha2)) throw bad(`the attachment ${a.sha2} has neither a fileUrl nor a part`);
        used.add(a.sha2);
      }
      for (const a of (s.object?.objectType === 'SubStatement' ? (s.object.attachments ?? []) : []) as Obj[]) {
        if (a.fileUrl === undefined && !hashes.has(a.sha2)) throw bad(`the attachment ${a.sha2} has neither a fileUrl nor a part`);
        used.add(a.sha2);
      }
      normaliseContextActivities(s);
      if (s.object?.objectType === 'SubStatement') normaliseContextActivities(s.object);
      if (s.timestamp === undefined) noTimestamp.add(s);
      s.timestamp = s.timestamp ?? storedAt;
      s.stored = storedAt;
      s.authority = s.authority ?? p.authority;
      s.version = s.version ?? (version === '2.0.0' ? '2.0.0' : '1.0.0');
      rows.push(s);
    }
    if (p.launch) for (const [i, s] of rows.entries()) checkLaunchStatement(p.launch, s, input.length > 1 ? `statement ${i}: ` : '');
    for (const a of attachments) if (!used.has(a.sha2)) throw bad(`the attachment part ${a.sha2} is named by no statement`);
    const parts = new Map(attachments.map((a) => [a.sha2, a]));
    for (const [i, raw] of input.entries()) checkSignature(raw as Obj, parts, i);

    // the common case in one statement: an organization key, no attachments, no voiding, no id
    // that exists already (anything else, or a race on an id, takes the transaction below)
    if (!p.launchId && !attachments.length && !rows.some((r) => r.verb.id === VOIDED)) {
      // a named statement (parsed and planned once per pooled connection), past the query runner;
      // ids the LRS made itself cannot exist already, so only a batch with ids of its own checks them
      const fresh = !input.some((raw) => (raw as Obj).id !== undefined);
      const [res] = await poolQuery<{ existing: number; inserted: number }>(this.ds, {
        name: fresh ? 'lrs_statements_insert_fresh' : 'lrs_statements_insert_new_ids',
        text: fresh ? INSERT_FRESH_BOUND : INSERT_NEW_IDS_BOUND,
        values: [storedAt, rowsParam(rows), p.organizationId],
      });
      if (res.existing === 0 && res.inserted === rows.length) return rows.map((r) => r.id);
    }
    return this.ds.transaction(async (m) => {
      await this.persist(m, p, rows, attachments);
      if (this.hooks.length) for (const h of this.hooks) await h(m, p, rows);
      return rows.map((r) => r.id);
    });
  }

  /** Statements the LMS itself issues (cmi5 launched, satisfied), in the caller's transaction; no hooks. */
  async storeIn(m: EntityManager, p: LrsPrincipal, statements: Obj[]): Promise<string[]> {
    const storedAt = iso(new Date());
    const rows = statements.map((raw) => {
      validateStatement(raw, '1.0.3');
      const s: Obj = { ...raw, id: raw.id ?? randomUUID() };
      normaliseContextActivities(s);
      return { ...s, timestamp: s.timestamp ?? storedAt, stored: storedAt, authority: p.authority, version: '1.0.0' } as Obj;
    });
    await this.persist(m, p, rows, []);
    return rows.map((r) => r.id);
  }

  private async persist(m: EntityManager, p: LrsPrincipal, rows: Obj[], attachments: Attachment[]): Promise<void> {
    {
      const db = scoped(m, p.organizationId);
      const now = new Date(rows[0]?.stored ?? Date.now());
      const ids = rows.map((r) => r.id);
      const existing = ids.length
        ? await db.query<Pick<LrsStatementRow, 'id' | 'statement'>[]>(`SELECT id, statement FROM lrs_statements WHERE organization_id = $org AND id = ANY($1::uuid[])`, [ids])
        : [];
      const byId = new Map(existing.map((e) => [e.id, e.statement]));
      const fresh: Obj[] = [];
      for (const r of rows) {
        const had = byId.get(r.id);
        if (had) {
          if (!sameStatement(had, r, noTimestamp.has(r))) throw new XapiError(409, `a different statement with the id ${r.id} exists`);
          continue;
        }
        fresh.push(r);
      }
      // voiding: the target may not be a voiding statement
      const targets = fresh.filter((r) => r.verb.id === VOIDED).map((r) => String(r.object.id).toLowerCase());
      if (targets.length) {
        const voiding = await db.query<Pick<LrsStatementRow, 'id'>[]>(`SELECT id FROM lrs_statements WHERE organization_id = $org AND id = ANY($1::uuid[]) AND verb_id = $2`, [targets, VOIDED]);
        if (voiding.length) throw bad('a voiding statement cannot be voided');
        for (const r of fresh) if (r.verb.id !== VOIDED && targets.includes(r.id)) continue;
      }
      if (fresh.length) {
        await db.query<unknown>(INSERT_ROWS, [now, rowsParam(fresh)]);
        if (targets.length) {
          await db.query<unknown>(`UPDATE lrs_statements SET voided = true WHERE organization_id = $org AND id = ANY($1::uuid[]) AND verb_id <> $2`, [targets, VOIDED]);
        }
      }
      if (attachments.length) {
        await db.query<unknown>(
          `INSERT INTO lrs_attachments (organization_id, sha2, content_type, content)
           SELECT $org, v.sha2, v.ct, decode(v.b64, 'base64') FROM jsonb_to_recordset($1::jsonb) AS v(sha2 text, ct text, b64 text)
           ON CONFLICT DO NOTHING`,
          [JSON.stringify(attachments.map((a) => ({ sha2: a.sha2, ct: a.contentType, b64: a.content.toString('base64') })))],
        );
      }
    }
  }

  /**
   * The cmi5 sessions of a registration that were closed (`terminated` or `abandoned`), of the
   * `sessionIds` asked about; on the registration's index.
   */
  async closedSessions(m: EntityManager, organizationId: string, registration: string, sessionIds: string[]): Promise<Set<string>> {
    if (!sessionIds.length) return new Set();
    const rows = await scoped(m, organizationId).query<{ sid: string }[]>(
      `SELECT DISTINCT statement->'context'->'extensions'->>'https://w3id.org/xapi/cmi5/context/extensions/sessionid' AS sid FROM lrs_statements
        WHERE organization_id = $org AND registration = $1 AND verb_id = ANY($2::text[]) AND NOT voided
          AND statement->'context'->'extensions'->>'https://w3id.org/xapi/cmi5/context/extensions/sessionid' = ANY($3::text[])`,
      [registration, ['http://adlnet.gov/expapi/verbs/terminated', 'https://w3id.org/xapi/adl/verbs/abandoned'], sessionIds],
    );
    return new Set(rows.map((r) => r.sid));
  }

  /** The activities (statement objects) of a registration's statements with this verb (not voided); on the registration's index. */
  async activitiesWithVerb(m: EntityManager, organizationId: string, registration: string, verb: string): Promise<Set<string>> {
    const rows = await scoped(m, organizationId).query<Pick<LrsStatementRow, 'activity_id'>[]>(
      `SELECT DISTINCT activity_id FROM lrs_statements WHERE organization_id = $org AND registration = $1 AND verb_id = $2 AND NOT voided AND activity_id IS NOT NULL`,
      [registration, verb],
    );
    return new Set(rows.map((r) => String(r.activity_id)));
  }

  /** The latest statement of a registration with this verb (not voided), or null; on the registration's index. */
  async latestInRegistration(m: EntityManager, organizationId: string, registration: string, verb: string): Promise<Obj | null> {
    const [row] = await scoped(m, organizationId).query<Pick<LrsStatementRow, 'statement'>[]>(
      `SELECT statement FROM lrs_statements WHERE organization_id = $org AND registration = $1 AND verb_id = $2 AND NOT voided ORDER BY stored DESC, seq DESC LIMIT 1`,
      [registration, verb],
    );
    return row?.statement ?? null;
  }

  /* --------------------------------------------------------------------------------------------
   * statements: reads
   * ------------------------------------------------------------------------------------------ */

  /**
   * A launch key's documents: state of its own learner in its own registration (without one only
   * when the launch does not require it: TinCan), its own learner's agent profile; activity
   * profiles read only.
   */
  checkLaunchDocument(p: LrsPrincipal, kind: 'state' | 'activity_profile' | 'agent_profile', key: { agent: string; registration: string }, write: boolean): void {
    const l = p.launch;
    if (!l) return;
    const no = (m: string) => new XapiError(403, m);
    if (kind === 'activity_profile') {
      if (write) throw no("a launch's key reads activity profiles only");
      return;
    }
    if (key.agent !== l.agent) throw no("a launch's key reaches only its own learner's documents");
    if (kind === 'state' && key.registration !== l.registration && (l.registrationRequired || key.registration !== '')) throw no("a launch's key reaches only its own registration's state");
  }

  async readStatements(p: LrsPrincipal, q: Record<string, unknown>, acceptLanguage: string | undefined, endpoint = '/xapi') {
    for (const k of Object.keys(q)) {
      if (!STATEMENT_PARAMS.includes(k)) throw bad(`unknown parameter ${k}`);
      if (typeof q[k] !== 'string') throw bad(`${k} appears more than once`);
    }
    const params = q as Record<string, string>;
    const format = params.format ?? 'exact';
    if (!['ids', 'exact', 'canonical'].includes(format)) throw bad('format must be ids, exact or canonical');
    const withAttachments = params.attachments === undefined ? false : bool(params.attachments, 'attachments');
    const shape = (s: Obj) => formatStatement(s, format, acceptLanguage);

    if (params.statementId !== undefined || params.voidedStatementId !== undefined) {
      const extra = Object.keys(params).filter((k) => !['statementId', 'voidedStatementId', 'format', 'attachments'].includes(k));
      if (extra.length) throw bad(`statementId and voidedStatementId take no other parameter than format and attachments (${extra.join(', ')})`);
      if (params.statementId !== undefined && params.voidedStatementId !== undefined) throw bad('statementId and voidedStatementId are exclusive');
      const voided = params.voidedStatementId !== undefined;
      const id = voided ? params.voidedStatementId : params.statementId;
      if (!UUID_RE.test(id)) throw bad('the statement id must be a UUID');
      const [row] = await scoped(this.ds, p.organizationId).query<Pick<LrsStatementRow, 'statement' | 'voided' | 'stored'>[]>(
        `SELECT statement, voided, stored FROM lrs_statements WHERE organization_id = $org AND id = $1`,
        [id.toLowerCase()],
      );
      if (!row || row.voided !== voided) throw new XapiError(404, 'no such statement');
      if (p.launch && String(row.statement.context?.registration ?? '').toLowerCase() !== p.launch.registration) throw new XapiError(404, 'no such statement');
      return { single: shape(row.statement), lastModified: row.stored, attachments: withAttachments ? await this.attachmentsOf(p, [row.statement]) : [] };
    }

    let state: Obj;
    if (params.more !== undefined) {
      const extra = Object.keys(params).filter((k) => k !== 'more');
      if (extra.length) throw bad('more takes no other parameter');
      const payload = verifyPayload<Obj>(this.config.APP_SECRET, 'xapi-more', params.more);
      if (!payload || payload.org !== p.organizationId) throw bad('the more token is not valid');
      state = payload;
    } else {
      state = { org: p.organizationId, q: params, through: iso(new Date()), after: null };
    }
    let f = state.q as Record<string, string>;
    if (p.launch) {
      // a launch key reads its own attempt's statements only
      if (f.registration !== undefined && f.registration.toLowerCase() !== p.launch.registration) throw new XapiError(403, "a launch's key reads only its own registration");
      state.q = f = Object.assign({}, f, { registration: p.launch.registration });
    }
    const where: string[] = ['s.organization_id = $org', 'NOT s.voided'];
    /** the conditions on `stored` / `seq` (`#` standing for the table alias), also applied to lrs_statement_agents */
    const span: string[] = [];
    /** the `agent` filter: walked on lrs_statement_agents, in order (the array condition stays for the StatementRef arm) */
    let byAgent: { key: string; direct: boolean } | null = null;
    /** conditions on the statements the filters match, `@` standing for the table alias */
    const match: string[] = [];
    const args: unknown[] = [];
    const arg = (v: unknown) => {
      args.push(v);
      return `$${args.length}`;
    };
    const relatedAgents = f.related_agents === undefined ? false : bool(f.related_agents, 'related_agents');
    const relatedActivities = f.related_activities === undefined ? false : bool(f.related_activities, 'related_activities');
    const ascending = f.ascending === undefined ? false : bool(f.ascending, 'ascending');
    if (f.agent !== undefined) {
      let a: Obj;
      try {
        a = agentParam(f.agent, 'agent');
      } catch (e) {
        throw bad((e as Error).message);
      }
      const key = agentKey(a);
      if (!key) throw bad('agent must be identified');
      byAgent = { key: arg(key), direct: !relatedAgents };
      match.push(`@.${relatedAgents ? 'related_agents' : 'agents'} @> ARRAY[${byAgent.key}]::text[]`);
    }
    if (f.verb !== undefined) match.push(`@.verb_id = ${arg(f.verb)}`);
    if (f.activity !== undefined) match.push(relatedActivities ? `@.related_activities @> ARRAY[${arg(f.activity)}]::text[]` : `@.activity_id = ${arg(f.activity)}`);
    if (f.registration !== undefined) {
      if (!UUID_RE.test(f.registration)) throw bad('registration must be a UUID');
      match.push(`@.registration = ${arg(f.registration.toLowerCase())}`);
    }
    for (const [k, op] of [
      ['since', '>'],
      ['until', '<='],
    ] as const) {
      if (f[k] === undefined) continue;
      try {
        timestamp(f[k], k);
      } catch {
        throw bad(`${k} must be an ISO 8601 timestamp`);
      }
      span.push(`#.stored ${op} ${arg(new Date(f[k]))}`);
    }
    let limit = PAGE_MAX;
    if (f.limit !== undefined) {
      if (!/^\d+$/.test(f.limit)) throw bad('limit must be a non-negative integer');
      const n = Number(f.limit);
      limit = n === 0 ? PAGE_MAX : Math.min(n, PAGE_MAX);
    }
    span.push(`#.stored <= ${arg(new Date(state.through))}`);
    const dir = ascending ? 'ASC' : 'DESC';
    if (state.after) span.push(`(#.stored, #.seq) ${ascending ? '>' : '<'} (${arg(new Date(state.after[0]))}, ${arg(state.after[1])})`);
    const spanOn = (alias: string) => span.map((c) => c.replace(/#\./g, `${alias}.`));
    where.push(...spanOn('s'));
    const page1 = `ORDER BY s.stored ${dir}, s.seq ${dir} LIMIT ${limit + 1}`;
    let sql = `SELECT s.statement, s.stored, s.seq FROM lrs_statements s WHERE ${where.join(' AND ')} ${page1}`;
    if (match.length) {
      // a statement that matches, or one whose StatementRef object targets a statement that matches
      // (voided or not). Each arm is its own page (the first walks its filter's index in `stored`
      // order and stops after limit + 1 rows; an OR of the two would read every match and sort
      // them), then the two pages are merged: docs/decisions/lrs.md "Queries that stay flat". The
      // second walks the statements with a StatementRef (lrs_statements_refs_stored_idx) and probes
      // each target by its key (the filter is the probe's answer, not its condition): a scalar
      // subquery, which the planner cannot turn into a join reading every statement that matches.
      const on = (alias: string) => match.map((c) => c.replace(/@\./g, `${alias}.`)).join(' AND ');
      // an `agent` page walks lrs_statement_agents (organization, agent, stored, seq) in order and
      // reads each statement by its (stored, seq); the other filters are checked on it
      const agentArm = (a: { key: string; direct: boolean }) =>
        `SELECT s.statement, s.stored, s.seq FROM lrs_statement_agents a JOIN lrs_statements s ON s.organization_id = $org AND s.stored = a.stored AND s.seq = a.seq` +
        ` WHERE a.organization_id = $org AND a.agent = ${a.key}${a.direct ? ' AND a.direct' : ''} AND ${spanOn('a').join(' AND ')} AND NOT s.voided AND ${on('s')}` +
        ` ORDER BY a.stored ${dir}, a.seq ${dir} LIMIT ${limit + 1}`;
      const direct = byAgent ? agentArm(byAgent) : `SELECT s.statement, s.stored, s.seq FROM lrs_statements s WHERE ${where.join(' AND ')} AND ${on('s')} ${page1}`;
      const refs =
        `SELECT s.statement, s.stored, s.seq FROM lrs_statements s WHERE ${where.join(' AND ')} AND s.voiding_target IS NOT NULL AND (${on('s')}) IS NOT TRUE` +
        ` AND (SELECT ${on('t')} FROM lrs_statements t WHERE t.organization_id = $org AND t.id = s.voiding_target) IS TRUE ${page1}`;
      sql = `SELECT u.statement, u.stored, u.seq FROM ((${direct}) UNION ALL (${refs})) u ORDER BY u.stored ${dir}, u.seq ${dir} LIMIT ${limit + 1}`;
    }
    const rows = await scoped(this.ds, p.organizationId).query<Pick<LrsStatementRow, 'statement' | 'stored' | 'seq'>[]>(sql, args);
    const page = rows.slice(0, limit);
    let more = '';
    if (rows.length > limit) {
      const last = page[page.length - 1];
      more = `${endpoint}/statements?more=${encodeURIComponent(signPayload(this.config.APP_SECRET, 'xapi-more', { ...state, after: [iso(last.stored), last.seq] }))}`;
    }
    const statements = page.map((r) => r.statement);
    return {
      list: { statements: statements.map(shape), more },
      through: state.through as string,
      attachments: withAttachments ? await this.attachmentsOf(p, statements) : [],
    };
  }

  private async attachmentsOf(p: LrsPrincipal, statements: Obj[]): Promise<Attachment[]> {
    const hashes = new Set<string>();
    for (const s of statements) {
      for (const a of (s.attachments ?? []) as Obj[]) hashes.add(a.sha2);
      for (const a of (s.object?.attachments ?? []) as Obj[]) hashes.add(a.sha2);
    }
    if (!hashes.size) return [];
    const rows = await scoped(this.ds, p.organizationId).query<Pick<LrsAttachmentRow, 'sha2' | 'content_type' | 'content'>[]>(
      `SELECT sha2, content_type, content FROM lrs_attachments WHERE organization_id = $org AND sha2 = ANY($1::text[])`,
      [[...hashes]],
    );
    return rows.map((r) => ({ sha2: r.sha2, contentType: r.content_type, content: r.content }));
  }

  /* --------------------------------------------------------------------------------------------
   * activities and agents
   * ------------------------------------------------------------------------------------------ */

  async activity(p: LrsPrincipal, q: Record<string, unknown>) {
    const id = q.activityId;
    if (typeof id !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(id)) throw bad('activityId is required and must be an IRI');
    const rows = await scoped(this.ds, p.organizationId).query<Pick<LrsStatementRow, 'statement'>[]>(
      `SELECT statement FROM lrs_statements WHERE organization_id = $org AND related_activities @> ARRAY[$1]::text[] ORDER BY stored ASC, seq ASC LIMIT 200`,
      [id],
    );
    const out: Obj = { objectType: 'Activity', id };
    for (const r of rows) for (const a of activitiesIn(r.statement)) if (a.id === id && a.definition) out.definition = mergeDefinition(out.definition, a.definition);
    return out;
  }

  async person(p: LrsPrincipal, q: Record<string, unknown>) {
    let a: Obj;
    try {
      a = agentParam(q.agent, 'agent');
    } catch (e) {
      throw bad((e as Error).message);
    }
    const person: Obj = { objectType: 'Person' };
    if (a.name) person.name = [a.name];
    for (const k of ['mbox', 'mbox_sha1sum', 'openid', 'account']) if (a[k] !== undefined) person[k] = [a[k]];
    return person;
  }

  /* --------------------------------------------------------------------------------------------
   * documents
   * ------------------------------------------------------------------------------------------ */

  docKey(kind: 'state' | 'activity_profile' | 'agent_profile', q: Record<string, unknown>, single: boolean, forWrite: boolean) {
    for (const [k, v] of Object.entries(q)) if (typeof v !== 'string') throw bad(`${k} appears more than once`);
    const known: Record<string, string[]> = {
      state: ['activityId', 'agent', 'registration', 'stateId', 'since'],
      activity_profile: ['activityId', 'profileId', 'since'],
      agent_profile: ['agent', 'profileId', 'since'],
    };
    for (const k of Object.keys(q)) if (!known[kind].includes(k)) throw bad(`unknown parameter ${k}`);
    const key = { activity: '', agent: '', registration: '', docId: null as string | null };
    if (kind !== 'agent_profile') {
      if (typeof q.activityId !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(q.activityId)) throw bad('activityId is required and must be an IRI');
      key.activity = q.activityId;
    }
    if (kind !== 'activity_profile') {
      let a: Obj;
      try {
        a = agentParam(q.agent, 'agent');
      } catch (e) {
        throw bad((e as Error).message);
      }
      key.agent = agentKey(a) ?? JSON.stringify(a);
    }
    if (kind === 'state' && q.registration !== undefined) {
      if (!UUID_RE.test(q.registration as string)) throw bad('registration must be a UUID');
      key.registration = (q.registration as string).toLowerCase();
    }
    const idName = kind === 'state' ? 'stateId' : 'profileId';
    if (q[idName] !== undefined) key.docId = q[idName] as string;
    if ((single || forWrite) && key.docId === null) throw bad(`${idName} is required`);
    if (q.since !== undefined) {
      if (key.docId !== null || forWrite) throw bad('since only lists documents');
      try {
        timestamp(q.since, 'since');
      } catch {
        throw bad('since must be an ISO 8601 timestamp');
      }
    }
    return key;
  }

  async getDocument(p: LrsPrincipal, kind: string, key: { activity: string; agent: string; registration: string; docId: string | null }) {
    const [row] = await scoped(this.ds, p.organizationId).query<Pick<LrsDocumentRow, 'content' | 'content_type' | 'etag' | 'updated'>[]>(
      `SELECT content, content_type, etag, updated FROM lrs_documents WHERE organization_id = $org AND kind = $1 AND activity_id = $2 AND agent = $3 AND registration = $4 AND doc_id = $5`,
      [kind, key.activity, key.agent, key.registration, key.docId],
    );
    return row as Pick<LrsDocumentRow, 'content' | 'content_type' | 'etag' | 'updated'> | undefined;
  }

  async listDocuments(p: LrsPrincipal, kind: string, key: { activity: string; agent: string; registration: string }, since: string | undefined) {
    const rows = await scoped(this.ds, p.organizationId).query<Pick<LrsDocumentRow, 'doc_id' | 'updated'>[]>(
      `SELECT doc_id, updated FROM lrs_documents WHERE organization_id = $org AND kind = $1 AND activity_id = $2 AND agent = $3 AND ($4 = '' OR registration = $4)
         AND ($5::timestamptz IS NULL OR updated > $5) ORDER BY doc_id LIMIT 10000`,
      [kind, key.activity, key.agent, key.registration, since ? new Date(since) : null],
    );
    return { ids: rows.map((r) => r.doc_id), updated: rows.reduce<Date | null>((m, r) => (!m || r.updated > m ? r.updated : m), null) };
  }

  /**
   * PUT (replace) or POST (merge two JSON objects) a document, with the ETag preconditions
   * (If-Match / If-None-Match, 412); a PUT of an existing profile document without either is 409.
   */
  async writeDocument(
    p: LrsPrincipal,
    kind: 'state' | 'activity_profile' | 'agent_profile',
    key: { activity: string; agent: string; registration: string; docId: string | null },
    body: Buffer,
    contentType: string,
    merge: boolean,
    pre: { ifMatch?: string; ifNoneMatch?: string },
    version: XapiVersion,
  ): Promise<string> {
    return this.ds.transaction(async (m: EntityManager) => {
      await m.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${p.organizationId}|${kind}|${key.activity}|${key.agent}|${key.registration}|${key.docId}`]);
      const db = scoped(m, p.organizationId);
      const [cur] = await db.query<Pick<LrsDocumentRow, 'id' | 'content' | 'content_type' | 'etag'>[]>(
        `SELECT id, content, content_type, etag FROM lrs_documents WHERE organization_id = $org AND kind = $1 AND activity_id = $2 AND agent = $3 AND registration = $4 AND doc_id = $5`,
        [kind, key.activity, key.agent, key.registration, key.docId],
      );
      checkPreconditions(cur?.etag ?? null, pre);
      // a PUT without If-Match / If-None-Match: 409 over an existing document (1.0.3: profiles;
      // 2.0: every document), and 1.0.3 refuses it on a new profile too (400)
      if (!merge && pre.ifMatch === undefined && pre.ifNoneMatch === undefined && (kind !== 'state' || version === '2.0.0')) {
        if (cur) throw new XapiError(409, 'the document exists: send If-Match or If-None-Match');
        if (version === '1.0.3' && kind !== 'state') throw new XapiError(400, 'a profile PUT needs If-Match or If-None-Match');
      }
      let content = body;
      let type = contentType;
      if (merge) {
        const incoming = jsonObject(body, contentType);
        if (!incoming) throw bad('a POST merges JSON objects only: send application/json with an object');
        if (cur) {
          const had = jsonObject(cur.content, cur.content_type);
          if (!had) throw bad('the stored document is not a JSON object: it cannot be merged');
          content = Buffer.from(JSON.stringify({ ...had, ...incoming }));
        } else content = Buffer.from(JSON.stringify(incoming));
        type = 'application/json';
      }
      const etag = createHash('sha1').update(content).digest('hex');
      await db.query<unknown>(
        `INSERT INTO lrs_documents (organization_id, kind, activity_id, agent, registration, doc_id, content, content_type, etag, updated)
         VALUES ($org, $1, $2, $3, $4, $5, $6, $7, $8, now())
         ON CONFLICT (organization_id, kind, activity_id, agent, registration, doc_id)
         DO UPDATE SET content = EXCLUDED.content, content_type = EXCLUDED.content_type, etag = EXCLUDED.etag, updated = now()`,
        [kind, key.activity, key.agent, key.registration, key.docId, content, type, etag],
      );
      return etag;
    });
  }

  async deleteDocuments(p: LrsPrincipal, kind: string, key: { activity: string; agent: string; registration: string; docId: string | null }, pre: { ifMatch?: string; ifNoneMatch?: string }) {
    if (key.docId !== null) {
      const cur = await this.getDocument(p, kind, key);
      checkPreconditions(cur?.etag ?? null, pre);
      await scoped(this.ds, p.organizationId).query<unknown>(
        `DELETE FROM lrs_documents WHERE organization_id = $org AND kind = $1 AND activity_id = $2 AND agent = $3 AND registration = $4 AND doc_id = $5`,
        [kind, key.activity, key.agent, key.registration, key.docId],
      );
      return;
    }
    await scoped(this.ds, p.organizationId).query<unknown>(
      `DELETE FROM lrs_documents WHERE organization_id = $org AND kind = $1 AND activity_id = $2 AND agent = $3 AND ($4 = '' OR registration = $4)`,
      [kind, key.activity, key.agent, key.registration],
    );
  }
}

const SIGNATURE = 'http://adlnet.gov/expapi/attachments/signature';

/**
 * A signed statement (xAPI Data 2.6): its signature attachment is application/octet-stream, a JWS
 * in compact serialization with RS256, RS384 or RS512, whose payload is the statement as it was
 * before the signature was added; with an `x5c` certificate the signature itself is verified.
 */
function checkSignature(statement: Obj, parts: Map<string, Attachment>, i: number) {
  for (const a of (statement.attachments ?? []) as Obj[]) {
    if (a.usageType !== SIGNATURE) continue;
    if (!/^application\/octet-stream$/i.test(String(a.contentType))) throw bad(`statement ${i}: a signature attachment must be application/octet-stream`);
    const part = parts.get(String(a.sha2).toLowerCase());
    if (!part) throw bad(`statement ${i}: the signature attachment has no part`);
    const jws = part.content.toString('utf8').trim().split('.');
    if (jws.length !== 3 || jws.some((x) => !/^[A-Za-z0-9_-]*$/.test(x)) || !jws[0] || !jws[1]) throw bad(`statement ${i}: the signature is not a JWS`);
    let header: Obj;
    let payload: Obj;
    try {
      header = JSON.parse(Buffer.from(jws[0], 'base64url').toString('utf8'));
      payload = JSON.parse(Buffer.from(jws[1], 'base64url').toString('utf8'));
    } catch {
      throw bad(`statement ${i}: the signature's header or payload is not JSON`);
    }
    if (!['RS256', 'RS384', 'RS512'].includes(header?.alg)) throw bad(`statement ${i}: the signature must use RS256, RS384 or RS512`);
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw bad(`statement ${i}: the signature's payload is not a statement`);
    const strip = (x: Obj, keepId: boolean) => {
      const { attachments: _a, authority: _au, stored: _s, version: _v, id, ...rest } = x;
      return canonical({ ...rest, ...(keepId && id !== undefined ? { id: String(id).toLowerCase() } : {}), timestamp: rest.timestamp ? new Date(rest.timestamp).getTime() : undefined });
    };
    const keepId = payload.id !== undefined;
    if (strip(payload, keepId) !== strip(statement, keepId)) throw bad(`statement ${i}: the signature's payload is not this statement`);
    if (Array.isArray(header.x5c) && typeof header.x5c[0] === 'string') {
      try {
        const cert = new X509Certificate(Buffer.from(header.x5c[0], 'base64'));
        const ok = createVerify(`RSA-SHA${header.alg.slice(2)}`)
          .update(`${jws[0]}.${jws[1]}`)
          .verify(cert.publicKey, Buffer.from(jws[2], 'base64url'));
        if (!ok) throw new Error('bad signature');
      } catch {
        throw bad(`statement ${i}: the signature does not verify against its x5c certificate`);
      }
    }
  }
}

/** A statement sent with a launch's key: its own learner as actor, in its own registration. */
function checkLaunchStatement(l: LaunchScope, s: Obj, where: string) {
  if (agentKey(s.actor) !== l.agent) throw new XapiError(403, `${where}a launch's key writes only its own learner's statements`);
  const reg = s.context?.registration === undefined ? '' : String(s.context.registration).toLowerCase();
  if (reg !== l.registration && (l.registrationRequired || reg !== '')) throw new XapiError(403, `${where}a launch's key writes only in its own registration`);
}

/** Context activities are stored and answered as arrays, even when one was sent alone. */
function normaliseContextActivities(s: Obj) {
  const ca = s.context?.contextActivities;
  if (!ca) return;
  for (const k of ['parent', 'grouping', 'category', 'other']) if (ca[k] !== undefined && !Array.isArray(ca[k])) ca[k] = [ca[k]];
}

function checkPreconditions(etag: string | null, pre: { ifMatch?: string; ifNoneMatch?: string }) {
  const tags = (h: string) => h.split(',').map((t) => t.trim().replace(/^W\//, '').replace(/^"|"$/g, ''));
  if (pre.ifMatch !== undefined) {
    const list = tags(pre.ifMatch);
    if (!etag || !(list.includes('*') || list.includes(etag))) throw new XapiError(412, 'If-Match does not match the document');
  }
  if (pre.ifNoneMatch !== undefined) {
    const list = tags(pre.ifNoneMatch);
    if (etag && (list.includes('*') || list.includes(etag))) throw new XapiError(412, 'If-None-Match matches the document');
  }
}

function jsonObject(body: Buffer, contentType: string): Obj | null {
  if (!/^application\/json/i.test(contentType)) return null;
  try {
    const v = JSON.parse(body.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

function bool(v: string, name: string): boolean {
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw bad(`${name} must be true or false`);
}

/** Two statements are the same when they agree but for what the LRS sets (stored, authority, version) and the order of members. */
function sameStatement(a: Obj, b: Obj, ignoreTimestamp: boolean): boolean {
  const strip = (s: Obj) => {
    const { stored: _s, authority: _a, version: _v, timestamp: t, ...rest } = s;
    return canonical({ ...rest, timestamp: t && !ignoreTimestamp ? new Date(t).getTime() : undefined });
  };
  return strip(a) === strip(b);
}
/** Durations compare to the hundredth of a second (xAPI 2.0 4.2.7): finer digits are dropped. */
function truncDuration(d: unknown): unknown {
  return typeof d === 'string' ? d.replace(/(\d+)\.(\d{1,2})\d*S/, (_m, i, f) => `${i}.${f.padEnd(2, '0')}S`).replace(/\.00S/, 'S') : d;
}
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    if ((v as Obj).duration !== undefined && typeof (v as Obj).duration === 'string') v = { ...(v as Obj), duration: truncDuration((v as Obj).duration) };
    return `{${Object.keys(v as Obj)
      .filter((k) => (v as Obj)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Obj)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

function agentsIn(a: unknown): string[] {
  if (!a || typeof a !== 'object') return [];
  const o = a as Obj;
  const out: string[] = [];
  const k = agentKey(o);
  if (k) out.push(k);
  if (Array.isArray(o.member)) for (const m of o.member) out.push(...agentsIn(m));
  return out;
}

function activitiesIn(s: Obj): Obj[] {
  const out: Obj[] = [];
  const obj = s.object;
  if (obj && (obj.objectType === undefined || obj.objectType === 'Activity')) out.push(obj);
  const ca = s.context?.contextActivities;
  if (ca) for (const k of ['parent', 'grouping', 'category', 'other']) if (ca[k]) out.push(...(Array.isArray(ca[k]) ? ca[k] : [ca[k]]));
  if (obj?.objectType === 'SubStatement') out.push(...activitiesIn(obj));
  return out;
}

function mergeDefinition(a: Obj | undefined, b: Obj): Obj {
  const out: Obj = { ...(a ?? {}), ...b };
  for (const k of ['name', 'description']) if (a?.[k] || b[k]) out[k] = { ...(a?.[k] ?? {}), ...(b[k] ?? {}) };
  return out;
}

/** The indexed columns of a stored statement. */
/** An array literal of text (the server's `text[]` input syntax). */
function textArray(values: string[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) out += (i ? ',"' : '"') + values[i].replace(/[\\"]/g, '\\$&') + '"';
  return out + '}';
}

/** The batch's rows as the jsonb parameter of ROWS_OF. */
function rowsParam(rows: Obj[]): string {
  return JSON.stringify(
    rows.map((r) => {
      const c = columnsOf(r);
      return {
        id: c.id,
        statement: c.statement,
        verb_id: c.verb_id,
        activity_id: c.activity_id,
        agents: textArray(c.agents),
        related_agents: textArray(c.related_agents),
        related_activities: textArray(c.related_activities),
        registration: c.registration,
        voiding_target: c.voiding_target,
        hashes: textArray(c.hashes),
      };
    }),
  );
}

function columnsOf(s: Obj) {
  const obj = s.object ?? {};
  const objectIsAgent = obj.objectType === 'Agent' || obj.objectType === 'Group';
  const direct = [...agentsIn(s.actor), ...(objectIsAgent ? agentsIn(obj) : [])];
  const related = new Set(direct);
  for (const a of [s.authority, s.context?.instructor, s.context?.team]) for (const k of agentsIn(a)) related.add(k);
  for (const ca of s.context?.contextAgents ?? []) for (const k of agentsIn(ca.agent)) related.add(k);
  for (const cg of s.context?.contextGroups ?? []) for (const k of agentsIn(cg.group)) related.add(k);
  if (obj.objectType === 'SubStatement') {
    for (const a of [obj.actor, obj.object?.objectType === 'Agent' || obj.object?.objectType === 'Group' ? obj.object : null, obj.context?.instructor, obj.context?.team])
      for (const k of agentsIn(a)) related.add(k);
  }
  const activities = [...new Set(activitiesIn(s).map((a) => String(a.id)))];
  const hashes = [...(s.attachments ?? []), ...(obj.objectType === 'SubStatement' ? (obj.attachments ?? []) : [])].map((a: Obj) => String(a.sha2));
  return {
    id: s.id,
    statement: s,
    verb_id: s.verb.id,
    activity_id: obj.objectType === undefined || obj.objectType === 'Activity' ? obj.id : null,
    agents: [...new Set(direct)],
    related_agents: [...related],
    related_activities: activities,
    registration: s.context?.registration ? String(s.context.registration).toLowerCase() : null,
    voiding_target: obj.objectType === 'StatementRef' ? String(obj.id).toLowerCase() : null,
    hashes,
  };
}

/** `ids`: agents by their identifier only, activities and verbs by id; `canonical`: one language per map. */
function formatStatement(s: Obj, format: string, acceptLanguage: string | undefined): Obj {
  if (format === 'exact') return s;
  const copy = JSON.parse(JSON.stringify(s)) as Obj;
  const walk = (v: any, parentKey: string | null): any => {
    if (Array.isArray(v)) return v.map((x) => walk(x, parentKey));
    if (!v || typeof v !== 'object') return v;
    if (format === 'ids') {
      if (v.objectType === 'Agent' || (v.objectType === undefined && (v.mbox || v.mbox_sha1sum || v.openid || v.account) && parentKey !== 'account')) {
        const out: Obj = {};
        for (const k of ['mbox', 'mbox_sha1sum', 'openid', 'account']) if (v[k] !== undefined) out[k] = v[k];
        return out;
      }
      if (v.objectType === 'Group') {
        const out: Obj = { objectType: 'Group' };
        for (const k of ['mbox', 'mbox_sha1sum', 'openid', 'account']) if (v[k] !== undefined) out[k] = v[k];
        if (v.member && !agentKey(v)) out.member = walk(v.member, 'member');
        return out;
      }
      if ((parentKey === 'object' || ['parent', 'grouping', 'category', 'other'].includes(parentKey ?? '')) && (v.objectType === undefined || v.objectType === 'Activity') && v.id) {
        return { id: v.id };
      }
      if (parentKey === 'verb') return { id: v.id };
    }
    if (format === 'canonical' && ['display', 'name', 'description'].includes(parentKey ?? '') && Object.values(v).every((x) => typeof x === 'string')) {
      const keys = Object.keys(v);
      const wanted = (acceptLanguage ?? '')
        .split(',')
        .map((x) => x.split(';')[0].trim().toLowerCase())
        .filter(Boolean);
      const pick = keys.find((k) => wanted.includes(k.toLowerCase())) ?? keys.find((k) => wanted.some((w) => k.toLowerCase().startsWith(`${w}-`))) ?? keys[0];
      return pick ? { [pick]: v[pick] } : {};
    }
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) out[k] = k === 'extensions' ? x : walk(x, k);
    return out;
  };
  return walk(copy, null);
}

export { rowsOf };

/**
 * A JSON state document written by the LMS side (cmi5's `LMS.LaunchData`, content-runs), in the
 * caller's transaction: the LRS owns lrs_documents, so its writes are here.
 */
export async function putStateDocument(
  m: { query(sql: string, params?: unknown[]): Promise<any> },
  organizationId: string,
  key: { activity: string; agent: string; registration: string; docId: string },
  json: unknown,
): Promise<void> {
  const body = JSON.stringify(json);
  await scoped(m, organizationId).query<unknown>(
    `INSERT INTO lrs_documents (organization_id, kind, activity_id, agent, registration, doc_id, content, content_type, etag, updated)
     VALUES ($org, 'state', $1, $2, $3, $4, $5, 'application/json', $6, now())
     ON CONFLICT (organization_id, kind, activity_id, agent, registration, doc_id) DO UPDATE SET content = EXCLUDED.content, etag = EXCLUDED.etag, updated = now()`,
    [key.activity, key.agent, key.registration, key.docId, Buffer.from(body), createHash('sha1').update(body).digest('hex')],
  );
}

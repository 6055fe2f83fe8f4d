/**
 * Test-time organization-scoping audit (docs/architecture.md, "Organization scoping").
 *
 * Registered in jest.config.js (setupFilesAfterEnv), so it runs in every test file: it wraps
 * pg's Client.prototype.query in the test process, so every statement the in-process API, worker
 * or CLI module sends is seen. A statement that touches an organization-owned table (one with an
 * organization_id column: the list is read from the migrated template by the global setup) and
 * neither mentions organization_id nor carries the `/* unscoped: reason *\/` marker of
 * unscoped(...) is an offender when it was sent from application code (a frame under src/).
 * Statements sent by the tests themselves (checks and set-up written in test files) and by
 * migrations are not application code and are not audited.
 *
 * ORG_AUDIT=fail (default): offenders fail the test during which they ran (afterEach), or the file
 * (afterAll) for those sent in hooks. ORG_AUDIT=report: offenders are appended as JSON lines to
 * ORG_AUDIT_REPORT (default /tmp/org-audit-<template>.jsonl) and nothing fails. ORG_AUDIT=off.
 *
 * The stricter tier (ORG_AUDIT_STRICT=fail, the default) also wants organization_id compared in a
 * WHERE / ON clause, a row comparison or an INSERT column list, not merely selected (TypeORM's
 * find({ where: { id } }) selects it): see hasOrgPredicate. ORG_AUDIT_STRICT=report|off.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { Client } from 'pg';

const MODE = (process.env.ORG_AUDIT ?? 'fail') as 'fail' | 'report' | 'off';
/**
 * The stricter tier (organization_id compared, not just selected): fails by default since the whole
 * suite ran clean of it; ORG_AUDIT_STRICT=report lists its offenders in <report>-strict.jsonl
 * instead, ORG_AUDIT_STRICT=off keeps only the lenient tier.
 */
export const strictMode = (env: NodeJS.ProcessEnv = process.env) => (env.ORG_AUDIT_STRICT ?? 'fail') as 'fail' | 'report' | 'off';
const STRICT = strictMode();
const ORG_TABLES = new Set((process.env.CP_TEST_ORG_TABLES ?? '').split(',').filter(Boolean));
const REPORT = process.env.ORG_AUDIT_REPORT ?? `/tmp/org-audit-${process.env.CP_TEST_TEMPLATE ?? 'run'}.jsonl`;
const ROOT = `${process.cwd()}/`;

export interface Offence {
  sql: string;
  tables: string[];
  site: string;
}

const TABLE_REF = /\b(?:from|join|update|into)\s+(?:only\s+)?(?:"?public"?\s*\.\s*)?"?([a-z_][a-z0-9_]*)"?/gi;

/** The organization-owned tables a statement names after FROM, JOIN, UPDATE, INTO (strings and comments removed). */
export function orgTablesOf(sql: string, orgTables: ReadonlySet<string>): string[] {
  const text = sql
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ');
  const found = new Set<string>();
  for (const m of text.matchAll(TABLE_REF)) {
    const t = m[1].toLowerCase();
    if (orgTables.has(t)) found.add(t);
  }
  return [...found];
}

/** Why a statement is acceptable, or null when it is an offender (exported for the audit's own test). */
export function isScoped(sql: string): boolean {
  return /\/\*\s*unscoped:\s*[^*\s][^*]*\*\//.test(sql) || /organization_id/i.test(sql);
}

const COL = String.raw`(?:"?\w+"?\s*\.\s*)?"?organization_id"?`;
const PREDICATE = [
  // organization_id compared in a WHERE / ON / AND / OR / USING clause: `AND "t"."organization_id" = $2`
  new RegExp(String.raw`\b(?:where|on|and|or|using)\s*\(*\s*${COL}\s*(?:=|<>|\bin\b|\bis\b)`, 'i'),
  // compared the other way round, or as part of a row: `= u.organization_id`, `(organization_id, id) IN`
  new RegExp(String.raw`=\s*${COL}\b`, 'i'),
  new RegExp(String.raw`\(\s*${COL}\s*,`, 'i'),
  // an INSERT that names the column
  new RegExp(String.raw`\binsert\s+into\s+[\w".]+(?:\s+as\s+"?\w+"?)?\s*\([^)]*\borganization_id\b`, 'i'),
];

/**
 * The stricter reading: organization_id used as a predicate (or inserted), not merely selected
 * (TypeORM's find() selects every column, organization_id included, whatever its where).
 */
export function hasOrgPredicate(sql: string): boolean {
  if (/\/\*\s*unscoped:\s*[^*\s][^*]*\*\//.test(sql)) return true;
  const text = sql
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ');
  return PREDICATE.some((re) => re.test(text));
}

/** The first frame of ours: an application site under src/ (not the scoped helper), 'test' for test or migration code, null when none. */
function siteOf(stack: string): string | 'test' | null {
  for (const line of stack.split('\n').slice(1)) {
    const at = line.indexOf(ROOT);
    if (at < 0) continue;
    const rest = line.slice(at + ROOT.length);
    if (rest.startsWith('node_modules/') || rest.startsWith('test/support/org-audit')) continue;
    if (rest.startsWith('src/core/database/scoped.ts')) continue;
    if (rest.startsWith('src/')) {
      const site = rest.replace(/\)$/, '');
      // a library's own sources through its source map (typeorm's src/driver/...) are not ours
      if (isOurs(site.replace(/:\d+:\d+$/, ''))) return site;
      continue;
    }
    return 'test'; // a test file, a test helper or a migration sent it
  }
  return null;
}

const ours = new Map<string, boolean>();
function isOurs(file: string): boolean {
  let yes = ours.get(file);
  if (yes === undefined) ours.set(file, (yes = existsSync(ROOT + file)));
  return yes;
}

const pending: Offence[] = [];
const strictPending: Offence[] = [];

/** The offence a statement sent from `stack` makes, or null (exported for the audit's own test). */
export function offenceOf(sql: string, stack: string, orgTables: ReadonlySet<string> = ORG_TABLES): Offence | null {
  if (!orgTables.size || isScoped(sql)) return null;
  const tables = orgTablesOf(sql, orgTables);
  if (!tables.length) return null;
  const site = siteOf(stack);
  if (site === 'test') return null;
  // no frame of ours at all (an async chain that lost its caller): kept, rather than let it pass unseen
  return {
    sql,
    tables,
    site:
      site ??
      `(no application frame) ${stack
        .split('\n')
        .slice(1, 8)
        .map((l) => l.trim())
        .join(' | ')}`,
  };
}

function check(sql: string) {
  if (!ORG_TABLES.size) return;
  const lenient = isScoped(sql);
  if (lenient && (STRICT === 'off' || hasOrgPredicate(sql))) return;
  if (!orgTablesOf(sql, ORG_TABLES).length) return;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 80;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  if (!lenient) {
    const o = offenceOf(sql, stack);
    if (o) pending.push(o);
    return;
  }
  // organization_id is only selected, not compared: the stricter tier (ORG_AUDIT_STRICT)
  const o = offenceOf(sql.replace(/organization_id/gi, 'org_column_selected_only'), stack);
  if (o) strictPending.push({ ...o, sql });
}

const PATCHED = Symbol.for('cp.orgAudit.patched');
if (MODE !== 'off' && !(Client.prototype as any)[PATCHED]) {
  const original = Client.prototype.query;
  (Client.prototype as any).query = function (this: Client, config: any, ...rest: any[]) {
    const sql = typeof config === 'string' ? config : config?.text;
    if (typeof sql === 'string') check(sql);
    return (original as any).call(this, config, ...rest);
  };
  (Client.prototype as any)[PATCHED] = true;
}

function drain(when: string) {
  if (strictPending.length) {
    const strict = strictPending.splice(0);
    if (STRICT === 'fail') pending.push(...strict);
    else {
      const file = expect.getState().testPath ?? '';
      appendFileSync(REPORT.replace(/(\.jsonl)?$/, '-strict.jsonl'), strict.map((o) => JSON.stringify({ ...o, file: file.replace(ROOT, ''), when })).join('\n') + '\n');
    }
  }
  if (!pending.length) return;
  const found = pending.splice(0);
  if (MODE === 'report') {
    const file = expect.getState().testPath ?? '';
    appendFileSync(REPORT, found.map((o) => JSON.stringify({ ...o, file: file.replace(ROOT, ''), when })).join('\n') + '\n');
    return;
  }
  const sites = new Map<string, Offence>();
  for (const o of found) sites.set(o.site, o);
  throw new Error(
    `Organization-scoping audit: ${found.length} statement(s) touched organization-owned tables without an organization_id predicate and without unscoped('reason') (${when}):\n` +
      [...sites.values()].map((o) => `  at ${o.site}\n    tables: ${o.tables.join(', ')}\n    ${o.sql.replace(/\s+/g, ' ').slice(0, 300)}`).join('\n'),
  );
}

if (MODE !== 'off') {
  afterEach(() => drain('during the test'));
  afterAll(() => drain('in a hook'));
}

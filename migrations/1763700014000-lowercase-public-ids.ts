import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Public ids changed from `prefix_` + base64url(uuid) (22 characters, `_`, `-` and capitals) to
 * `prefix` + the uuid's 128 bits in base 36, 25 digits, so that they match the published
 * `^[0-9a-z]+$` (CONVENTIONS §9). Tables keep UUIDs, so the only stored public ids are those inside
 * the JSON bodies of outbox events (`outbox_events.payload`: the event `id`, `user.id`,
 * `course.id`, ...). This rewrites every string of the old form with a known prefix into the new
 * form, wherever it sits in the body; `down` does the reverse. Self-contained on purpose: the
 * encoding here is frozen, whatever src/core/ids becomes later.
 */
const PREFIXES = [
  'org',
  'cli',
  'adm',
  'dom',
  'stu',
  'crs',
  'les',
  'pcs',
  'enr',
  'cert',
  'rat',
  'grp',
  'gcat',
  'whk',
  'dlv',
  'evt',
  'ast',
  'wpk',
  'lbl',
  'tag',
  'cit',
  'pth',
  'ppth',
  'pit',
  'acp',
  'acc',
  'csr',
  'pln',
  'sfd',
  'ofr',
  'plne',
  'ppen',
  'dui',
  'quiz',
  'vov',
];
const OLD_RE = new RegExp(`^(${PREFIXES.join('|')})_([A-Za-z0-9_-]{22})$`);
const NEW_RE = new RegExp(`^(${PREFIXES.join('|')})([0-9a-z]{25})$`);
const BATCH = 500;

export function oldToNew(s: string): string | null {
  const m = OLD_RE.exec(s);
  if (!m) return null;
  const bytes = Buffer.from(m[2], 'base64url');
  if (bytes.length !== 16 || bytes.toString('base64url') !== m[2]) return null;
  return (
    m[1] +
    BigInt('0x' + bytes.toString('hex'))
      .toString(36)
      .padStart(25, '0')
  );
}

export function newToOld(s: string): string | null {
  const m = NEW_RE.exec(s);
  if (!m) return null;
  let v = 0n;
  for (const ch of m[2]) v = v * 36n + BigInt(parseInt(ch, 36));
  if (v >= 1n << 128n) return null;
  return `${m[1]}_${Buffer.from(v.toString(16).padStart(32, '0'), 'hex').toString('base64url')}`;
}

/** Rewrite the matching strings of a JSON value; `changed` tells whether anything moved. */
function rewrite(value: unknown, convert: (s: string) => string | null, state: { changed: boolean }): unknown {
  if (typeof value === 'string') {
    const out = convert(value);
    if (out === null) return value;
    state.changed = true;
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => rewrite(v, convert, state));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = rewrite(v, convert, state);
    return out;
  }
  return value;
}

async function convertPayloads(q: QueryRunner, convert: (s: string) => string | null): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows: { id: string; payload: unknown }[] = await q.query(`SELECT id, payload FROM outbox_events WHERE id > $1 ORDER BY id LIMIT ${BATCH}`, [after]);
    if (!rows.length) return;
    const ids: string[] = [];
    const bodies: string[] = [];
    for (const r of rows) {
      const state = { changed: false };
      const next = rewrite(r.payload, convert, state);
      if (state.changed) {
        ids.push(r.id);
        bodies.push(JSON.stringify(next));
      }
    }
    if (ids.length) {
      await q.query(`UPDATE outbox_events o SET payload = v.payload::jsonb FROM unnest($1::uuid[], $2::text[]) AS v(id, payload) WHERE o.id = v.id`, [ids, bodies]);
    }
    after = rows[rows.length - 1].id;
  }
}

export class LowercasePublicIds1763700014000 implements MigrationInterface {
  name = 'LowercasePublicIds1763700014000';

  async up(q: QueryRunner): Promise<void> {
    await convertPayloads(q, oldToNew);
  }

  async down(q: QueryRunner): Promise<void> {
    await convertPayloads(q, newToOld);
  }
}

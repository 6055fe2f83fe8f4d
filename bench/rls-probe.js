'use strict';
// Row-level security cost, measured at the database: the students read statement, 50 concurrent
// loops over a pool of 10, four rounds of 4 s per variant in rotating order. Scratch database and
// role, dropped at the end. `node bench/rls-probe.js` (not part of npm run bench; figures in
// docs/performance.md, 'Organization scoping').
const { Pool, Client } = require('pg');
const { randomUUID, randomBytes } = require('node:crypto');
const BASE = process.env.BENCH_PG_BASE ?? 'postgres://postgres@127.0.0.1:5432/'; // a superuser: creates a scratch database and role
const DB = `cp_bench_rls_${randomBytes(4).toString('hex')}`;
const ROLE = `cp_rls_app_${randomBytes(3).toString('hex')}`;
const COLS = 'id, organization_id, email, first_name, last_name, external_id, is_inactive, created_at, updated_at';
async function admin(db, sql) {
  const c = new Client({ connectionString: BASE + db });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}
async function main() {
  await admin('postgres', `CREATE DATABASE ${DB}`);
  await admin('postgres', `CREATE ROLE ${ROLE} LOGIN`);
  const orgA = randomUUID(),
    orgB = randomUUID();
  await admin(
    DB,
    `CREATE TABLE users (id uuid PRIMARY KEY, organization_id uuid NOT NULL, email text NOT NULL, first_name text NOT NULL DEFAULT '', last_name text NOT NULL DEFAULT '', external_id text NOT NULL DEFAULT '', is_inactive boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
    CREATE UNIQUE INDEX ON users (organization_id, lower(email)); CREATE INDEX ON users (organization_id, created_at, id);
    INSERT INTO users (id, organization_id, email) SELECT gen_random_uuid(), CASE WHEN i % 2 = 0 THEN '${orgA}'::uuid ELSE '${orgB}'::uuid END, 'u' || i || '@x.test' FROM generate_series(1, 20000) i;
    ALTER TABLE users ENABLE ROW LEVEL SECURITY;
    CREATE POLICY org ON users USING (organization_id = current_setting('app.org', true)::uuid);
    GRANT SELECT ON users TO ${ROLE};`,
  );
  await admin(DB, 'VACUUM ANALYZE users');
  const ids = (await admin(DB, `SELECT id FROM users WHERE organization_id = '${orgA}' LIMIT 2000`)).rows.map((r) => r.id);
  const owner = new Pool({ connectionString: BASE + DB, max: 10 });
  const app = new Pool({ connectionString: BASE + DB, user: ROLE, max: 10 });
  const SQL = `SELECT ${COLS} FROM users WHERE id = $1 AND organization_id = $2`;
  const variants = {
    // today: the owner role (RLS does not apply to the owner), one statement
    plain: async (id) => (await owner.query(SQL, [id, orgA])).rows,
    // RLS, organization set per request inside a transaction (BEGIN, set_config local, query, COMMIT)
    'rls-tx': async (id) => {
      const c = await app.connect();
      try {
        await c.query('BEGIN');
        await c.query(`SELECT set_config('app.org', $1, true)`, [orgA]);
        const r = await c.query(SQL, [id, orgA]);
        await c.query('COMMIT');
        return r.rows;
      } finally {
        c.release();
      }
    },
    // RLS, session setting sent with the query in one round trip (simple protocol, two statements, no parameters)
    'rls-1rt': async (id) => {
      const r = await app.query(`SELECT set_config('app.org', '${orgA}', false); SELECT ${COLS} FROM users WHERE id = '${id}' AND organization_id = '${orgA}'`);
      return r[1].rows;
    },
    // RLS, session setting sent only when the pooled connection last served another organization (best case: one organization)
    'rls-cached': async (id) => {
      const c = await app.connect();
      try {
        if (c.__org !== orgA) {
          await c.query(`SELECT set_config('app.org', $1, false)`, [orgA]);
          c.__org = orgA;
        }
        return (await c.query(SQL, [id, orgA])).rows;
      } finally {
        c.release();
      }
    },
  };
  const check = await variants['rls-cached'](ids[0]);
  if (check.length !== 1) throw new Error('RLS variant sees nothing');
  const run = async (fn, ms) => {
    let n = 0;
    const end = Date.now() + ms;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (Date.now() < end) {
          const r = await fn(ids[n % ids.length]);
          if (r.length !== 1) throw new Error('bad');
          n++;
        }
      }),
    );
    return n / (ms / 1000);
  };
  const out = {};
  const names = Object.keys(variants);
  for (let round = 0; round < 4; round++)
    for (let j = 0; j < names.length; j++) {
      const k = names[(j + round) % names.length];
      const fn = variants[k];
      await run(fn, 1000);
      (out[k] ??= []).push(Math.round(await run(fn, 4000)));
    }
  for (const [k, v] of Object.entries(out)) console.log(`${k.padEnd(11)} ${v.join(' / ')} req/s   ratio to plain ${(v.reduce((a, b) => a + b) / out.plain.reduce((a, b) => a + b)).toFixed(2)}x`);
  await owner.end();
  await app.end();
}
main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    await admin('postgres', `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).catch(() => {});
    await admin('postgres', `DROP ROLE IF EXISTS ${ROLE}`).catch(() => {});
  });

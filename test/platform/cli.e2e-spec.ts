import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { loadConfig } from '../../src/core/config/config';
import { migrate } from '../../src/core/database/database';
import { MIGRATIONS } from '../../migrations';
import { startTestApp, TestApp } from '../support/app';
import { cli, jsonError, npmCli, oneJsonLine, Run } from '../support/cli';
import { adminQuery, dbUrl, dropDatabase, newDbName } from '../support/db';

// the command runs compiled once per file (test/support/cli.ts); each call still starts a Node process
jest.setTimeout(120_000);

describe('CLI: create-org and create-domain', () => {
  let t: TestApp;
  let db: string;
  beforeAll(async () => {
    t = await startTestApp();
    db = t.config.DATABASE_URL;
  });
  afterAll(() => t.close());

  it('create-org prints ONE line of JSON whose credentials work against the API', async () => {
    const email = `a-${randomBytes(3).toString('hex')}@b.test`;
    const out = oneJsonLine(await npmCli(db, ['create-org', '--name', 'Acme Learning', '--admin-email', email, '--admin-password', 'long-password']));
    expect(out).toEqual(
      expect.objectContaining({
        organization_id: expect.any(String),
        client_id: expect.any(String),
        client_secret: expect.any(String),
        api_key: expect.any(String),
        domain_name: expect.stringMatching(/^acme-learning(-[0-9a-f]{6})?\.localhost$/),
        scopes: expect.any(Array),
      }),
    );
    expect(out.organization_id.length).toBeLessThanOrEqual(64);

    // every scope of the catalog, for the client and the API key
    const token = await t.tokenFor(out);
    const catalog = await t.get('/v2/scopes/', { token });
    expect(catalog.status).toBe(200);
    // the pre-serialized catalog goes out with the same media type as every /v2 resource
    const clientList = await t.get('/v2/clients', { token });
    expect(clientList.status).toBe(200);
    expect(catalog.headers.get('content-type')).toBe(clientList.headers.get('content-type'));
    expect(catalog.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
    const all = catalog.body.data.map((s: { id: string }) => s.id);
    expect([...out.scopes].sort()).toEqual([...all].sort());
    const tokenRes = await t.post('/v2/auth/token', { client_id: out.client_id, client_secret: out.client_secret });
    expect(tokenRes.body.scope.split(' ').sort()).toEqual([...all].sort());

    // the administrator exists, with an argon2id hash of the password (never the password itself)
    const admins = await t.ds.query(`SELECT email, password_hash FROM admins WHERE lower(email) = lower($1)`, [email]);
    expect(admins).toHaveLength(1);
    expect(admins[0].password_hash).toMatch(/^\$argon2id\$/);
    // the secrets are stored as hashes only
    const clients = await t.ds.query(`SELECT secret_hash FROM oauth_clients WHERE client_id = $1`, [out.client_id]);
    expect(Buffer.from(clients[0].secret_hash).toString('utf8')).not.toContain(out.client_secret);
  });

  it('honours --domain, and create-domain adds public and private domains', async () => {
    const domain = `learn-${randomBytes(3).toString('hex')}.acme.test`;
    const org = oneJsonLine(await cli(db, ['create-org', '--name', 'Acme Two', '--domain', domain]));
    expect(org.domain_name).toBe(domain);

    const extra = `extra-${randomBytes(3).toString('hex')}.acme.test`;
    const pub = oneJsonLine(await cli(db, ['create-domain', '--org', org.organization_id, '--name', extra]));
    expect(pub).toEqual(expect.objectContaining({ organization_id: org.organization_id, domain_name: extra, access: 'PUBLIC' }));
    const hidden = `hidden-${randomBytes(3).toString('hex')}.acme.test`;
    const priv = oneJsonLine(await cli(db, ['create-domain', '--org', org.organization_id, '--name', hidden, '--private']));
    expect(priv).toEqual(expect.objectContaining({ domain_name: hidden, access: 'PRIVATE' }));

    const rows = await t.ds.query(`SELECT name, access FROM domains WHERE name = ANY($1) ORDER BY name`, [[domain, extra, hidden]]);
    expect(rows).toEqual(
      [
        { name: domain, access: 'PUBLIC' },
        { name: extra, access: 'PUBLIC' },
        { name: hidden, access: 'PRIVATE' },
      ].sort((a, b) => a.name.localeCompare(b.name)),
    );

    // a taken domain is refused
    expect(jsonError(await cli(db, ['create-domain', '--org', org.organization_id, '--name', extra]))).toMatch(/already exists/);
  });

  it('bad input exits non-zero with a JSON error on stderr and nothing on stdout', async () => {
    const before = (await t.ds.query(`SELECT count(*)::int AS n FROM organizations`))[0].n;
    expect(jsonError(await cli(db, ['create-org']))).toMatch(/--name/);
    expect(jsonError(await cli(db, ['create-org', '--name', 'X', '--admin-email', 'a@b.test']))).toMatch(/--admin-password/);
    expect(jsonError(await cli(db, ['create-org', '--name', 'X', '--admin-email', 'a@b.test', '--admin-password', 'short']))).toMatch(/8 characters/);
    expect(jsonError(await cli(db, ['create-org', '--name', 'X', '--bogus', 'y']))).toMatch(/bogus/);
    expect(jsonError(await cli(db, ['create-org', '--name', 'X', '--domain', 'not a domain!']))).toMatch(/not a valid domain/);
    expect(jsonError(await cli(db, ['delete-everything']))).toMatch(/usage/);
    // a malformed --org is named as such, not reported as missing
    expect(jsonError(await cli(db, ['create-domain', '--org', 'nonsense', '--name', 'x.test']))).toMatch(/^--org: "nonsense" is not an organization id/);
    expect(jsonError(await cli(db, ['create-domain', '--org', 'cp_bMdD4a664xJ6MHqqbgAWxQkz', '--name', 'x.test']))).toMatch(/is not an organization id/);
    expect(jsonError(await cli(db, ['create-domain', '--name', 'x.test']))).toMatch(/^--org \(an organization_id\) is required/);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM organizations`))[0].n).toBe(before);
  });
});

describe('database creation', () => {
  it('migrate() creates a database that does not exist and applies every migration, once', async () => {
    const name = newDbName('new');
    const config = loadConfig(process.env, { DATABASE_URL: dbUrl(name) });
    try {
      expect((await adminQuery(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount).toBe(0);
      const ran = await migrate(config);
      expect([...ran].sort()).toEqual(MIGRATIONS.map((m) => new m().name).sort());
      expect((await adminQuery(`SELECT 1 FROM pg_database WHERE datname = $1`, [name])).rowCount).toBe(1);
      const c = new Client({ connectionString: config.DATABASE_URL });
      await c.connect();
      try {
        const tables = await c.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
        expect(tables.rows.map((r) => r.table_name)).toEqual(expect.arrayContaining(['organizations', 'oauth_clients', 'refresh_tokens', 'auth_codes', 'schema_migrations']));
      } finally {
        await c.end();
      }
      // a second run finds nothing to do
      expect(await migrate(config)).toEqual([]);
    } finally {
      await dropDatabase(name);
    }
  });

  it('two migrate() runs at once on a fresh database (API and worker starting together) apply each migration once', async () => {
    const name = newDbName('new');
    const config = loadConfig(process.env, { DATABASE_URL: dbUrl(name) });
    try {
      const [a, b] = await Promise.all([migrate(config), migrate(config)]);
      expect([...a, ...b].sort()).toEqual(MIGRATIONS.map((m) => new m().name).sort());
    } finally {
      await dropDatabase(name);
    }
  });
});

describe('CLI: help and exit statuses (issue 28)', () => {
  const plain = (run: Run) => {
    expect(run.stdout).not.toMatch(/^[{"]/);
    expect(run.stdout).not.toContain('\\n');
  };
  it('--help prints plain text listing every command and the exit statuses, status 0 (through the documented `npm run --silent cli`)', async () => {
    const run = await npmCli('postgres://postgres@127.0.0.1:1/none', ['--help']);
    expect(run.code).toBe(0);
    plain(run);
    expect(run.stdout).toMatch(/^usage: npm run --silent cli -- COMMAND \[options\]\n/);
    for (const c of ['create-org', 'create-domain', 'create-signup-field', 'create-plan', 'create-group-category', 'create-admin', 'reset-admin-password'])
      expect(run.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(run.stdout).toMatch(/^Exit status:\n {2}0 .*\n {2}1 .*\n {2}2 /m);
  });

  it("COMMAND --help prints that command's synopsis in plain text, status 0, without touching the database", async () => {
    const run = await cli('postgres://postgres@127.0.0.1:1/none', ['create-domain', '--help']);
    expect(run.code).toBe(0);
    plain(run);
    expect(run.stdout.split('\n')[0]).toBe('usage: npm run --silent cli -- create-domain --org ORGANIZATION_ID --name DOMAIN [--private]');
    expect((await cli('postgres://postgres@127.0.0.1:1/none', ['help', 'create-admin'])).stdout).toMatch(/^usage: npm run --silent cli -- create-admin /);
  });

  it('exit statuses: 2 for no command (the help on stderr), an unknown command or a missing option; 1 when the database cannot be reached', async () => {
    const none = await cli('postgres://postgres@127.0.0.1:1/none', []);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^usage: npm run --silent cli -- COMMAND/);
    const unknown = await cli('postgres://postgres@127.0.0.1:1/none', ['bogus']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stderr).error).toBe("unknown command 'bogus' (usage: cli COMMAND [options]); see cli --help");
    const missing = await cli('postgres://postgres@127.0.0.1:1/none', ['create-org']);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stderr).error).toBe('--name is required; see cli create-org --help');
    const down = await cli('postgres://postgres@127.0.0.1:1/none', ['create-org', '--name', 'Nowhere']);
    expect(down.code).toBe(1);
    expect(JSON.parse(down.stderr).error).toMatch(/ECONNREFUSED/);
  });
});

import { bindOrg, scoped, unscoped, UnscopedStatementError } from './scoped';

/** Records what would reach the database. */
function recorder() {
  const sent: { sql: string; params?: unknown[] }[] = [];
  return { sent, runner: { query: async (sql: string, params?: unknown[]) => (sent.push({ sql, params }), []) } };
}

describe('scoped(ds, organizationId)', () => {
  it('binds the organization as the parameter after the caller ones, wherever $org appears', async () => {
    const { sent, runner } = recorder();
    const db = scoped(runner, 'org-a');
    await db.query('SELECT 1 FROM users WHERE id = $1 AND organization_id = $org', ['u1']);
    await db.query('INSERT INTO t (organization_id, a, b) SELECT $org::uuid, $1, $2 WHERE $org IS NOT NULL', ['x', 'y']);
    await db.query('SELECT 1 FROM users WHERE organization_id = $org');
    expect(sent).toEqual([
      { sql: 'SELECT 1 FROM users WHERE id = $1 AND organization_id = $2', params: ['u1', 'org-a'] },
      { sql: 'INSERT INTO t (organization_id, a, b) SELECT $3::uuid, $1, $2 WHERE $3 IS NOT NULL', params: ['x', 'y', 'org-a'] },
      { sql: 'SELECT 1 FROM users WHERE organization_id = $1', params: ['org-a'] },
    ]);
  });

  it('refuses (throws, sends nothing) a statement that does not name $org', async () => {
    const { sent, runner } = recorder();
    expect(() => scoped(runner, 'org-a').query('SELECT 1 FROM users WHERE id = $1', ['u1'])).toThrow(UnscopedStatementError);
    // $organization or $org1 are not $org
    expect(() => bindOrg('SELECT $org1', 0)).toThrow(UnscopedStatementError);
    expect(sent).toEqual([]);
    expect(() => scoped(runner, '')).toThrow();
  });

  it('the same text with another parameter count is rewritten for that count', () => {
    expect(bindOrg('SELECT $org', 0)).toBe('SELECT $1');
    expect(bindOrg('SELECT $org', 2)).toBe('SELECT $3');
    expect(bindOrg('SELECT $org', 0)).toBe('SELECT $1');
  });

  it('a transaction hands a handle bound to the same organization', async () => {
    const { sent, runner } = recorder();
    const ds = { query: runner.query, transaction: (fn: (m: any) => Promise<unknown>) => fn(runner) };
    await scoped(ds, 'org-b').transaction((tx) => tx.query('DELETE FROM t WHERE organization_id = $org AND id = $1', ['i']));
    expect(sent).toEqual([{ sql: 'DELETE FROM t WHERE organization_id = $2 AND id = $1', params: ['i', 'org-b'] }]);
  });
});

describe('unscoped(ds, reason)', () => {
  it('sends the statement unchanged behind a marker comment naming the reason', async () => {
    const { sent, runner } = recorder();
    await unscoped(runner, 'token lookup by hash').query('SELECT 1 FROM api_keys WHERE key_hash = $1', ['h']);
    expect(sent).toEqual([{ sql: '/* unscoped: token lookup by hash */ SELECT 1 FROM api_keys WHERE key_hash = $1', params: ['h'] }]);
  });

  it('needs a reason', () => {
    const { runner } = recorder();
    expect(() => unscoped(runner, ' ')).toThrow();
    expect(() => unscoped(runner, 'x */ DROP')).toThrow();
  });
});

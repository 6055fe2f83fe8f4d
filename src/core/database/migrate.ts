import 'dotenv/config';
import { loadConfig } from '../config/config';
import { createRootLogger } from '../logging/logger';
import { startFailure, waitForPostgres } from '../runtime/startup';
import { migrate } from './database';

/** `npm run migrate` (and the first step of `npm run up`): wait for PostgreSQL, create the database if missing, apply pending migrations. */
async function main() {
  const config = loadConfig();
  await waitForPostgres(config, createRootLogger(config, 'migrate'));
  const ran = await migrate(config);
  // one short line: the names only when there are few (a fresh database applies them all)
  process.stdout.write(JSON.stringify({ msg: ran.length ? `migrations applied: ${ran.length}` : 'database up to date', ...(ran.length && ran.length <= 5 ? { migrations: ran } : {}) }) + '\n');
}

main().catch((err) => {
  const { line, code } = startFailure(err, 'migrate');
  process.stderr.write(`${line.replace(/^migrate failed to start/, 'migration failed')}\n`);
  process.exit(code);
});

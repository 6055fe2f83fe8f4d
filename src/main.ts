import 'dotenv/config';
import 'reflect-metadata';
import { createApp } from './app.factory';
import { loadConfig } from './core/config/config';
import { migrate } from './core/database/database';

async function main() {
  const config = loadConfig();
  await migrate(config);
  const app = await createApp(config);
  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((err) => {
  process.stderr.write(`failed to start: ${err?.stack ?? err}\n`);
  process.exit(1);
});

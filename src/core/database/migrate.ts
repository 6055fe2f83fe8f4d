import 'dotenv/config';
import { loadConfig } from '../config/config';
import { migrate } from './database';

migrate(loadConfig())
  .then((ran) => {
    process.stdout.write(JSON.stringify({ msg: 'migrations applied', migrations: ran }) + '\n');
  })
  .catch((err) => {
    process.stderr.write(`migration failed: ${err?.message ?? err}\n`);
    process.exit(1);
  });

import { dropDatabase, dropRunDatabases } from './db';

export default async function globalTeardown() {
  const template = process.env.CP_TEST_TEMPLATE;
  if (!template) return;
  await dropRunDatabases(template); // the clones whose drop a worker's exit cut short
  await dropDatabase(template);
}

import { dropDatabase } from './db';

export default async function globalTeardown() {
  if (process.env.CP_TEST_TEMPLATE) await dropDatabase(process.env.CP_TEST_TEMPLATE);
}

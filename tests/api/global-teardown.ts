import { Client } from 'pg';

/** Drops this run's PostgreSQL schema (see global-setup.ts). */
export default async function globalTeardown(): Promise<void> {
  const schema = process.env.TALEFORGE_TEST_SCHEMA;
  const url = process.env.TALEFORGE_TEST_ADMIN_URL;
  if (!schema || !url) return;
  delete process.env.TALEFORGE_TEST_SCHEMA;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}

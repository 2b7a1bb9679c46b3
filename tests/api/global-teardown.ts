import fs from 'node:fs';
import { withAdmin } from './global-setup';

/**
 * Drops this run's template (see global-setup.ts): the PGlite file, or on PostgreSQL the template
 * database and any test file's copy a crashed worker could not drop.
 */
export default async function globalTeardown(): Promise<void> {
  const file = process.env.TALEFORGE_TEST_TEMPLATE_FILE;
  if (file) fs.rmSync(file, { force: true });
  const template = process.env.TALEFORGE_TEST_PG_TEMPLATE;
  const url = process.env.TALEFORGE_TEST_ADMIN_URL;
  if (!template || !url) return;
  delete process.env.TALEFORGE_TEST_PG_TEMPLATE;
  await withAdmin(url, async (admin) => {
    const rows = (await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [`${template}_`])).rows;
    for (const { datname } of [...rows, { datname: template }]) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}

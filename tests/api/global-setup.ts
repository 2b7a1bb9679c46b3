import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '../../server/src/config/env';
import { migrate, openDatabase } from '../../server/src/db/data-source';
import { seed } from '../../server/src/db/seed';
import { MediaService } from '../../server/src/modules/media/media.service';
import { seedImageFor } from '../../server/src/modules/worlds/seed-images';
import { TEMPLATE_DIR } from '../support/template';

/** Run databases older than this are a killed run's leftovers (a whole CI run takes well under it). */
const STALE_RUN_MS = 6 * 3600_000;
const RUN_PREFIX = 'tf_test_';

/**
 * Migrates and seeds once per run (shared by the api and e2e projects) a template every test file
 * copies, so no file ever sees another file's rows, nor any earlier run's:
 * - PGlite: a template file every test file loads (≈0.7 s instead of a 3–4 s fresh start plus
 *   migrations).
 * - PostgreSQL (DATABASE_URL): a template database of this run's own on that server; each test file
 *   gets its own copy (tests/support/database-environment.js) and drops it; the teardown drops the
 *   template. The role needs CREATEDB. Workers inherit the names through the environment.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.TALEFORGE_TEST_DB_READY) return;
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' }, { databaseInMemory: true });
  const run = `${RUN_PREFIX}${Date.now().toString(36)}_${process.pid}`;
  if (config.databaseUrl) {
    const adminUrl = config.databaseUrl;
    await withAdmin(adminUrl, async (admin) => {
      await dropStaleRuns(admin);
      await admin.query(`CREATE DATABASE "${run}"`);
    });
    process.env.TALEFORGE_TEST_PG_TEMPLATE = run;
    process.env.TALEFORGE_TEST_ADMIN_URL = adminUrl;
    const url = new URL(adminUrl);
    url.pathname = `/${run}`;
    const db = await openDatabase({ ...config, databaseUrl: url.toString() });
    try {
      await migrate(db);
      await seed(db.dataSource, new MediaService(db.dataSource), { imageFor: seedImageFor(config) });
    } finally {
      await db.close();
    }
  } else {
    const file = path.join(TEMPLATE_DIR, `pglite-template-${run}.tar.gz`);
    const db = await openDatabase(config);
    try {
      await migrate(db);
      await seed(db.dataSource, new MediaService(db.dataSource), { imageFor: seedImageFor(config) });
      const dump = await db.embedded!.dumpDataDir();
      fs.mkdirSync(TEMPLATE_DIR, { recursive: true });
      fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    } finally {
      await db.close();
    }
    process.env.TALEFORGE_TEST_TEMPLATE_FILE = file;
  }
  process.env.TALEFORGE_TEST_DB_READY = '1';
}

export async function withAdmin<T>(url: string, fn: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/** Databases a killed run left behind (its template and its files' copies), by the time in their name. */
async function dropStaleRuns(admin: Client): Promise<void> {
  const rows = (await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [RUN_PREFIX])).rows;
  for (const { datname } of rows) {
    const born = parseInt(datname.slice(RUN_PREFIX.length).split('_')[0] ?? '', 36);
    if (Number.isFinite(born) && Date.now() - born > STALE_RUN_MS) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

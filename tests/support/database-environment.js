// The api and e2e projects' jest environment: Node's, plus — on PostgreSQL (DATABASE_URL) — a
// database of the test file's own, copied from the migrated, seeded template database this run's
// global setup made (tests/api/global-setup.ts), and dropped when the file ends. Test files then
// never see each other's rows (nor any earlier run's), exactly as on PGlite, where every file loads
// its own copy of the template; and files on parallel workers never meet.
// Plain JavaScript: jest loads environments itself, outside the test transform.
const crypto = require('node:crypto');
const { TestEnvironment } = require('jest-environment-node');
const { Client } = require('pg');

class DatabaseEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    const template = process.env.TALEFORGE_TEST_PG_TEMPLATE;
    const adminUrl = process.env.TALEFORGE_TEST_ADMIN_URL;
    if (!template || !adminUrl) return;
    // ≤ 63 bytes (PostgreSQL's identifier limit): the run's name, the worker, a random tag.
    this.database = `${template}_w${process.env.JEST_WORKER_ID ?? '0'}_${crypto.randomBytes(4).toString('hex')}`;
    this.adminUrl = adminUrl;
    await admin(adminUrl, (c) => c.query(`CREATE DATABASE "${this.database}" TEMPLATE "${template}"`));
    const url = new URL(adminUrl);
    url.pathname = `/${this.database}`;
    // The test file's process.env (jest's copy) and the worker's own (what child processes spawned
    // without an explicit env inherit): both name this file's database while it runs.
    this.previousUrl = process.env.DATABASE_URL;
    process.env.DATABASE_URL = url.toString();
    this.global.process.env.DATABASE_URL = url.toString();
  }

  async teardown() {
    await super.teardown();
    if (!this.database) return;
    if (this.previousUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = this.previousUrl;
    // FORCE: a server process a failed test left running must not keep the database alive.
    await admin(this.adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${this.database}" WITH (FORCE)`));
  }
}

async function admin(url, fn) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

module.exports = DatabaseEnvironment;

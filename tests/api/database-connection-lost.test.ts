import { Client } from 'pg';
import type { Pool, PoolClient } from 'pg';
import { loadConfig } from '../../server/src/config/env';
import { openDatabase, type Database } from '../../server/src/db/data-source';

/**
 * A connection checked out of the app's pool, cut by PostgreSQL (a restart, a failover, an operator's
 * pg_terminate_backend) before its user listens for errors: the pool had stopped listening and the
 * error took the whole process down (CI's PostgreSQL-restart test under load, "Unhandled error …
 * terminating connection due to administrator command"). Now only the work on it fails.
 */
const PG = process.env.DATABASE_URL;

(PG ? describe : describe.skip)('a checked-out database connection cut by the server', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase(loadConfig({ NODE_ENV: 'test', DATABASE_URL: PG! }));
  });
  afterAll(() => db?.close());

  it('fails the work on it, not the process; the next work gets a fresh connection', async () => {
    const pool = (db.dataSource.driver as unknown as { master: Pool }).master;
    // Held with no listener of its own and no statement running: the moment between the pool handing
    // a connection over and its user attaching a listener.
    const held: PoolClient = await pool.connect();
    const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = new Client({ connectionString: PG });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    } finally {
      await admin.end();
    }
    await new Promise((r) => setTimeout(r, 300));
    await expect(held.query('SELECT 1')).rejects.toThrow();
    held.release(true);
    expect(await db.dataSource.query('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
  });
});

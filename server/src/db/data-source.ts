import type { EventEmitter } from 'node:events';
import path from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { Config } from '../config/env';
import { lockDataDir } from './data-dir-lock';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './naming-strategy';
import { createPGliteDriver } from './pglite-pool';
import { openEmbedded, type EmbeddedDatabase } from './pglite-thread';

export interface Database {
  dataSource: DataSource;
  kind: 'pglite' | 'postgres';
  /** The embedded database (PGlite only), e.g. to dump a migrated template in tests. */
  embedded?: EmbeddedDatabase;
  /** Closes TypeORM, then PGlite (flushing its files), then releases the data-folder lock. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PGlite data dump to start from (tests: a migrated template loads far faster than migrating). */
  pgliteLoadDataDir?: Blob;
}

const common = {
  type: 'postgres',
  entities: ENTITIES,
  migrations: MIGRATIONS,
  namingStrategy: new SnakeNamingStrategy(),
  synchronize: false,
  migrationsRun: false,
  // gen_random_uuid() is built into PostgreSQL 13+ and PGlite; creating extensions is not needed and
  // a failed CREATE EXTENSION is fatal on PGlite.
  installExtensions: false,
  uuidExtension: 'pgcrypto',
} as const;

/**
 * The pool listens for errors only on idle connections, and TypeORM attaches its listener to a
 * checked-out one a microtask after the pool hands it over. When PostgreSQL cuts a connection in that
 * gap (a restart: "terminating connection due to administrator command" can arrive in the very TCP
 * read that completes a new connection), the error had no listener and took the whole process down
 * (seen once in CI's PostgreSQL-restart test under load). Every connection gets a listener of its own
 * when first handed out: the error then only makes the connection unusable, the work on it fails
 * with it, and the pool replaces it.
 */
function guardCheckedOutConnections(dataSource: DataSource): void {
  const pool = (dataSource.driver as unknown as { master?: { on(event: 'acquire', listener: (client: EventEmitter) => void): void } }).master;
  const guarded = new WeakSet<EventEmitter>();
  pool?.on('acquire', (client) => {
    if (guarded.has(client)) return;
    guarded.add(client);
    client.on('error', () => undefined); // the failed statement or the next one reports it
  });
}

export async function openDatabase(config: Config, options: OpenDatabaseOptions = {}): Promise<Database> {
  if (config.databaseUrl) {
    const dataSource = new DataSource({
      ...common,
      url: config.databaseUrl,
      poolSize: 10,
      applicationName: 'taleforge',
    } as DataSourceOptions);
    await dataSource.initialize();
    guardCheckedOutConnections(dataSource);
    return { dataSource, kind: 'postgres', close: () => dataSource.destroy() };
  }

  const release = config.databaseInMemory ? () => undefined : lockDataDir(config.dataDir);
  let pglite: EmbeddedDatabase | undefined;
  try {
    // On a thread of its own unless PGLITE_THREAD=main: see pglite-thread.ts.
    pglite = await openEmbedded({
      thread: config.pgliteThread,
      dataDir: config.databaseInMemory ? undefined : path.join(config.dataDir, 'pglite'),
      loadDataDir: options.pgliteLoadDataDir,
    });
    const dataSource = new DataSource({ ...common, driver: createPGliteDriver(pglite) } as DataSourceOptions);
    await dataSource.initialize();
    const db = pglite;
    return {
      dataSource,
      kind: 'pglite',
      embedded: db,
      close: async () => {
        try {
          if (dataSource.isInitialized) await dataSource.destroy();
          await db.close();
        } finally {
          release();
        }
      },
    };
  } catch (e) {
    await pglite?.close().catch(() => undefined);
    release();
    throw e;
  }
}

/**
 * Runs pending migrations, each in its own transaction. On PostgreSQL an advisory lock (held on a
 * separate connection) keeps several instances starting together from racing. PGlite is single-process
 * (the data-folder lock guarantees it), and holding its one session here would deadlock the migrator.
 */
export async function migrate(db: Database): Promise<string[]> {
  const run = async () => (await db.dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  if (db.kind === 'pglite') return run();
  const runner = db.dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(7261001)');
    try {
      return await run();
    } finally {
      await runner.query('SELECT pg_advisory_unlock(7261001)');
    }
  } finally {
    await runner.release();
  }
}

import { EventEmitter } from 'node:events';
import { commandOf, type PgResult, type SessionRunner } from './pglite-session';

/**
 * A `pg`-shaped driver over one PGlite instance, handed to TypeORM through its `driver` option.
 *
 * Why not typeorm-pglite as shipped: it gives every query runner the *same* PGlite session at the
 * same time, so two concurrent transactions interleave on one connection — a rollback can keep the
 * other transaction's rows, reads see uncommitted rows and `SELECT … FOR UPDATE` never blocks. It also
 * keeps the instance in a process-wide static, so two data sources in one process share a database.
 *
 * Here the session is a resource with a mutex: a query runner owns it from `connect` to `release`,
 * exactly like a `pg` pool of size 1. Consequence (same as pg with max=1): code that holds a
 * transaction must not await another query outside that transaction, or it waits on itself.
 */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  acquire(): Promise<() => void> {
    let unlock!: () => void;
    const next = new Promise<void>((resolve) => (unlock = resolve));
    const ready = this.tail.then(() => {
      this.waiting--;
      return unlock;
    });
    this.waiting++;
    this.tail = this.tail.then(() => next);
    return ready;
  }

  get queued(): number {
    return this.waiting;
  }
}

type QueryCallback = (err: Error | null, result?: PgResult) => void;

export interface PGliteDriverModule {
  Pool: new (options?: unknown) => EventEmitter;
}

const drivers = new WeakSet<object>();

/**
 * Whether a data source runs on this driver: one embedded session whose statements run one at a
 * time (a statement is then atomic and isolated from every other one).
 */
export function isInProcessDatabase(dataSource: { options: object }): boolean {
  const driver = (dataSource.options as { driver?: unknown }).driver;
  return typeof driver === 'object' && driver !== null && drivers.has(driver);
}

export function createPGliteDriver(session: SessionRunner): PGliteDriverModule {
  const lock = new Mutex();

  class Client extends EventEmitter {
    private released = false;
    /** Tracks whether the owner left a transaction open, so it is rolled back before the next owner. */
    private inTransaction = false;

    constructor(private readonly unlock: () => void) {
      super();
    }

    query(sql: string, params?: unknown[] | QueryCallback, cb?: QueryCallback): Promise<PgResult> {
      if (typeof params === 'function') {
        cb = params;
        params = undefined;
      }
      if (this.released) {
        const err = new Error('PGlite client used after release');
        cb?.(err);
        return Promise.reject(err);
      }
      const cmd = commandOf(sql);
      if (cmd === 'BEGIN' || cmd === 'START') this.inTransaction = true;
      if (cmd === 'COMMIT' || cmd === 'ROLLBACK' || cmd === 'END') this.inTransaction = false;
      return session.run(sql, Array.isArray(params) ? params : undefined).then(
        (r) => {
          cb?.(null, r);
          return r;
        },
        (e: Error) => {
          cb?.(e);
          throw e;
        },
      );
    }

    release = (_err?: unknown): void => {
      if (this.released) return;
      this.released = true;
      if (this.inTransaction) {
        this.inTransaction = false;
        session.run('ROLLBACK', undefined).then(
          () => this.unlock(),
          () => this.unlock(),
        );
      } else {
        this.unlock();
      }
    };
  }

  class Pool extends EventEmitter {
    // TypeORM passes pg connection options; there is nothing to connect to.
    constructor(_options?: unknown) {
      super();
    }

    get totalCount(): number {
      return 1;
    }
    get waitingCount(): number {
      return lock.queued;
    }

    connect(): Promise<Client>;
    connect(cb: (err: Error | null, client?: Client, release?: (err?: unknown) => void) => void): void;
    connect(cb?: (err: Error | null, client?: Client, release?: (err?: unknown) => void) => void): Promise<Client> | void {
      const p = lock.acquire().then((unlock) => new Client(unlock));
      if (!cb) return p;
      p.then(
        (c) => cb(null, c, c.release),
        (e: Error) => cb(e),
      );
    }

    async query(sql: string, params?: unknown[], cb?: QueryCallback): Promise<PgResult> {
      const client = await this.connect();
      try {
        return await client.query(sql, params, cb);
      } finally {
        client.release();
      }
    }

    /** The PGlite instance is owned (and closed) by whoever created it, not by TypeORM. */
    end(cb?: (err?: Error) => void): Promise<void> {
      cb?.();
      return Promise.resolve();
    }
  }

  const driver = { Pool };
  drivers.add(driver);
  return driver;
}

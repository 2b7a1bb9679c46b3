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
 * Here the session is shared the way a single PostgreSQL connection with pipelining would be:
 * statements run one at a time, in the order they were sent, and a transaction has the session to
 * itself from BEGIN to COMMIT/ROLLBACK (or release, which rolls it back). A statement outside a
 * transaction only waits for its turn to be *sent*, not for the statements before it to be answered:
 * each is a transaction of its own, so running right behind another one is exactly what it would do
 * on a pool. That keeps the database busy while the app's thread is busy elsewhere, instead of idle
 * until the previous answer has been read — with PGlite on a thread of its own, every idle gap also
 * costs a thread wake-up. Consequence (same as pg with max=1): code that holds a transaction must not
 * await another query outside that transaction, or it waits on itself.
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

const ROLLBACK_TO = /^\s*ROLLBACK\s+(?:(?:WORK|TRANSACTION)\s+)?TO\b/i;

type QueryCallback = (err: Error | null, result?: PgResult) => void;

export interface PGliteDriverModule {
  Pool: new (options?: unknown) => EventEmitter;
}

export function createPGliteDriver(session: SessionRunner): PGliteDriverModule {
  const lock = new Mutex();

  class Client extends EventEmitter {
    private released = false;
    /** Held while this client has a transaction open: nobody else's statement may run inside it. */
    private unlock: (() => void) | null = null;

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
      const values = Array.isArray(params) ? params : undefined;
      return this.send(sql, values).then(
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

    /** Queues the statement in the session in turn; resolves with its answer. */
    private async send(sql: string, values: unknown[] | undefined): Promise<PgResult> {
      const cmd = commandOf(sql);
      if (this.unlock) {
        // Inside our own transaction: the session is ours until its end is sent.
        const answer = session.run(sql, values);
        // ROLLBACK TO SAVEPOINT goes back inside the transaction, which goes on.
        if (cmd === 'COMMIT' || cmd === 'END' || (cmd === 'ROLLBACK' && !ROLLBACK_TO.test(sql))) this.endTransaction();
        return answer;
      }
      const unlock = await lock.acquire();
      // Sent (queued in the session, which keeps call order) before the lock passes on.
      const answer = session.run(sql, values);
      if (cmd === 'BEGIN' || cmd === 'START') this.unlock = unlock;
      else unlock();
      return answer;
    }

    private endTransaction(): void {
      const unlock = this.unlock;
      this.unlock = null;
      unlock?.();
    }

    release = (_err?: unknown): void => {
      if (this.released) return;
      this.released = true;
      // A transaction left open is rolled back before anyone else's statement runs.
      if (this.unlock) {
        void session.run('ROLLBACK', undefined).catch(() => undefined);
        this.endTransaction();
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
      // The session is taken statement by statement (and for a transaction, from BEGIN): see Client.
      const p = Promise.resolve(new Client());
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
  return driver;
}

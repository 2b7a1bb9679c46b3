import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Concurrent transactions must be isolated on the embedded PGlite exactly as on PostgreSQL
 * (STACK.md §2: typeorm-pglite as shipped shares one session between them). Same file, both databases.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tag = () => `tx-${Date.now()}-${Math.random().toString(36).slice(2)}`;

describe('transaction isolation', () => {
  it('a rollback removes only its own rows, never a concurrent transaction’s committed rows', async () => {
    const ds = t.app.db.dataSource;
    const a = tag();
    const b = tag();
    const rolledBack = ds
      .transaction(async (m) => {
        await m.query(`INSERT INTO app_secrets (name, value) VALUES ($1, 'a')`, [a]);
        await sleep(50);
        throw new Error('roll me back');
      })
      .catch((e: Error) => e.message);
    const committed = ds.transaction(async (m) => {
      await m.query(`INSERT INTO app_secrets (name, value) VALUES ($1, 'b')`, [b]);
    });
    expect(await rolledBack).toBe('roll me back');
    await committed;
    const rows = await ds.query(`SELECT name FROM app_secrets WHERE name IN ($1, $2)`, [a, b]);
    expect(rows.map((r: { name: string }) => r.name)).toEqual([b]);
  });

  it('reads outside a transaction never see its uncommitted rows', async () => {
    const ds = t.app.db.dataSource;
    const a = tag();
    let inserted!: () => void;
    const insertedP = new Promise<void>((r) => (inserted = r));
    const tx = ds
      .transaction(async (m) => {
        await m.query(`INSERT INTO app_secrets (name, value) VALUES ($1, 'a')`, [a]);
        inserted();
        await sleep(80);
        throw new Error('abort');
      })
      .catch(() => undefined);
    await insertedP;
    const seen = await ds.query(`SELECT count(*)::int AS n FROM app_secrets WHERE name = $1`, [a]);
    await tx;
    expect(seen[0].n).toBe(0);
  });

  it('SELECT … FOR UPDATE blocks a second locker until the first commits, which then sees the new value', async () => {
    const ds = t.app.db.dataSource;
    const s = await signUp(t);
    const events: string[] = [];
    let locked!: () => void;
    const lockedP = new Promise<void>((r) => (locked = r));
    const first = ds.transaction(async (m) => {
      const [row] = await m.query(`SELECT credits FROM subscriptions WHERE user_id = $1 FOR UPDATE`, [s.user.id]);
      events.push('first locked');
      locked();
      await sleep(100);
      await m.query(`UPDATE subscriptions SET credits = $1 WHERE user_id = $2`, [row.credits + 100, s.user.id]);
      events.push('first commits');
    });
    await lockedP;
    const second = ds.transaction(async (m) => {
      const [row] = await m.query(`SELECT credits FROM subscriptions WHERE user_id = $1 FOR UPDATE`, [s.user.id]);
      events.push('second locked');
      return row.credits as number;
    });
    await first;
    const seenBySecond = await second;
    expect(events).toEqual(['first locked', 'first commits', 'second locked']);
    const [after] = await ds.query(`SELECT credits FROM subscriptions WHERE user_id = $1`, [s.user.id]);
    expect(seenBySecond).toBe(after.credits);
  });

  it('many concurrent spends never take the balance below zero, and the ledger matches', async () => {
    const s = await signUp(t);
    const start = await t.app.services.credits.balance(s.user.id);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => t.app.services.credits.spend(s.user.id, 3, 'character_generate')));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toBe(Math.floor(start / 3));
    for (const r of refused) expect((r as PromiseRejectedResult).reason.code).toBe('INSUFFICIENT_CREDITS');
    const end = await t.app.services.credits.balance(s.user.id);
    expect(end).toBe(start - 3 * ok);
    const [sum] = await t.app.db.dataSource.query(`SELECT sum(delta)::int AS total FROM credit_transactions WHERE user_id = $1`, [s.user.id]);
    expect(sum.total).toBe(end);
  });

  // PGlite only: there is one session, so a transaction leaked by a buggy owner would leak into
  // everyone's queries. (pg pools hand such a connection back as is; TypeORM code never does this.)
  const pgliteOnly = process.env.DATABASE_URL ? it.skip : it;
  pgliteOnly('PGlite: a session left inside a transaction by its owner is rolled back before the next one', async () => {
    const ds = t.app.db.dataSource;
    const a = tag();
    const runner = ds.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query(`INSERT INTO app_secrets (name, value) VALUES ($1, 'leak')`, [a]);
    await runner.release(); // released without commit or rollback
    const rows = await ds.query(`SELECT count(*)::int AS n FROM app_secrets WHERE name = $1`, [a]);
    expect(rows[0].n).toBe(0);
  });
});

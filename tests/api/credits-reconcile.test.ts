import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { balanceOf } from './domain-helpers';

/**
 * A charge and its outcome are reconciled: a generation's charge stays pending until the model
 * answers; one whose process died (see crash-recovery.test.ts for a real kill -9) is refunded by the
 * reconciliation at boot and by the periodic sweep, once, however many instances run it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const pendingRows = async (userId: string) =>
  (await t.app.db.dataSource.query(`SELECT count(*)::int AS n FROM pending_charges WHERE user_id = $1`, [userId]))[0].n as number;
const age = (txId: string, seconds: number) =>
  t.app.db.dataSource.query(`UPDATE pending_charges SET created_at = now() - make_interval(secs => $2::double precision) WHERE transaction_id = $1`, [
    txId,
    seconds,
  ]);

it('a charge left pending past the limit is refunded exactly once, even by racing sweeps, and shows in the ledger', async () => {
  const p = await signUp(t);
  const credits = t.app.services.credits;
  const dead = await credits.spendPending(p.user.id, 3, 'character_generate');
  const young = await credits.spendPending(p.user.id, 3, 'character_generate');
  const settled = await credits.spendPending(p.user.id, 3, 'character_generate');
  await credits.settle(settled);
  await age(dead.transactionId, 700);
  await age(young.transactionId, 30);
  expect(await balanceOf(t, p.user.id)).toBe(1);

  const counts = await Promise.all([credits.reconcilePending(600_000), credits.reconcilePending(600_000), credits.reconcilePending(600_000)]);
  expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
  expect(await balanceOf(t, p.user.id)).toBe(4);
  const ledger = await t.app.db.dataSource.query(
    `SELECT delta, reason, reference_id FROM credit_transactions WHERE user_id = $1 AND reason = 'refund_unfinished'`,
    [p.user.id],
  );
  expect(ledger).toEqual([{ delta: 3, reason: 'refund_unfinished', reference_id: dead.transactionId }]);
  // The young one waits (its generation may still be running elsewhere); the settled one is spent.
  expect(await pendingRows(p.user.id)).toBe(1);
  // Reconciling everything (an embedded database at boot: nothing else can be generating) takes it.
  // On PostgreSQL other test files share the database: age it past the limit instead.
  if (process.env.DATABASE_URL) await age(young.transactionId, 700);
  const all = process.env.DATABASE_URL ? 600_000 : 0;
  expect(await credits.reconcilePending(all)).toBe(1);
  expect(await balanceOf(t, p.user.id)).toBe(7);
  expect(await credits.reconcilePending(all)).toBe(0);
});

it('a generation that answers settles its charge; one that fails refunds it; neither stays pending', async () => {
  const p = await signUp(t);
  const r = await t.rest(
    'GET',
    `/api/characters/generate?worldDescription=${encodeURIComponent('A drowned city of bells and salt.')}&username=Mira&answers=%5B%5D&questions=%5B%5D`,
    undefined,
    p.accessToken,
  );
  expect(r.status).toBe(200);
  expect(await pendingRows(p.user.id)).toBe(0);
  expect(await balanceOf(t, p.user.id)).toBe(7);
  const failing = jest.spyOn(t.app.services.ai, 'generateCharacter').mockRejectedValueOnce(new Error('model down'));
  try {
    const f = await t.rest(
      'GET',
      `/api/characters/generate?worldDescription=${encodeURIComponent('A drowned city of bells and salt.')}&username=Mira&answers=%5B%5D&questions=%5B%5D`,
      undefined,
      p.accessToken,
    );
    expect(f.status).toBeGreaterThanOrEqual(400);
  } finally {
    failing.mockRestore();
  }
  expect(await pendingRows(p.user.id)).toBe(0);
  expect(await balanceOf(t, p.user.id)).toBe(7);
});

const PG = process.env.DATABASE_URL;
(PG ? it : it.skip)('two instances on one PostgreSQL reconcile at once: each charge is refunded once', async () => {
  const other = await startTestApp();
  try {
    const p = await signUp(t);
    const txs = [];
    for (let i = 0; i < 3; i++) txs.push(await t.app.services.credits.spendPending(p.user.id, 3, 'character_generate'));
    for (const tx of txs) await age(tx.transactionId, 700);
    const [a, b] = await Promise.all([t.app.services.credits.reconcilePending(600_000), other.app.services.credits.reconcilePending(600_000)]);
    expect(a + b).toBe(3);
    expect(await balanceOf(t, p.user.id)).toBe(10);
  } finally {
    await other.close();
  }
});

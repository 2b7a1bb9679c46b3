import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { WORLD_DESCRIPTION, balanceOf } from './domain-helpers';

/**
 * The credit gate under load, on whichever database the run uses (PGlite by default, PostgreSQL
 * with DATABASE_URL): N concurrent paid generations can never get more than the balance pays for.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ signupCredits: 9 });
});
afterAll(() => t.close());

const GEN = `mutation($input: GenerateCharacterInput!) { generateCharacter(input: $input) { username } }`;
const input = (i: number) => ({ worldDescription: WORLD_DESCRIPTION, questions: ['Why?'], answers: [`Reason ${i}`], username: `Runner ${i}` });

async function ledgerSums(userId: string) {
  const rows = await t.app.db.dataSource.query(
    `SELECT reason, count(*)::int AS n, coalesce(sum(delta), 0)::int AS total FROM credit_transactions WHERE user_id = $1 GROUP BY reason`,
    [userId],
  );
  return Object.fromEntries(rows.map((r: { reason: string; n: number; total: number }) => [r.reason, { n: r.n, total: r.total }]));
}

describe('concurrent character generation', () => {
  it('40 at once on 9 credits (half REST, half GraphQL): exactly 3 succeed, balance 0, ledger matches', async () => {
    const me = await signUp(t);
    expect(await balanceOf(t, me.user.id)).toBe(9);
    const calls = Array.from({ length: 40 }, async (_, i) => {
      if (i % 2 === 0) {
        const r = await t.gql(GEN, { input: input(i) }, me.accessToken);
        return r.errors ? (r.errors[0].extensions?.code as string) : 'OK';
      }
      const q = new URLSearchParams({ worldDescription: WORLD_DESCRIPTION, questions: '["Why?"]', answers: `["Reason ${i}"]`, username: `Runner ${i}` });
      const r = await t.rest('GET', `/api/characters/generate?${q}`, undefined, me.accessToken);
      return r.status === 200 ? 'OK' : r.status === 403 ? 'INSUFFICIENT_CREDITS' : `HTTP ${r.status}`;
    });
    const results = await Promise.all(calls);
    expect(results.filter((r) => r === 'OK')).toHaveLength(3);
    expect(results.filter((r) => r === 'INSUFFICIENT_CREDITS')).toHaveLength(37);
    expect(await balanceOf(t, me.user.id)).toBe(0);
    const sums = await ledgerSums(me.user.id);
    expect(sums).toEqual({ signup_grant: { n: 1, total: 9 }, character_generate: { n: 3, total: -9 } });
    const latest = await t.app.db.dataSource.query(
      `SELECT balance_after FROM credit_transactions WHERE user_id = $1 ORDER BY created_at DESC, balance_after ASC LIMIT 1`,
      [me.user.id],
    );
    expect(latest[0].balance_after).toBe(0);
  });

  // PGlite has one connection: a second transaction waits for the first to end, so this cannot happen there.
  (process.env.DATABASE_URL ? it : it.skip)(
    'the ledger lists spends in the order they changed the balance, even when a slower transaction began first (PostgreSQL)',
    async () => {
      const me = await signUp(t);
      const credits = t.app.services.credits;
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      let begun!: () => void;
      const hasBegun = new Promise<void>((r) => (begun = r));
      // Begins first, spends last: another spend commits while it is open.
      const slow = t.app.db.dataSource.transaction(async (m) => {
        await m.query('SELECT 1');
        begun();
        await sleep(300);
        return credits.spendIn(m, me.user.id, 2, 'character_generate');
      });
      await hasBegun;
      await sleep(50);
      await credits.spend(me.user.id, 1, 'character_generate');
      await slow;
      expect(await balanceOf(t, me.user.id)).toBe(6);
      const ledger = await t.gql('query { creditLedger(limit: 3) { delta balanceAfter } }', {}, me.accessToken);
      expect(ledger.data!.creditLedger).toEqual([
        { delta: -2, balanceAfter: 6 },
        { delta: -1, balanceAfter: 8 },
        { delta: 9, balanceAfter: 9 },
      ]);
    },
  );

  it('a failed generation refunds its 3 credits, with a ledger row pointing at the spend', async () => {
    const me = await signUp(t);
    const spy = jest.spyOn(t.app.services.ai, 'generateCharacter').mockRejectedValueOnce(new Error('model fell over'));
    try {
      const r = await t.gql(GEN, { input: input(1) }, me.accessToken);
      expect(r.errors?.[0].extensions?.code).toBe('GENERATION_FAILED');
    } finally {
      spy.mockRestore();
    }
    expect(await balanceOf(t, me.user.id)).toBe(9);
    const rows = await t.app.db.dataSource.query(
      `SELECT id, delta, reason, reference_id FROM credit_transactions WHERE user_id = $1 AND reason <> 'signup_grant' ORDER BY created_at ASC, delta ASC`,
      [me.user.id],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ delta: -3, reason: 'character_generate' });
    expect(rows[1]).toMatchObject({ delta: 3, reason: 'refund', reference_id: rows[0].id });
  });

  it('a failed spawn-from-profile over REST refunds too, and answers a coded error body', async () => {
    const me = await signUp(t);
    await t.rest('POST', '/api/profile/', { skills: 'Sailing', personalityTraits: 'Bold', freeTime: 'Fishing' }, me.accessToken);
    const spy = jest.spyOn(t.app.services.ai, 'generateCharacter').mockRejectedValueOnce(new Error('timeout'));
    try {
      const r = await t.rest('POST', '/api/characters/spawn-from-profile', { worldDescription: WORLD_DESCRIPTION }, me.accessToken);
      expect(r.status).toBe(502);
      expect(r.body).toMatchObject({ code: 'GENERATION_FAILED', error: expect.any(String) });
    } finally {
      spy.mockRestore();
    }
    expect(await balanceOf(t, me.user.id)).toBe(9);
  });
});

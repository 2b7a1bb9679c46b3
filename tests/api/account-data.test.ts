import yauzl from 'yauzl';
import { CreditsService } from '../../server/src/modules/billing/credits.service';
import { LocalProvider } from '../../server/src/modules/billing/payments/local-provider';
import { OperatorService } from '../../server/src/modules/community/operator';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { confirmLocalCheckout } from './billing-support';
import { characterPayload, countRows, pngBytes, submitWorldMultipart, validWorldFields } from './domain-helpers';

/**
 * GDPR (issue 21): the export archive of everything a player owns, and the deletion of the account
 * after its password, checked table by table: nothing left in any column names the account, the
 * ledger stays without its owner, a paid subscription is cancelled, other players' stories survive.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
afterEach(() => jest.restoreAllMocks());

type Player = Awaited<ReturnType<typeof signUp>>;
const db = () => t.app.db.dataSource;

async function worldWithImage(p: Player, name: string) {
  const w = await submitWorldMultipart(t, p.accessToken, validWorldFields(name), { bytes: await pngBytes(48, 48), name: 'w.png', type: 'image/png' });
  expect(w.status).toBe(201);
  return w.body.world.id as string;
}

async function storyIn(p: Player, worldId: string, hero: string, chapters: number) {
  const c = await t.rest('POST', '/api/profile/insert-characters', characterPayload(worldId, hero), p.accessToken);
  expect(c.status).toBe(201);
  const characterId = (c.body.id ?? c.body.character?.id ?? c.body[0]?.id) as string;
  for (let i = 0; i < chapters; i++) {
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId, userChoice: i === 0 ? '' : `Follow the lantern, step ${i}` }, p.accessToken);
    expect(r.status).toBe(200);
  }
  return characterId;
}

async function download(token?: string) {
  const res = await fetch(`${t.url}/api/account/export`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The archive's files, read with a real ZIP reader (yauzl), CRCs checked. */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, archive) => {
      if (err || !archive) return reject(err);
      const files = new Map<string, Buffer>();
      archive.on('entry', (entry: yauzl.Entry) => {
        archive.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            archive.readEntry();
          });
          stream.on('error', reject);
        });
      });
      archive.on('end', () => resolve(files));
      archive.on('error', reject);
      archive.readEntry();
    });
  });
}

it('exports everything the player owns as one ZIP archive: account, settings, worlds with images, characters with every take, missions, cards, ledger', async () => {
  const a = await signUp(t);
  const worldId = await worldWithImage(a, `Export Isle ${Date.now()}`);
  const characterId = await storyIn(a, worldId, 'Mira Vale', 3);
  // A second take of the last chapter: the archive keeps both.
  expect((await t.rest('POST', '/api/stories/regenerate-chapter', { characterId }, a.accessToken)).status).toBe(200);

  expect((await download()).status).toBe(401);
  const res = await download(a.accessToken);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="taleforge-export-\d{4}-\d{2}-\d{2}\.zip"$/);
  const files = await unzip(res.bytes);
  const json = (name: string) => JSON.parse(files.get(name)!.toString('utf8'));

  expect([...files.keys()].sort()).toEqual(
    [
      'README.txt',
      'account.json',
      'ledger.json',
      `worlds/${worldId}.json`,
      `worlds/${worldId}.png`,
      `characters/${characterId}.json`,
      'community.json',
      'support.json',
      'payments.json',
      'parties.json',
    ].sort(),
  );
  expect(json('parties.json')).toEqual({ memberships: [], hosted: [], actions: [], banned_from: [] });
  const account = json('account.json');
  expect(account.account).toMatchObject({ id: a.user.id, email: a.email, username: a.username });
  expect(account.settings).toMatchObject({ user_id: a.user.id });
  expect(account.subscription).toMatchObject({ tier_name: 'Free' });
  expect(account.sessions.length).toBeGreaterThan(0);
  // No secret of any kind travels in the archive.
  const everything = [...files.values()].map((b) => b.toString('latin1')).join('\n');
  expect(everything).not.toMatch(/password_hash|\$argon2|token_hash|"secret"/);

  const ledger = json('ledger.json') as Array<{ delta: number; reason: string }>;
  const [{ credits }] = await db().query('SELECT credits FROM subscriptions WHERE user_id = $1', [a.user.id]);
  expect(ledger.reduce((s, r) => s + r.delta, 0)).toBe(credits);

  const [media] = await db().query('SELECT m.bytes FROM media m JOIN worlds w ON w.image_media_id = m.id WHERE w.id = $1', [worldId]);
  expect(files.get(`worlds/${worldId}.png`)!.equals(media.bytes)).toBe(true);
  expect(json(`worlds/${worldId}.json`)).toMatchObject({ id: worldId, owner_id: a.user.id });

  const story = json(`characters/${characterId}.json`);
  expect(story.character).toMatchObject({ id: characterId, name: 'Mira Vale' });
  const chapters = (await t.gql('query($id: ID!) { character(id: $id) { storyline { chapters { text } } } }', { id: characterId }, a.accessToken)).data!
    .character.storyline.chapters as Array<{ text: string }>;
  const selected = (story.chapters as Array<{ index: number; text: string; is_selected: boolean }>).filter((c) => c.is_selected);
  expect(selected.map((c) => c.text)).toEqual(chapters.map((c) => c.text));
  expect(story.chapters.filter((c: { index: number }) => c.index === 2)).toHaveLength(2);
  expect(Array.isArray(story.missions)).toBe(true);
  expect(Array.isArray(story.story_cards)).toBe(true);
  expect(files.get('README.txt')!.toString()).toContain('characters/<id>.json');
});

/** Every column of every table that could hold an id or an address, searched for the account's. */
async function tracesOf(userId: string, email: string): Promise<string[]> {
  const columns = (await db().query(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND data_type IN ('uuid', 'text', 'character varying', 'character', 'jsonb', 'json')`,
  )) as Array<{ table_name: string; column_name: string }>;
  expect(columns.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    const [{ n }] = await db().query(
      `SELECT count(*)::int AS n FROM "${table_name}" WHERE "${column_name}"::text = $1 OR "${column_name}"::text ILIKE $2 OR "${column_name}"::text ILIKE $3`,
      [userId, `%${email}%`, `%${userId}%`],
    );
    if (n > 0) found.push(`${table_name}.${column_name}: ${n}`);
  }
  return found;
}

it('deletes the account after its password: nothing in any table points at it, the ledger stays ownerless, the paid subscription is cancelled, other players keep their stories', async () => {
  const a = await signUp(t);
  const b = await signUp(t);
  // A pays for a tier through the built-in checkout.
  const checkout = await t.rest('POST', '/api/subscription/create-checkout', { tierId: 'adventurer' }, a.accessToken);
  expect((await confirmLocalCheckout(t, checkout.body.url)).status).toBe(303);
  const [{ provider_subscription_id: paidSub }] = await db().query('SELECT provider_subscription_id FROM subscriptions WHERE user_id = $1', [a.user.id]);
  expect(paidSub).toBeTruthy();

  const shared = await worldWithImage(a, `Shared Isle ${Date.now()}`);
  expect((await t.rest('PUT', `/api/worlds/share/${shared}`, { shared_globally: true }, a.accessToken)).status).toBe(200);
  const privateWorld = await worldWithImage(a, `Private Isle ${Date.now()}`);
  const own = await storyIn(a, privateWorld, 'Mira Vale', 2);
  const published = await t.gql('mutation($id: ID!) { publishStory(characterId: $id) { id path } }', { id: own }, a.accessToken);
  const readPath = published.data!.publishStory.path as string;
  expect((await fetch(`${t.url}${readPath}`)).status).toBe(200);
  expect((await t.rest('POST', '/api/support/insert', { type: 'feedback', message: `Write to me at ${a.email}` }, a.accessToken)).status).toBe(201);

  // B plays in A's shared world, likes and reports it; A likes and reports B's world.
  const theirs = await storyIn(b, shared, 'Tam Holt', 2);
  expect((await t.rest('PUT', `/api/worlds/like/${shared}`, { liked: true }, b.accessToken)).status).toBe(200);
  expect((await t.rest('POST', '/api/community/report', { target_kind: 'world', target_id: shared, reason: 'spam' }, b.accessToken)).status).toBe(201);
  const bWorld = await worldWithImage(b, `B Isle ${Date.now()}`);
  expect((await t.rest('PUT', `/api/worlds/share/${bWorld}`, { shared_globally: true }, b.accessToken)).status).toBe(200);
  expect((await t.rest('PUT', `/api/worlds/like/${bWorld}`, { liked: true }, a.accessToken)).status).toBe(200);
  expect(
    (await t.rest('POST', '/api/community/report', { target_kind: 'world', target_id: bWorld, reason: 'other', note: 'typo' }, a.accessToken)).status,
  ).toBe(201);
  // An operator granted A credits: the audit trail names A.
  await new OperatorService(db(), new CreditsService(db()), 'tester').adjustCredits(a.user.id, 5, 'goodwill');
  expect(await tracesOf(a.user.id, a.email)).not.toEqual([]);
  const ledgerRows = await countRows(t, 'credit_transactions', 'user_id = $1', [a.user.id]);

  // A wrong password deletes nothing; neither does a provider that cannot cancel.
  const wrong = await t.rest('POST', '/api/account/delete', { password: 'not-my-password' }, a.accessToken);
  expect(wrong.status).toBe(400);
  expect(wrong.body.error).toBe('Your current password is not correct.');
  const cancel = jest.spyOn(LocalProvider.prototype, 'cancelNow').mockRejectedValueOnce(new Error('provider down'));
  const down = await t.rest('POST', '/api/account/delete', { password: a.password }, a.accessToken);
  expect(down.status).toBe(503);
  expect(down.body.error).toBe('Your subscription could not be cancelled, so your account was not deleted. Please try again later.');
  expect(await countRows(t, 'users', 'id = $1', [a.user.id])).toBe(1);

  const ok = await t.rest('POST', '/api/account/delete', { password: a.password }, a.accessToken);
  expect(ok.status).toBe(204);
  expect(cancel).toHaveBeenLastCalledWith(paidSub);

  // Gone for good: the session, the sign-in, the published link, the shared world.
  expect((await t.rest('GET', '/api/profile', undefined, a.accessToken)).status).toBe(401);
  const signIn = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: a.email, password: a.password });
  expect(signIn.status).toBe(400);
  expect((await fetch(`${t.url}${readPath}`)).status).toBe(404);
  expect((await t.rest('GET', `/api/worlds/community?search=${encodeURIComponent('Shared Isle')}`)).body.worlds.map((w: { id: string }) => w.id)).not.toContain(
    shared,
  );

  // Table by table: nothing names the account.
  expect(await tracesOf(a.user.id, a.email)).toEqual([]);
  // The ledger stays for the accounts, grouped under one random reference.
  const kept = (await db().query(
    `SELECT erased_account_ref FROM credit_transactions WHERE user_id IS NULL AND erased_account_ref IS NOT NULL GROUP BY 1 HAVING count(*) = $1`,
    [ledgerRows],
  )) as unknown[];
  expect(kept.length).toBeGreaterThanOrEqual(1);
  // The audit row stays, without its target.
  expect(await countRows(t, 'operator_actions', `operator = 'tester' AND target_id = 'erased account'`)).toBeGreaterThanOrEqual(1);

  // B's story in A's (now deleted) world goes on; B's world lost A's like; the images of A's worlds are gone.
  const theirStory = await t.gql('query($id: ID!) { character(id: $id) { name storyline { chapters { text } } } }', { id: theirs }, b.accessToken);
  expect(theirStory.data!.character.storyline.chapters).toHaveLength(2);
  // …and keeps going: what a chapter is written from was kept with the story (the web client sends
  // no world description, and the world row is gone).
  const next = await t.gql(
    'mutation($input: GenerateChapterInput!) { generateChapter(input: $input) { newChapter { index text } } }',
    { input: { characterId: theirs, userChoice: 'Climb to the old lighthouse' } },
    b.accessToken,
  );
  expect(next.errors).toBeUndefined();
  expect(next.data!.generateChapter.newChapter.index).toBe(2);
  const rest = await t.rest('POST', '/api/stories/generate-chapter', { characterId: theirs, userChoice: 'Ring the bell' }, b.accessToken);
  expect(rest.status).toBe(200);
  expect(await countRows(t, 'worlds', 'id = $1', [shared])).toBe(0);
  const [{ like_count }] = await db().query('SELECT like_count FROM worlds WHERE id = $1', [bWorld]);
  expect(like_count).toBe(0);
  expect(await countRows(t, 'content_reports', 'target_id = $1', [shared])).toBe(0);
  expect(await countRows(t, 'content_reports', 'target_id = $1 AND reporter_id IS NULL', [bWorld])).toBe(1);
});

it('the GraphQL twin needs the password too', async () => {
  const a = await signUp(t);
  const DELETE = 'mutation($p: String!) { deleteAccount(password: $p) }';
  expect((await t.gql(DELETE, { p: 'wrong-password' }, a.accessToken)).errors![0].extensions!.code).toBe('INVALID_CREDENTIALS');
  expect((await t.gql(DELETE, { p: a.password }, a.accessToken)).data!.deleteAccount).toBe(true);
  expect(await countRows(t, 'users', 'id = $1', [a.user.id])).toBe(0);
  expect((await t.gql(DELETE, { p: a.password }, a.accessToken)).errors![0].extensions!.code).toBe('UNAUTHENTICATED');
});

it("Manage Subscription without Stripe is the app's own page; past payments list what the built-in checkout charged", async () => {
  const a = await signUp(t);
  expect((await t.rest('POST', '/api/subscription/manage', {}, a.accessToken)).body.url).toBe(`${t.app.config.publicUrl}/subscription/manage`);
  expect((await t.rest('GET', '/api/subscription/payments', undefined, a.accessToken)).body).toEqual([]);
  const checkout = await t.rest('POST', '/api/subscription/create-checkout', { tierId: 'hero' }, a.accessToken);
  expect((await confirmLocalCheckout(t, checkout.body.url)).status).toBe(303);
  const payments = (await t.gql('{ pastPayments { tierName amountCents credits reference } }', {}, a.accessToken)).data!.pastPayments;
  const [hero] = await db().query(`SELECT name, price_cents, monthly_credits FROM tiers WHERE id = 'hero'`);
  expect(payments).toEqual([
    { tierName: hero.name, amountCents: hero.price_cents, credits: hero.monthly_credits, reference: expect.stringMatching(/^in_local_/) },
  ]);
});

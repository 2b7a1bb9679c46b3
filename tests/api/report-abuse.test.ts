import { CreditsService } from '../../server/src/modules/billing/credits.service';
import { OperatorService } from '../../server/src/modules/community/operator';
import { startSmtp } from '../support/smtp';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { characterPayload, WORLD_DESCRIPTION } from './domain-helpers';

/**
 * Reports cannot be turned into a weapon (issue 36, finding 2 and the report loopholes of 9): featured
 * worlds are never hidden by reports; a report counts toward hiding only from an account that could
 * not have been made for it (some age and some play); hiding something tells the operators; and an
 * owner cannot get around a hide by publishing again or by sharing a copy of the hidden world.
 */
const OPERATOR = 'moderators@taleforge.test';
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  const base = await startTestApp();
  const config = base.app.config;
  await base.close();
  t = await startTestApp({
    mail: { smtpUrl: smtp.url, from: 'Taleforge <no-reply@taleforge.test>', outboxDir: '/nonexistent', requireEmailConfirmation: false },
    // The defaults a deployment gets, and an operator address to tell.
    community: { ...config.community, operatorEmail: OPERATOR },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Player = Awaited<ReturnType<typeof signUp>>;
const REPORT = 'mutation($input: ReportInput!) { reportContent(input: $input) { hidden } }';
const tag = () => `Rq${Math.random().toString(36).slice(2, 9)}`;
const report = (p: Player, targetKind: 'world' | 'story', targetId: string) =>
  t.gql<{ reportContent: { hidden: boolean } }>(REPORT, { input: { targetKind, targetId, reason: 'spam' } }, p.accessToken);
const ops = () => new OperatorService(t.app.db.dataSource, new CreditsService(t.app.db.dataSource), 'report-abuse-test');

/** A player whose account is days old and has played a few chapters: not made for the report. */
async function trusted(): Promise<Player> {
  const p = await signUp(t);
  const ds = t.app.db.dataSource;
  await ds.query(`UPDATE users SET created_at = now() - interval '5 days' WHERE id = $1`, [p.user.id]);
  const [w] = (await ds.query(`SELECT id FROM worlds WHERE featured ORDER BY name LIMIT 1`)) as Array<{ id: string }>;
  const c = await t.rest('POST', '/api/profile/insert-characters', characterPayload(w!.id, 'Seasoned Reader'), p.accessToken);
  const characterId = (c.body.id ?? c.body.character?.id ?? c.body[0]?.id) as string;
  for (let i = 0; i < 3; i++) {
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId, userChoice: i === 0 ? '' : `Look around, step ${i}` }, p.accessToken);
    expect(r.status).toBe(200);
  }
  return p;
}

async function sharedWorld(owner: Player, name: string) {
  const w = await t.rest(
    'POST',
    '/api/worlds/submit-world',
    { worldName: name, worldDescription: WORLD_DESCRIPTION, questions: JSON.stringify(['Who are you?']) },
    owner.accessToken,
  );
  expect(w.status).toBe(201);
  const id = w.body.world.id as string;
  expect((await t.rest('PUT', `/api/worlds/share/${id}`, { shared_globally: true }, owner.accessToken)).status).toBe(200);
  return id;
}

const featuredIds = async () =>
  ((await t.gql<{ featuredWorlds: Array<{ id: string }> }>('{ featuredWorlds(limit: 100) { id } }')).data!.featuredWorlds ?? []).map((w) => w.id);

it('three accounts made for it cannot hide the featured worlds: their reports wait in the review queue', async () => {
  const before = await featuredIds();
  expect(before.length).toBeGreaterThan(0);
  const fresh = [await signUp(t), await signUp(t), await signUp(t)];
  // Trusted or not, reports on a featured world never hide it.
  fresh.push(await trusted(), await trusted(), await trusted());
  for (const p of fresh) for (const id of before) expect((await report(p, 'world', id)).data?.reportContent.hidden).toBe(false);
  expect(await featuredIds()).toEqual(before);
  expect((await t.gql('query($id: ID!) { world(id: $id) { id } }', { id: before[0] })).data?.world).toEqual({ id: before[0] });
  const queued = (await ops().reports()).filter((r) => before.includes(r.targetId));
  expect(queued).toHaveLength(before.length);
  expect(queued.every((r) => r.openReports === 6 && !r.hidden)).toBe(true);
});

it("new accounts' reports are queued but do not hide a shared world; three players who were not made for it do, and the operators are told", async () => {
  const owner = await signUp(t);
  const name = `Contested ${tag()}`;
  const id = await sharedWorld(owner, name);
  for (const p of [await signUp(t), await signUp(t), await signUp(t), await signUp(t)]) {
    expect((await report(p, 'world', id)).data?.reportContent.hidden).toBe(false);
  }
  expect((await t.gql('query($id: ID!) { world(id: $id) { id } }', { id })).data?.world).toEqual({ id });
  expect((await ops().reports()).find((r) => r.targetId === id)).toMatchObject({ openReports: 4, hidden: false });

  const [a, b, c] = [await trusted(), await trusted(), await trusted()];
  expect((await report(a, 'world', id)).data?.reportContent.hidden).toBe(false);
  expect((await report(b, 'world', id)).data?.reportContent.hidden).toBe(false);
  expect((await report(c, 'world', id)).data?.reportContent.hidden).toBe(true);
  expect((await t.gql('query($id: ID!) { world(id: $id) { id } }', { id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  // The operators' queue has it, with the audit row of the automatic hide, and a mail went out.
  expect((await ops().reports()).find((r) => r.targetId === id)).toMatchObject({ openReports: 7, hidden: true });
  const audit = await ops().audit(50);
  expect(audit.find((e) => e.targetId === id)).toMatchObject({ operator: 'reports', action: 'auto_hide', targetKind: 'world' });
  const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes(OPERATOR) && m.text.includes(id)), 'the operators’ mail', 5000);
  expect(mail.text).toContain(name);
});

it('a hidden story stays hidden when its owner unpublishes and publishes it again', async () => {
  const owner = await signUp(t);
  const [w] = (await t.app.db.dataSource.query(`SELECT id FROM worlds WHERE featured ORDER BY name LIMIT 1`)) as Array<{ id: string }>;
  const c = await t.rest('POST', '/api/profile/insert-characters', characterPayload(w!.id, 'Loud Hero'), owner.accessToken);
  const characterId = (c.body.id ?? c.body.character?.id ?? c.body[0]?.id) as string;
  expect((await t.rest('POST', '/api/stories/generate-chapter', { characterId, userChoice: '' }, owner.accessToken)).status).toBe(200);
  const PUBLISH = 'mutation($id: ID!) { publishStory(characterId: $id) { id path hidden } }';
  const pub = (await t.gql(PUBLISH, { id: characterId }, owner.accessToken)).data!.publishStory as { id: string; path: string; hidden: boolean };
  // New accounts cannot hide it; players who were not made for it can.
  for (const p of [await signUp(t), await signUp(t), await signUp(t)]) expect((await report(p, 'story', pub.id)).data?.reportContent.hidden).toBe(false);
  expect((await fetch(`${t.url}${pub.path}`)).status).toBe(200);
  for (const p of [await trusted(), await trusted(), await trusted()]) await report(p, 'story', pub.id);
  expect((await fetch(`${t.url}${pub.path}`)).status).toBe(404);

  expect((await t.gql('mutation($id: ID!) { unpublishStory(characterId: $id) }', { id: characterId }, owner.accessToken)).data?.unpublishStory).toBe(true);
  const again = (await t.gql(PUBLISH, { id: characterId }, owner.accessToken)).data!.publishStory as { id: string; path: string; hidden: boolean };
  expect(again.hidden).toBe(true);
  expect((await fetch(`${t.url}${again.path}`)).status).toBe(404);
});

it("a copy of one's own hidden world cannot be shared while the original is hidden; once restored it can", async () => {
  const owner = await signUp(t);
  const id = await sharedWorld(owner, `Hidden Source ${tag()}`);
  await ops().hide('world', id, 'checking');
  const remix = await t.gql<{ remixWorld: { id: string } }>('mutation($id: ID!) { remixWorld(id: $id) { id } }', { id }, owner.accessToken);
  expect(remix.errors).toBeUndefined();
  const copy = remix.data!.remixWorld.id;
  const refused = await t.rest('PUT', `/api/worlds/share/${copy}`, { shared_globally: true }, owner.accessToken);
  expect(refused.status).toBe(403);
  expect(refused.body.error).toBe('This world is a copy of one hidden pending review: it can be shared once the review is over.');
  await ops().restore('world', id);
  expect((await t.rest('PUT', `/api/worlds/share/${copy}`, { shared_globally: true }, owner.accessToken)).status).toBe(200);
});

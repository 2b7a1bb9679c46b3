import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { newIdentity, type TestApp } from '../support/test-app';
import { AppChrome, AuthPage, openPage, shot, shotOf } from './pages/app';
import { startAppWithPublicUrl } from './pages/server';
import { WorldsPage } from './pages/worlds';

/**
 * Community journeys (issue 20) in Debian's chromium against the real app: player A shares a world,
 * anonymous B finds it in Community, opens it, signs up and spawns into it; A publishes a story and
 * B reads it by link; B reports the world. Hostile names other players wrote stay text everywhere.
 */
let t: TestApp;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  t = await startAppWithPublicUrl({ generationRateLimit: { perUserPerWindow: 1000, windowSeconds: 60 } });
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await t?.close();
});

const userId = async (email: string) =>
  ((await t.app.db.dataSource.query('SELECT id FROM users WHERE email = $1', [email.toLowerCase()])) as Array<{ id: string }>)[0]!.id;

/** Fails the test if any script a player wrote ever runs: an alert() would open a dialog. */
function watchDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on('dialog', (d) => {
    opened.push(d.message());
    void d.dismiss();
  });
  return opened;
}

it('A shares a world; anonymous B finds it in Community, opens it, signs up and spawns; A publishes a story B reads by link; B reports the world', async () => {
  // --- A: a world of their own, shared from its popup ---
  const a = await openPage(browser);
  const aId = newIdentity('sharer');
  await new AuthPage(a.page).signUp(t.url, aId);
  const aUser = await userId(aId.email);
  const world = await t.app.services.worlds.submit(aUser, {
    worldName: 'Lanternfall Reach',
    worldDescription: 'A drowned harbour city where lanterns float under the water and the tide keeps secrets for those who ask kindly.',
    questions: ['What did the tide take from you?'],
  });
  const aWorlds = new WorldsPage(a.page);
  await aWorlds.goto(t.url, world.id);
  await aWorlds.popup.getByRole('button', { name: 'Share' }).click();
  await aWorlds.popup.getByRole('button', { name: 'Unshare' }).waitFor();
  await shot(a.page, '20a-world-shared');

  // --- B, anonymous: Community → search → popup → Login to Spawn → sign up → spawn ---
  const b = await openPage(browser);
  const bDialogs = watchDialogs(b.page);
  await b.page.goto(`${t.url}/worlds`);
  const community = b.page.locator('section.community-section');
  await community.getByRole('heading', { name: 'Community Worlds' }).waitFor();
  await community.getByLabel('Search').fill('Lanternfall');
  const card = community.getByRole('button', { name: /Lanternfall Reach/ });
  await card.waitFor();
  expect(await card.textContent()).toContain(`by ${aId.username}`);
  await shot(b.page, '20b-community-anonymous');
  await card.click();
  const popup = b.page.getByRole('dialog', { name: 'Lanternfall Reach' });
  await popup.getByText('0 plays').waitFor();
  await shot(b.page, '20c-community-popup-anonymous');
  await popup.getByRole('button', { name: 'Login to Spawn' }).click();
  await b.page.waitForURL('**/auth');
  const bId = newIdentity('reader');
  await b.page.getByRole('button', { name: 'Create an account' }).click();
  await b.page.getByLabel('Email').fill(bId.email);
  await b.page.getByLabel('Username').fill(bId.username);
  await b.page.getByLabel('Password').fill(bId.password);
  await b.page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await b.page.waitForURL(`**/worlds?world=${world.id}`);
  const bWorlds = new WorldsPage(b.page);
  await bWorlds.popup.getByRole('button', { name: 'Like' }).click();
  await bWorlds.popup.getByText('1 like').waitFor();
  await bWorlds.spawn('Odo Brand', ['My brother, and his boat.']);
  await bWorlds.saveCharacter();
  expect((await t.gql(`{ world(id: "${world.id}") { playCount likeCount } }`)).data?.world).toEqual({ playCount: 1, likeCount: 1 });

  // --- A publishes a story; B reads it by link (anonymous readers welcome) ---
  const hero = await t.app.services.characters.save(aUser, {
    name: 'Mira Vale',
    world_id: world.id,
    description: 'A lamp-keeper who can hear the drowned bells.',
    stats: { strength: 9, agility: 12, endurance: 10, intellect: 13, wisdom: 14, charisma: 11 },
    traits: ['Patient'],
    strengths: ['Listens'],
    weaknesses: ['Cannot swim'],
    special: { name: 'Bell-sense', description: 'Hears what the tide hides.' },
  });
  for (const choice of ['', 'Follow the lantern down the steps'])
    await t.app.services.stories.generateChapter(aUser, { characterId: hero.id, userChoice: choice });
  await a.page.goto(`${t.url}/storychat/${hero.id}`);
  // Publishing is one of the story tools (a tab beside the story on a wide screen).
  await a.page
    .getByRole('tablist', { name: 'Story tools' })
    .getByRole('tab', { name: /^Publish/ })
    .click();
  const publish = a.page.getByTestId('story-publish');
  await publish.getByRole('button', { name: 'Publish story' }).click();
  await new AppChrome(a.page).toast('Your story is published').waitFor();
  const link = await publish.getByRole('textbox', { name: 'Link' }).inputValue();
  expect(link).toMatch(new RegExp(`^${t.url}/read/[0-9a-f-]{36}$`));
  await shot(a.page, '20d-story-published');

  const reader = await openPage(browser);
  await reader.page.goto(link);
  await reader.page.getByRole('heading', { name: 'Mira Vale', level: 1 }).waitFor();
  await reader.page.getByText('A story in Lanternfall Reach').waitFor();
  expect(await reader.page.locator('section h2').count()).toBe(2);
  expect(await reader.page.content()).not.toContain(aId.username);
  await shot(reader.page, '20e-published-story');
  await reader.page.setViewportSize({ width: 390, height: 844 });
  await shot(reader.page, '20f-published-story-phone');
  expect(reader.errors).toEqual([]);
  await reader.context.close();

  // B, signed in, reports the story from its page (which runs no script: the report is an app page).
  await b.page.goto(link);
  await b.page.getByRole('link', { name: 'Report this story' }).click();
  await b.page.getByRole('heading', { name: 'Report a published story' }).waitFor();
  await b.page.getByLabel('Why are you reporting it?').selectOption('harassment');
  await b.page.getByRole('button', { name: 'Send report' }).click();
  await b.page.getByRole('status').filter({ hasText: 'Thank you' }).waitFor();
  await shot(b.page, '20f2-story-reported');
  expect(await t.app.db.dataSource.query("SELECT reason FROM content_reports WHERE target_kind = 'story'")).toEqual([{ reason: 'harassment' }]);

  // --- B reports the world ---
  await bWorlds.goto(t.url, world.id);
  await bWorlds.popup.getByRole('button', { name: 'Report' }).click();
  const form = bWorlds.popup.getByRole('form', { name: 'Report this world' });
  await form.getByLabel('Why are you reporting it?').selectOption('spam');
  await form.getByLabel(/Anything the moderators should know/).fill('Links to a gold-selling site in the questions.');
  await shot(b.page, '20g-report-form');
  await form.getByRole('button', { name: 'Send report' }).click();
  await new AppChrome(b.page).toast('Thanks. Our moderators will take a look.').waitFor();
  expect(await t.app.db.dataSource.query('SELECT reason, note FROM content_reports WHERE target_id = $1', [world.id])).toEqual([
    { reason: 'spam', note: 'Links to a gold-selling site in the questions.' },
  ]);
  expect(bDialogs).toEqual([]);
  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
  await a.context.close();
  await b.context.close();
});

it('hostile names and descriptions other players wrote stay text in Community cards and the popup, on a phone too', async () => {
  const owner = (await t.app.services.auth.signUp(newIdentity('hostile'))).user;
  const world = await t.app.services.worlds.submit(owner.id, {
    worldName: 'Quiet Fen',
    worldDescription: 'Reeds and mist over a slow river where herons keep watch.',
    questions: ['Why did you come to the fen?'],
  });
  // Older rows or an import could hold what the edge now refuses: it must still render as text.
  const name = `<img src=x onerror="alert('name')"> Fen`;
  const description = `<script>alert('description')</script><b onmouseover="alert(1)">hover</b>`;
  await t.app.db.dataSource.query('UPDATE worlds SET name = $1, description = $2, questions = $3::jsonb WHERE id = $4', [
    name,
    description,
    JSON.stringify([`<svg onload="alert('question')">`]),
    world.id,
  ]);
  await t.app.services.worlds.setShared(owner.id, world.id, true);

  const { context, page, errors } = await openPage(browser, { width: 390, height: 844 });
  const dialogs = watchDialogs(page);
  await page.goto(`${t.url}/worlds`);
  const community = page.locator('section.community-section');
  // The search goes out when typing pauses: its answer is awaited before the cards are read, and
  // waited for from before the typing, or on a slow machine it can come and go unseen in between.
  const searched = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('"search":"Fen"'));
  await community.getByLabel('Search').fill('Fen');
  await searched;
  await community.locator('ul.world-grid[aria-busy="false"]').waitFor();
  const card = community.getByRole('button', { name: /Fen/ });
  await card.waitFor();
  expect(await card.locator('.world-card-name').textContent()).toBe(name);
  expect(await page.locator('img[src="x"], script:not([src]):has-text("alert")').count()).toBe(0);
  await shotOf(community, '20h-community-hostile-phone');
  await card.click();
  const popup = page.getByRole('dialog');
  await popup.locator('.world-popup-description').waitFor();
  expect(await popup.locator('.world-popup-description').textContent()).toBe(description);
  expect(await popup.locator('b, svg[onload], img[src="x"]').count()).toBe(0);
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

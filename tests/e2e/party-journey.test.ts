/**
 * Party play in Debian's chromium (issue 34): a host and two players, each in a browser context of
 * their own (the second on a phone). The host starts a live party from their story, invites with a
 * code shown once, the players join with a character of theirs in the party's world, and all three
 * play three live rounds — each chapter streamed to every member. Then the host ends it, starts a
 * party by post on the same story, and two turns are taken in seat order, the action box showing only
 * on your turn. The offline storyteller writes the chapters.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { characterOfEmail } from '../support/party-fixtures';
import { launchBrowser } from '../support/browser';
import { newIdentity, type TestApp } from '../support/test-app';
import { AuthPage, openPage, shot } from './pages/app';
import { startAppWithPublicUrl } from './pages/server';

let t: TestApp;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  t = await startAppWithPublicUrl({ generationRateLimit: { perUserPerWindow: 1000, windowSeconds: 60 } });
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await closeBrowser?.();
  await t?.app.services.parties.idle();
  await t?.close();
});

interface Player {
  page: Page;
  errors: string[];
  name: string;
  characterId: string;
}

/** Signs up in a fresh context and gives the player a saved character called `name` in the first featured world. */
async function player(name: string, viewport: { width: number; height: number }): Promise<Player> {
  const { context, page, errors } = await openPage(browser, viewport);
  contexts.push(context);
  const id = newIdentity(name.toLowerCase());
  await new AuthPage(page).signUp(t.url, id);
  const characterId = await characterOfEmail(t, id.email, name);
  return { page, errors, name, characterId };
}

const chapters = (p: Player) => p.page.getByTestId('chapter');
const hint = (p: Player) => p.page.getByTestId('party-hint');

async function waitForChapters(p: Player, n: number) {
  await p.page.waitForFunction((count) => document.querySelectorAll('[data-testid="chapter"]').length === count, n, { timeout: 30_000 });
  await p.page.getByTestId('live-chapter').waitFor({ state: 'detached', timeout: 30_000 });
}

async function act(p: Player, action: string) {
  const box = p.page.getByPlaceholder('Or type your own action...');
  await box.fill(action);
  await p.page.getByRole('button', { name: 'Send' }).click();
}

/** The host's tools: a tab on a wide screen (the host plays on a desktop here). */
async function hostTab(p: Player) {
  await p.page.getByRole('tablist', { name: 'Story tools' }).getByRole('tab', { name: /^Host/ }).click();
  return p.page.getByRole('tabpanel');
}

async function invite(host: Player): Promise<string> {
  const panel = await hostTab(host);
  await panel.getByRole('button', { name: 'Create invite code' }).click();
  const dialog = host.page.getByRole('dialog', { name: 'Invite code' });
  const code = (await dialog.getByTestId('invite-code').textContent())!.trim();
  expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
  expect(await dialog.getByLabel('Invite link').inputValue()).toBe(`${t.url}/party/join?code=${code}`);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
  return code;
}

async function join(p: Player, code: string, partyUrl: string) {
  await p.page.goto(`${t.url}/party/join?code=${code}`);
  await p.page.getByRole('radio', { name: p.name, exact: true }).check();
  await p.page.getByRole('button', { name: 'Join party' }).click();
  await p.page.waitForURL(partyUrl);
}

async function startParty(host: Player, mode: 'Live rounds' | 'By post'): Promise<string> {
  await host.page.goto(`${t.url}/storychat/${host.characterId}`);
  await host.page.getByRole('button', { name: 'Play with friends' }).click();
  const dialog = host.page.getByRole('dialog', { name: 'Play with friends' });
  await dialog.getByLabel(new RegExp(mode)).check();
  await dialog.getByRole('button', { name: 'Start Party' }).click();
  await host.page.waitForURL(/\/party\/[0-9a-f-]{36}$/);
  return host.page.url();
}

it('a host and two players play three live rounds, then two turns by post', async () => {
  const host = await player('Kael', { width: 1280, height: 800 });
  const tom = await player('Tomas', { width: 390, height: 844 });
  const mira = await player('Mira', { width: 1280, height: 800 });
  const all = [host, tom, mira];

  // Live rounds.
  const liveUrl = await startParty(host, 'Live rounds');
  const code = await invite(host);
  await join(tom, code, liveUrl);
  await join(mira, code, liveUrl);
  for (const p of all) await hint(p).filter({ hasText: 'Round 1:' }).waitFor();

  for (let round = 1; round <= 3; round++) {
    await act(host, `Kael climbs the bell tower, round ${round}.`);
    await act(tom, `Tomas questions the innkeeper, round ${round}.`);
    // Everyone sees who has acted before the round closes.
    await mira.page.getByText('2 of 3 have acted.').first().waitFor({ state: 'attached' });
    await act(mira, `Mira searches the cellar, round ${round}.`);
    for (const p of all) await waitForChapters(p, round);
    // The round's chapter answers every member's action, in seat order.
    for (const p of all) {
      await expect(p.page.locator('.player-choice').last().textContent()).resolves.toContain(
        `Kael: Kael climbs the bell tower, round ${round}. Tomas: Tomas questions the innkeeper, round ${round}. Mira: Mira searches the cellar, round ${round}.`,
      );
    }
    for (const p of all)
      await hint(p)
        .filter({ hasText: `Round ${round + 1}:` })
        .waitFor();
  }
  await shot(host.page, 'party-live-host');
  await shot(tom.page, 'party-live-phone');

  // The host ends it; a party by post on the same story.
  const panel = await hostTab(host);
  await panel.getByRole('button', { name: 'End party' }).click();
  await host.page.getByRole('alertdialog', { name: 'End the party?' }).getByRole('button', { name: 'End party' }).click();
  for (const p of all) await hint(p).filter({ hasText: 'This party has ended.' }).waitFor();

  const postUrl = await startParty(host, 'By post');
  expect(postUrl).not.toBe(liveUrl);
  const code2 = await invite(host);
  await join(tom, code2, postUrl);
  await join(mira, code2, postUrl);

  // Turn 1: the host (first seat). The others have no action box.
  await hint(host).filter({ hasText: 'Your turn!' }).waitFor();
  for (const p of [tom, mira]) {
    await hint(p).filter({ hasText: 'Waiting for Kael' }).waitFor();
    expect(await p.page.getByPlaceholder('Or type your own action...').count()).toBe(0);
  }
  await act(host, 'Kael opens the sealed letter.');
  for (const p of all) await waitForChapters(p, 4);

  // Turn 2: Tomas, on the phone.
  await hint(tom).filter({ hasText: 'Your turn!' }).waitFor();
  await hint(host).filter({ hasText: 'Waiting for Tomas' }).waitFor();
  expect(await host.page.getByPlaceholder('Or type your own action...').count()).toBe(0);
  await act(tom, 'Tomas reads the letter aloud.');
  for (const p of all) await waitForChapters(p, 5);
  await hint(mira).filter({ hasText: 'Your turn!' }).waitFor();
  await expect(chapters(mira).count()).resolves.toBe(5);
  await shot(tom.page, 'party-post-phone');

  for (const p of all) expect(p.errors).toEqual([]);
});

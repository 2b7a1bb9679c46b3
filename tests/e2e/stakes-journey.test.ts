/**
 * Stakes in Debian's chromium (issue 31): a story where actions can fail. The dice are scripted
 * (StoryServiceOptions.dice) so the journey always meets the same outcomes: a failed attack that
 * costs health, an item used for +2 and used up, rest that gives health back, Hard difficulty
 * chosen in Story Memory, a defeat, and the choice after it. At desktop and phone widths; the
 * screenshots also go to /work/artifacts/stakes when that folder can be written.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { makeCharacter, scriptedAI, scriptedDice, useStoryAI } from '../support/story-fixtures';
import { newIdentity, type TestApp } from '../support/test-app';
import { AuthPage, openPage, shot } from './pages/app';
import { startAppWithPublicUrl } from './pages/server';
import { StoryPage } from './pages/story';

let t: TestApp;
let browser: Browser;
let closeBrowser: () => Promise<void>;

const ARTIFACTS = '/work/artifacts/stakes';

beforeAll(async () => {
  t = await startAppWithPublicUrl({ generationRateLimit: { perUserPerWindow: 1000, windowSeconds: 60 } });
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await t?.close();
});

/**
 * The journey's screenshot: the whole page with the other journeys', and (when that folder can be
 * written) what the player sees around `focus` under /work/artifacts/stakes.
 */
async function snap(page: Page, name: string, focus: Locator) {
  await shot(page, name);
  try {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    // After the page's own smooth scroll to the newest text has settled.
    await page.waitForTimeout(600);
    await focus.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  } catch {
    // Not on the machine the artifacts are collected from: the test's own screenshot is enough.
  }
}

async function play(story: StoryPage, action: string, chapters: number) {
  await story.actionBox.fill(action);
  await story.send.click();
  await story.waitForChapters(chapters);
}

/**
 * Opens one of the story tools — a tab of the side panel on a wide screen, a bottom sheet on a phone
 * — runs `look` on it, and closes the sheet again (the action box is behind it).
 */
async function withTool(page: Page, label: string, look: (tool: Locator) => Promise<void>) {
  const phone = (page.viewportSize()?.width ?? 1280) < 768;
  if (phone) {
    await page
      .getByRole('navigation', { name: 'Story tools' })
      .getByRole('button', { name: new RegExp(`^${label}`) })
      .click();
    const sheet = page.getByRole('dialog');
    await sheet.waitFor();
    await look(sheet);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  } else {
    await page
      .getByRole('tablist', { name: 'Story tools' })
      .getByRole('tab', { name: new RegExp(`^${label}`) })
      .click();
    await look(page.getByRole('tabpanel'));
  }
}

const healthShows = (page: Page, text: string) =>
  withTool(page, 'Mission', async (tool) => {
    await tool.getByTestId('health-meter').getByText(text).waitFor();
  });

async function journey(width: number, height: number, tag: string) {
  // Start 1 (no roll), attack 3 (failure), climb 15 (+2 potion: success), rest (routine), fight 1 and 1 on Hard.
  useStoryAI(t, scriptedAI(), { dice: scriptedDice([3, 15, 1, 1]) });
  const { context, page, errors } = await openPage(browser, { width, height });
  const id = newIdentity(`stakes${tag}`);
  await new AuthPage(page).signUp(t.url, id);
  const [{ id: userId }] = (await t.app.db.dataSource.query('SELECT id FROM users WHERE email = $1', [id.email.toLowerCase()])) as Array<{ id: string }>;
  const c = await makeCharacter(t, userId!);
  await t.app.services.stories.createStoryCard(userId!, c.id, { kind: 'item', name: 'Healing Potion', description: 'A red draught in a stoppered vial.' });

  await page.goto(`${t.url}/characters`);
  await page.getByRole('button', { name: 'Story' }).click();
  const story = new StoryPage(page);
  await page.getByRole('button', { name: 'Start your adventure!' }).click();
  await story.waitForChapters(1);
  await withTool(page, 'Inventory', async (tool) => {
    await tool.getByTestId('inventory').getByText('Healing Potion').waitFor();
  });
  await healthShows(page, '10 / 10');

  // A roll, and a failure: the dice line with the chapter, health lost.
  await play(story, 'Attack the guard at the gate', 2);
  const fail = story.chapters.nth(1).getByTestId('check-line');
  expect(await fail.getByRole('img').first().getAttribute('aria-label')).toBe('Dice: Strength check against 14: rolled 3 + 1 for Strength, total 4. Failure.');
  expect(await fail.textContent()).toContain('Health 10 → 8 of 10');
  // The attempt, then how it failed (the offline storyteller's answer, in the story's present tense).
  expect(await story.chapters.nth(1).textContent()).toMatch(
    /attack the guard[^.]*[.;,] (?:it goes wrong|it does not work|nothing comes of it|it fails, plainly)/i,
  );
  await snap(page, `31-${tag}-failure`, fail);
  await healthShows(page, '8 / 10');

  // An item used: +2 on the roll, and the potion is used up.
  await play(story, 'Drink the healing potion and climb the sea wall', 3);
  const used = story.chapters.nth(2).getByTestId('check-line');
  expect(await used.getByRole('img').first().getAttribute('aria-label')).toBe(
    'Dice: Agility check against 12: rolled 15 + 2 for the Healing Potion, total 17. Success.',
  );
  expect(await used.textContent()).toContain('No longer carried: Healing Potion');
  await snap(page, `32-${tag}-item-used`, used);
  await withTool(page, 'Inventory', async (tool) => {
    await tool.getByText('Nothing carried yet.').waitFor();
    await snap(page, `32-${tag}-inventory-empty`, tool.getByTestId('inventory'));
  });

  // Rest gives health back (routine: no roll).
  await play(story, 'Rest by the fire and tend my wounds', 4);
  expect(await story.chapters.nth(3).getByTestId('check-line').textContent()).toContain('Health 8 → 10 of 10');
  await snap(page, `33-${tag}-health-regained`, story.chapters.nth(3).getByTestId('check-line'));
  await withTool(page, 'Mission', async (tool) => {
    await tool.getByTestId('health-meter').getByText('10 / 10').waitFor();
    await snap(page, `33-${tag}-health-meter`, tool.getByTestId('health-meter'));
  });

  // Hard difficulty, chosen in Story Memory.
  await withTool(page, 'Memory', async (tool) => {
    const memory = tool.getByTestId('story-memory');
    if ((await memory.evaluate((el) => el.tagName)) === 'DETAILS' && !(await memory.evaluate((el) => (el as HTMLDetailsElement).open))) {
      await memory.locator('summary').click();
    }
    await tool.getByLabel('Difficulty').selectOption('hard');
    await tool.getByText('Hard: harder rolls, and failures hurt more.').waitFor();
    await snap(page, `34-${tag}-difficulty`, tool.getByLabel('Difficulty'));
  });

  // Two critical failures on Hard: −6 each, and the second is a defeat.
  await play(story, 'Fight the captain', 5);
  await play(story, 'Attack all of them alone', 6);
  const choice = page.getByTestId('defeat-choice');
  await choice.waitFor();
  expect(await story.chapters.nth(5).textContent()).toMatch(/a defeat — not death/);
  expect(await story.actionBox.count()).toBe(0);
  await snap(page, `35-${tag}-defeat-choice`, choice);
  await healthShows(page, '0 / 10');
  await choice.getByRole('button', { name: 'Rewind to chapter 5' }).click();
  await page.getByRole('alertdialog').waitFor();
  await snap(page, `36-${tag}-defeat-rewind-confirm`, page.getByRole('alertdialog'));
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await choice.getByRole('button', { name: 'Go on, scarred' }).click();
  await story.actionBox.waitFor();
  expect(errors).toEqual([]);
  await context.close();
}

it('a roll, a failure, an item used, health lost and regained, a defeat and its choice — desktop (1280)', async () => {
  await journey(1280, 800, 'desktop');
});

it('the same at phone width (390)', async () => {
  await journey(390, 844, 'phone');
});

/**
 * The story screen for long play (issue 33) in Debian's chromium: the Stop button stays the same
 * element while a chapter streams, a checkout opened at 127.0.0.1 while PUBLIC_URL says localhost.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { newIdentity, type TestApp } from '../support/test-app';
import { AuthPage, openPage } from './pages/app';
import { startAppWithPublicUrl } from './pages/server';
import { StoryPage } from './pages/story';
import { WorldsPage } from './pages/worlds';

let t: TestApp;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Pause between streamed pieces of prose (0: as fast as the offline storyteller writes). */
let pace = 250;
/** Screenshots of the story screen after many chapters (issue 33's artifacts; git-ignored here). */
const ARTIFACTS = process.env.SCREEN_ARTIFACTS_DIR ?? path.resolve(__dirname, '..', '.artifacts', 'story-screen');

beforeAll(async () => {
  t = await startAppWithPublicUrl({ generationRateLimit: { perUserPerWindow: 1000, windowSeconds: 60 } });
  // Prose paced like a model's, so a chapter is seen while it is written.
  const ai = t.app.services.ai as unknown as { streamChapter: (...a: unknown[]) => AsyncIterable<{ type: string }> };
  const original = ai.streamChapter.bind(ai);
  ai.streamChapter = async function* paced(...args: unknown[]) {
    for await (const event of original(...args)) {
      if (event.type === 'delta' && pace) await sleep(pace);
      yield event;
    }
  };
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await t?.close();
});

async function storyOf(prefix: string, viewport?: { width: number; height: number }) {
  const { context, page, errors } = await openPage(browser, viewport);
  await new AuthPage(page).signUp(t.url, newIdentity(prefix));
  const worlds = new WorldsPage(page);
  await worlds.goto(t.url);
  await worlds.openFeatured('Aethermoor');
  await worlds.popup.getByRole('button', { name: 'Spawn', exact: true }).click();
  await worlds.popup.getByLabel('Character name').fill('Wren');
  await worlds.popup.getByRole('button', { name: /Generate Character/ }).click();
  await page.getByRole('heading', { name: 'Your Character Profile' }).waitFor({ timeout: 30_000 });
  await worlds.saveCharacter();
  await page.getByRole('button', { name: 'Story' }).click();
  await page.waitForURL('**/storychat/*');
  return { context, page, errors, story: new StoryPage(page) };
}

describe('the story screen', () => {
  it('the Stop button is one element for the whole chapter: it is never detached while the chapter streams', async () => {
    const { context, page, errors, story } = await storyOf('stop');
    await page.getByRole('button', { name: 'Start your adventure!' }).click();
    await story.waitForChapters(1);
    // Slow enough that the chapter is still being written through every look below on a busy machine
    // (at 250 ms a sentence the chapter could end mid-test and take the Stop button with it).
    pace = 1500;
    // A later chapter, as a player stops one: after an action, with the tools of the latest chapter on screen.
    await story.actionBox.fill('I row out toward the reef.');
    await story.send.click();
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.waitFor();
    const handle = await stop.elementHandle();
    // Watch it for as long as the chapter is written (a removal is counted even if it comes back).
    await page.evaluate((el) => {
      const w = window as unknown as { stopDetached: number };
      w.stopDetached = 0;
      new MutationObserver(() => {
        if (!el!.isConnected) w.stopDetached++;
      }).observe(document.body, { childList: true, subtree: true });
    }, handle);
    await page.waitForFunction(() => (document.querySelector('[data-testid="live-chapter"] .chapter-text')?.textContent ?? '').length > 40, null, {
      timeout: 30_000,
    });
    expect(await page.evaluate(() => (window as unknown as { stopDetached: number }).stopDetached)).toBe(0);
    // And it stays put on screen while the text grows (a moving target is as hard to press).
    const tops: number[] = [];
    for (let i = 0; i < 10; i++) {
      tops.push(Math.round((await stop.boundingBox())!.y));
      await sleep(100);
    }
    expect(new Set(tops).size).toBe(1);
    expect(await handle!.evaluate((el) => el.isConnected)).toBe(true);
    await stop.click({ timeout: 2000 });
    await page.getByText('Chapter stopped.', { exact: false }).waitFor();
    await story.live.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a 20-chapter story opens at its latest chapter, then where the player was reading; the tools are beside the action box', async () => {
    pace = 0;
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const { context, page, errors, story } = await storyOf('long', { width: 1280, height: 800 });
    // This test is about the screen over a long story, not the dice: a hero who cannot be defeated
    // (a defeat would put its choice where the composer is; stakes-journey.test.ts plays that).
    const heroId = page.url().split('/storychat/')[1]!.split(/[?#]/)[0]!;
    await t.app.db.dataSource.query(`UPDATE characters SET health = 1000, health_max = 1000 WHERE id = $1`, [heroId]);
    await page.getByRole('button', { name: 'Start your adventure!' }).click();
    await story.waitForChapters(1);
    for (let n = 2; n <= 20; n++) {
      await story
        .choices()
        .nth(n % 2)
        .click();
      await story.send.click();
      await story.waitForChapters(n);
    }
    const url = page.url();
    const viewTop = (p: Page, index: number) => p.evaluate((i) => document.querySelector(`[data-chapter-index="${i}"]`)!.getBoundingClientRect().top, index);

    // Opened in a browser that has not read it (no position kept): at the latest chapter, not at chapter 1.
    const characterId = url.split('/').pop()!;
    // Away from the story first: its page keeps saving the position as it scrolls.
    const forget = async () => {
      await page.goto(`${t.url}/characters`);
      await page.evaluate((id) => localStorage.removeItem(`taleforge.reading.${id}`), characterId);
    };
    await forget();
    await page.goto(url);
    await story.chapters.last().waitFor();
    await page.waitForFunction(() => window.scrollY > 1000);
    const top = await viewTop(page, 19);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(200);
    // The tools panel sits beside the story, on screen while the player is at the action box.
    await page.getByRole('tab', { name: /^Memory/ }).click();
    await story.actionBox.scrollIntoViewIfNeeded();
    const panel = (await page.getByRole('tabpanel').boundingBox())!;
    const box = (await story.actionBox.boundingBox())!;
    expect(panel.x).toBeGreaterThan(box.x + box.width - 1);
    expect(panel.y).toBeLessThan(800);
    await page.screenshot({ path: path.join(ARTIFACTS, 'story-20-chapters-1280.png') });
    // However far the page is scrolled, the side panel stays below the top bar and inside the
    // screen; a tool taller than that scrolls within the panel.
    const side = page.getByRole('complementary', { name: 'Story tools' });
    const sideProblems: string[] = [];
    // The tallest tool, then each stop from the first chapter to the very end of the page.
    await page.getByRole('tab', { name: /^Mission/ }).click();
    for (const index of [0, 9, 19, 'end'] as const) {
      await page.evaluate((i) => {
        if (i === 'end') window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
        else document.querySelector(`[data-chapter-index="${i}"]`)!.scrollIntoView({ block: 'center', behavior: 'instant' });
      }, index);
      await page.evaluate(() => new Promise(requestAnimationFrame));
      const bar = (await page.getByRole('banner').boundingBox())!;
      const at = (await side.boundingBox())!;
      if (at.y < bar.y + bar.height) sideProblems.push(`at ${index}: panel top ${at.y} under the top bar (bottom ${bar.y + bar.height})`);
      if (at.y + at.height > 800) sideProblems.push(`at ${index}: panel bottom ${at.y + at.height} below the screen`);
    }
    expect(sideProblems).toEqual([]);
    const tool = page.getByRole('tabpanel');
    const fits = await tool.evaluate((el) => el.scrollHeight <= el.clientHeight || getComputedStyle(el).overflowY === 'auto');
    expect(fits).toBe(true);

    // Scrolled back to chapter 12 and reopened: chapter 12 is where it opens.
    await page.evaluate(() => document.querySelector('[data-chapter-index="11"]')!.scrollIntoView({ block: 'start', behavior: 'instant' }));
    await sleep(300);
    await page.goto(url);
    await story.chapters.last().waitFor();
    await page.waitForFunction(() => Math.abs(document.querySelector('[data-chapter-index="11"]')!.getBoundingClientRect().top) < 120);

    // The phone: a bar of tools under the action box, a tool in a bottom sheet.
    await page.setViewportSize({ width: 390, height: 844 });
    await forget();
    await page.goto(url);
    await story.chapters.last().waitFor();
    await page.waitForFunction(() => window.scrollY > 1000);
    const bar = page.getByRole('navigation', { name: 'Story tools' });
    await bar.waitFor();
    const barBox = (await bar.boundingBox())!;
    expect(barBox.y + barBox.height).toBeLessThanOrEqual(844 + 1); // on screen, at the bottom
    // Every tool is within reach of the thumb: no button of the bar off screen, no sideways scroll
    // in it, and the tools not on the bar one tap away under More.
    const scroll = await bar.evaluate((el) => ({ content: el.scrollWidth, box: el.clientWidth }));
    expect(scroll.content).toBeLessThanOrEqual(scroll.box);
    const onBar: string[] = [];
    const offScreen: string[] = [];
    for (const button of await bar.getByRole('button').all()) {
      const b = (await button.boundingBox())!;
      const name = (await button.locator('.tool-label').textContent())!;
      if (b.x < 0 || b.y < 0 || b.x + b.width > 390 || b.y + b.height > 844) offScreen.push(`${name}: ${b.x},${b.y} → ${b.x + b.width},${b.y + b.height}`);
      onBar.push(name);
    }
    expect(offScreen).toEqual([]);
    const reachable = onBar.filter((n) => n !== 'More');
    if (onBar.includes('More')) {
      const more = bar.getByRole('button', { name: 'More' });
      await more.click();
      const sheet = page.getByRole('dialog', { name: 'More tools' });
      await sheet.waitFor();
      reachable.push(...(await sheet.getByRole('list').getByRole('button').locator('.tool-label').allTextContents()));
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });
      expect(await more.evaluate((el) => el === document.activeElement)).toBe(true);
    }
    expect(reachable.sort()).toEqual(['Branches', 'Cards', 'Inventory', 'Memory', 'Mission', 'Publish', 'Remembered']);
    await page.screenshot({ path: path.join(ARTIFACTS, 'story-20-chapters-390.png') });
    await bar.getByRole('button', { name: /^Cards/ }).click();
    await page.getByRole('dialog', { name: 'Cards' }).waitFor();
    await sleep(300);
    await page.screenshot({ path: path.join(ARTIFACTS, 'story-20-chapters-390-cards-sheet.png') });
    await page.keyboard.press('Escape');
    await bar.getByRole('button', { name: /^Memory/ }).click();
    await page.getByRole('dialog', { name: 'Memory' }).waitFor();
    await sleep(300);
    await page.screenshot({ path: path.join(ARTIFACTS, 'story-20-chapters-390-memory-sheet.png') });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a page opened by its address starts at its top, not at the scroll the page before it was left at', async () => {
    // A player with a character: /characters is a long page (the character's whole profile).
    const { context, page, errors } = await storyOf('scroll', { width: 390, height: 844 });
    await new WorldsPage(page).goto(t.url);
    await page.waitForFunction(() => document.documentElement.scrollHeight > 2000);
    await page.evaluate(() => window.scrollTo({ top: 900, behavior: 'instant' }));
    const left = await page.evaluate(() => ({ y: window.scrollY, h: document.documentElement.scrollHeight }));
    expect(left.y).toBeGreaterThan(800);
    await page.goto(`${t.url}/characters`);
    await page.getByRole('heading', { name: 'Character Description' }).waitFor();
    // A wrong restore scrolls smoothly, after the page's data has come (seen at 100 ms to 1 s): a
    // page still at its top a second and a half later was not sent anywhere.
    await page.waitForTimeout(1500);
    expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight + 900)).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/**
 * The story screen for long play (issue 33) in Debian's chromium: the Stop button stays the same
 * element while a chapter streams, a checkout opened at 127.0.0.1 while PUBLIC_URL says localhost.
 */
import type { Browser } from 'playwright-core';
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

jest.setTimeout(180_000);

beforeAll(async () => {
  t = await startAppWithPublicUrl({ generationRateLimit: { perUserPerWindow: 1000, windowSeconds: 60 } });
  // Prose paced like a model's, so a chapter is seen while it is written.
  const ai = t.app.services.ai as unknown as { streamChapter: (...a: unknown[]) => AsyncIterable<{ type: string }> };
  const original = ai.streamChapter.bind(ai);
  ai.streamChapter = async function* paced(...args: unknown[]) {
    for await (const event of original(...args)) {
      if (event.type === 'delta') await sleep(250);
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
  await worlds.popup.getByLabel(/^(Username|Character name)/).fill('Wren');
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
});

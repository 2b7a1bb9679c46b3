/**
 * Read-aloud in Debian's chromium (issue "The player's screen", item 5). Headless chromium has no
 * voices and speaks nothing, so a stand-in speechSynthesis is put in every page before the app loads
 * (addInitScript, Playwright's evaluateOnNewDocument): it lists its voices late (voiceschanged, as
 * Chrome does), records every utterance with its voice and speed, and "speaks" each for a moment.
 * The player chooses a voice, a speed and auto-read in Settings, reads a chapter with the keyboard,
 * pauses, resumes and stops, and hears a new chapter read as it arrives. Screenshots at 390 and 1280 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { makeCharacter } from '../support/story-fixtures';
import { newIdentity, type TestApp } from '../support/test-app';
import { AppChrome, AuthPage, openPage } from './pages/app';
import { startAppWithPublicUrl } from './pages/server';
import { StoryPage } from './pages/story';

let t: TestApp;
let browser: Browser;
let closeBrowser: () => Promise<void>;
/** Screenshots of the control and the settings (git-ignored here; the artifacts elsewhere). */
const ARTIFACTS = process.env.READ_ALOUD_ARTIFACTS_DIR ?? path.resolve(__dirname, '..', '.artifacts', 'read-aloud');

jest.setTimeout(180_000);

beforeAll(async () => {
  t = await startAppWithPublicUrl({ generationRateLimit: { perUserPerWindow: 1000, windowSeconds: 60 } });
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await t?.close();
});

interface Spoken {
  text: string;
  rate: number;
  voice: string | null;
}

/** The stand-in engine, run in the page before any of the app's code. */
function speechStub() {
  type Utterance = {
    text: string;
    rate: number;
    voice: { name: string } | null;
    lang: string;
    onend: null | (() => void);
    onerror: null | ((e: { error: string }) => void);
  };
  const w = window as unknown as { __spoken: Array<{ text: string; rate: number; voice: string | null }>; __speakMs: number };
  w.__spoken = [];
  w.__speakMs = 120;
  const voices = [
    { name: 'Stub Voice A', lang: 'en-US', voiceURI: 'stub-a', default: true, localService: true },
    { name: 'Stub Voice B', lang: 'en-GB', voiceURI: 'stub-b', default: false, localService: true },
  ];
  let listed: typeof voices = [];
  const target = new EventTarget();
  let current: Utterance | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const queue: Utterance[] = [];
  const synth = {
    paused: false,
    get speaking() {
      return current !== null;
    },
    get pending() {
      return queue.length > 0;
    },
    getVoices: () => listed,
    addEventListener: (type: string, l: EventListener) => target.addEventListener(type, l),
    removeEventListener: (type: string, l: EventListener) => target.removeEventListener(type, l),
    speak(u: Utterance) {
      queue.push(u);
      if (!current) next();
    },
    cancel() {
      if (timer) clearTimeout(timer);
      const was = current;
      current = null;
      queue.length = 0;
      was?.onerror?.({ error: 'canceled' });
    },
    pause() {
      synth.paused = true;
      if (timer) clearTimeout(timer);
    },
    resume() {
      synth.paused = false;
      if (current) finishLater();
    },
  };
  function finishLater() {
    timer = setTimeout(() => {
      const done = current;
      current = null;
      done?.onend?.();
      if (!current) next();
    }, w.__speakMs);
  }
  function next() {
    if (synth.paused) return;
    const u = queue.shift();
    if (!u) return;
    current = u;
    w.__spoken.push({ text: u.text, rate: u.rate, voice: u.voice ? u.voice.name : null });
    finishLater();
  }
  class StubUtterance {
    voice = null;
    rate = 1;
    lang = '';
    onend = null;
    onerror = null;
    constructor(public text: string) {}
  }
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
  Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: StubUtterance, configurable: true, writable: true });
  // Chrome lists its voices a moment after the page asks.
  setTimeout(() => {
    listed = voices;
    target.dispatchEvent(new Event('voiceschanged'));
  }, 300);
}

const spoken = (page: Page) => page.evaluate(() => (window as unknown as { __spoken: Spoken[] }).__spoken);
const words = (s: string) => s.replace(/\s+/g, ' ').trim();

async function playerWithStory(width: number, height: number, tag: string) {
  const { context, page, errors } = await openPage(browser, { width, height });
  await context.addInitScript(speechStub);
  const id = newIdentity(`aloud${tag}`);
  await new AuthPage(page).signUp(t.url, id);
  const [{ id: userId }] = (await t.app.db.dataSource.query('SELECT id FROM users WHERE email = $1', [id.email.toLowerCase()])) as Array<{ id: string }>;
  const c = await makeCharacter(t, userId!);
  // A hero the dice cannot defeat: this test is about reading, and a defeat would hide the composer.
  await t.app.db.dataSource.query(`UPDATE characters SET health = 1000, health_max = 1000 WHERE id = $1`, [c.id]);
  await page.goto(`${t.url}/storychat/${c.id}`);
  const story = new StoryPage(page);
  await page.getByRole('button', { name: 'Start your adventure!' }).click();
  await story.waitForChapters(1);
  return { context, page, errors, story };
}

async function chooseSettings(page: Page, shotName: string) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const menu = nav.getByRole('button', { name: 'Open menu' });
  let dialog;
  if (await menu.isVisible()) {
    // On a phone Settings is in the drawer.
    await menu.click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Settings' }).click();
    dialog = page.getByRole('dialog', { name: 'Settings' });
  } else dialog = await new AppChrome(page).openSettings();
  const section = dialog.getByRole('group', { name: 'Read-aloud' });
  const voice = section.getByLabel('Voice', { exact: true });
  // The voices arrive late (voiceschanged): the list fills in.
  await voice.locator('option', { hasText: 'Stub Voice B (en-GB)' }).waitFor({ state: 'attached' });
  await voice.selectOption('Stub Voice B');
  await section.getByLabel('Speed').fill('1.4');
  await section.getByText('1.4×').waitFor();
  await section.getByRole('checkbox', { name: 'Read new chapters aloud as they arrive' }).check();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await dialog.screenshot({ path: path.join(ARTIFACTS, `${shotName}.png`) });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('read-aloud', () => {
  for (const [width, height, tag] of [
    [1280, 800, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    it(`at ${width}×${height}: reads a chapter in the chosen voice and speed from the keyboard; pause, resume, stop; a new chapter is read as it arrives`, async () => {
      const { context, page, errors, story } = await playerWithStory(width, height, tag);
      await chooseSettings(page, `settings-read-aloud-${width}x${height}`);

      const first = story.chapters.first();
      const text = words((await first.locator('.chapter-text').textContent())!);
      const read = first.getByRole('button', { name: 'Read aloud: chapter 1' });
      // Slow enough to look at while it reads.
      await page.evaluate(() => ((window as unknown as { __speakMs: number }).__speakMs = 400));
      await read.focus();
      // The control is on screen, clear of the sticky header, when the keyboard reaches it.
      const box = (await read.boundingBox())!;
      const headerBottom = await page.evaluate(() => document.querySelector('header')!.getBoundingClientRect().bottom);
      expect(box.y).toBeGreaterThanOrEqual(headerBottom);
      // The screen as the player sees it (an element screenshot would scroll the chapter's top under the header).
      await page.screenshot({ path: path.join(ARTIFACTS, `story-read-aloud-control-${width}x${height}.png`) });
      await page.keyboard.press('Enter');
      await first.getByRole('status').getByText('Reading aloud').waitFor();
      expect(await first.getAttribute('data-reading')).toBe('true');
      const pause = first.getByRole('button', { name: 'Pause reading of chapter 1' });
      expect(await pause.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.screenshot({ path: path.join(ARTIFACTS, `story-screen-reading-${width}x${height}.png`) });
      // Chapters fit the screen with the control: nothing wider than the viewport.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      // Space pauses: nothing more is spoken; Space again resumes.
      await page.keyboard.press(' ');
      await first.getByRole('status').getByText('Paused').waitFor();
      const atPause = (await spoken(page)).length;
      await page.waitForTimeout(900);
      expect((await spoken(page)).length).toBe(atPause);
      await page.keyboard.press(' ');
      await page.waitForFunction((n) => (window as unknown as { __spoken: unknown[] }).__spoken.length > n, atPause);
      // Stop: the mark goes and the voice stops.
      await first.getByRole('button', { name: 'Stop reading chapter 1' }).click();
      await page.waitForFunction(() => !document.querySelector('[data-reading]'));
      const atStop = (await spoken(page)).length;
      await page.waitForTimeout(900);
      expect((await spoken(page)).length).toBe(atStop);

      // Read to the end: every utterance in Stub Voice B at 1.4×, sentence-sized, the whole chapter.
      await page.evaluate(() => ((window as unknown as { __speakMs: number }).__speakMs = 30));
      await read.click();
      await page.waitForFunction(() => !document.querySelector('[data-reading]'), null, { timeout: 30_000 });
      const whole = (await spoken(page)).slice(atStop);
      expect(whole.length).toBeGreaterThan(1);
      expect(whole.every((u) => u.rate === 1.4 && u.voice === 'Stub Voice B' && u.text.length <= 220)).toBe(true);
      expect(words(whole.map((u) => u.text).join(' '))).toBe(text);

      // Auto-read: the next chapter is read once it has been written, not before.
      const before = (await spoken(page)).length;
      await story.choices().first().click();
      await story.send.click();
      await story.waitForChapters(2);
      const second = story.chapters.nth(1);
      await page.waitForFunction((n) => (window as unknown as { __spoken: unknown[] }).__spoken.length > n, before);
      await page.waitForFunction(() => !document.querySelector('[data-reading]'), null, { timeout: 30_000 });
      const auto = (await spoken(page)).slice(before);
      expect(words(auto.map((u) => u.text).join(' '))).toBe(words((await second.locator('.chapter-text').textContent())!));
      expect(auto.every((u) => u.rate === 1.4 && u.voice === 'Stub Voice B')).toBe(true);

      // The settings were kept with the account: a reload reads the same way.
      await page.reload();
      await story.waitForChapters(2);
      await page.evaluate(() => ((window as unknown as { __speakMs: number }).__speakMs = 30));
      await page.waitForFunction(() => window.speechSynthesis.getVoices().length > 0);
      await story.chapters.nth(1).getByRole('button', { name: 'Read aloud: chapter 2' }).click();
      await page.waitForFunction(() => (window as unknown as { __spoken: unknown[] }).__spoken.length > 0);
      expect((await spoken(page))[0]).toMatchObject({ rate: 1.4, voice: 'Stub Voice B' });
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

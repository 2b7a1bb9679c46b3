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
import { FakeOpenAIServer } from '../../server/src/ai/openai/fake-openai-server';
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

async function playerWithStory(width: number, height: number, tag: string, app = t) {
  const { context, page, errors } = await openPage(browser, { width, height });
  await context.addInitScript(speechStub);
  const id = newIdentity(`aloud${tag}`);
  await new AuthPage(page).signUp(app.url, id);
  const [{ id: userId }] = (await app.app.db.dataSource.query('SELECT id FROM users WHERE email = $1', [id.email.toLowerCase()])) as Array<{
    id: string;
  }>;
  const c = await makeCharacter(app, userId!);
  // A hero the dice cannot defeat: this test is about reading, and a defeat would hide the composer.
  await app.app.db.dataSource.query(`UPDATE characters SET health = 1000, health_max = 1000 WHERE id = $1`, [c.id]);
  await page.goto(`${app.url}/storychat/${c.id}`);
  const story = new StoryPage(page);
  await page.getByRole('button', { name: 'Start your adventure!' }).click();
  await story.waitForChapters(1);
  return { context, page, errors, story };
}

async function openSettings(page: Page) {
  const menu = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Open menu' });
  if (!(await menu.isVisible())) return new AppChrome(page).openSettings();
  // On a phone Settings is in the drawer.
  await menu.click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Settings' }).click();
  return page.getByRole('dialog', { name: 'Settings' });
}

async function chooseSettings(page: Page, shotName: string) {
  const dialog = await openSettings(page);
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
      // The first sentence lasts until the test stops the reading: however slow a busy machine is
      // between the steps below, the reading cannot end before Pause, Resume and Stop are pressed.
      await page.evaluate(() => ((window as unknown as { __speakMs: number }).__speakMs = 600_000));
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
      expect(await page.evaluate(() => window.speechSynthesis.paused)).toBe(true);
      await page.keyboard.press(' ');
      await first.getByRole('status').getByText('Reading aloud').waitFor();
      expect(await page.evaluate(() => window.speechSynthesis.paused)).toBe(false);
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

/** A second and a half of silence as WAV: chromium sniffs what it is given, whatever the MIME type says. */
function silence(): Buffer {
  const rate = 8000;
  const samples = rate * 1.5;
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples * 2, 40);
  return b;
}

describe('read-aloud with the server voice', () => {
  let voiced: TestApp;
  const fake = new FakeOpenAIServer();
  beforeAll(async () => {
    const baseUrl = await fake.start();
    fake.speak = () => silence();
    voiced = await startAppWithPublicUrl({ tts: { model: 'fake-tts', baseUrl, apiKey: 'sk-test', voices: ['alloy', 'nova'], timeoutMs: 5000 } });
  });
  afterAll(async () => {
    await voiced?.close();
    await fake.stop();
  });

  for (const [width, height, tag] of [
    [1280, 800, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    it(`at ${width}×${height}: Settings offers it with its price; a chapter is read once (1 credit), then from the cache for free`, async () => {
      const { context, page, errors, story } = await playerWithStory(width, height, `srv${tag}`, voiced);
      const dialog = await openSettings(page);
      const section = dialog.getByRole('group', { name: 'Read-aloud' });
      await section.getByLabel('Voice engine').selectOption('server');
      await section.getByText('Server voice: 1 credit per chapter the first time it is read in a voice; free when read again; refunded if it fails.').waitFor();
      await section.getByLabel('Voice', { exact: true }).selectOption('nova');
      await dialog.screenshot({ path: path.join(ARTIFACTS, `settings-server-voice-${width}x${height}.png`) });
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });

      const credits = async () => Number(await page.getByTestId('nav-credits').first().textContent());
      const before = await credits();
      const first = story.chapters.first();
      await first.getByRole('button', { name: 'Read aloud: chapter 1' }).click();
      // Played (the status says so once the audio has started), then over.
      await first.getByRole('status').getByText('Reading aloud').waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, `story-server-voice-${width}x${height}.png`) });
      await page.waitForFunction(() => !document.querySelector('[data-reading]'), null, { timeout: 30_000 });
      const calls = () => fake.requests.filter((r) => r.url.endsWith('/audio/speech'));
      expect(calls()).toHaveLength(1);
      expect(calls()[0]!.body).toMatchObject({ voice: 'nova', input: (await first.locator('.chapter-text').textContent())!.trim() });
      await page.waitForFunction((n) => Number(document.querySelector('[data-testid="nav-credits"]')?.textContent) === n, before - 1);

      // Again: from the cache, no model call, no credit.
      await first.getByRole('button', { name: 'Read aloud: chapter 1' }).click();
      await first.getByRole('status').getByText('Reading aloud').waitFor();
      await page.waitForFunction(() => !document.querySelector('[data-reading]'), null, { timeout: 30_000 });
      expect(calls()).toHaveLength(1);
      expect(await page.locator('.Toastify__toast').count()).toBe(0);
      expect(await credits()).toBe(before - 1);
      expect(errors).toEqual([]);
      fake.requests.length = 0;
      await context.close();
    });
  }
});

/**
 * Player journeys in Debian's chromium (playwright-core; page objects in ./pages): browsing
 * anonymously, the whole story loop from sign-up to deleting the character, creating and sharing a
 * world, spawning from a profile, a purchase with credits updating live, support, the immersive UI
 * and the phone layout. A journey is one test because each step needs the ones before it;
 * screenshots go to tests/.artifacts/e2e-screenshots.
 */
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { newIdentity, type TestApp } from '../support/test-app';
import { AppChrome, AuthPage, openPage, shot } from './pages/app';
import { startAppWithPublicUrl } from './pages/server';
import { StoryPage } from './pages/story';
import { WorldsPage } from './pages/worlds';

/**
 * The player's journeys of SPEC §2–§5 in Debian's chromium against the real app (built client,
 * GraphQL over HTTP and graphql-ws, offline storyteller, local checkout). Every step saves a screenshot
 * under tests/.artifacts/e2e-screenshots.
 */
let t: TestApp;
let browser: Browser;
let closeBrowser: () => Promise<void>;

const AETHERMOOR = '00000000-0000-4000-a000-000000000001';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Milliseconds between a chapter's sentences (the Stop step slows it so the chapter is still being written when Stop is pressed). */
let pace = 45;

beforeAll(async () => {
  t = await startAppWithPublicUrl({ generationRateLimit: { perUserPerWindow: 1000, windowSeconds: 60 } });
  // The offline storyteller writes a chapter in well under a millisecond; pace its prose like a
  // model would, so the browser can be seen showing a chapter before it is complete.
  const ai = t.app.services.ai as unknown as { streamChapter: (...a: unknown[]) => AsyncIterable<{ type: string }> };
  const original = ai.streamChapter.bind(ai);
  ai.streamChapter = async function* paced(...args: unknown[]) {
    for await (const event of original(...args)) {
      if (event.type === 'delta') await sleep(pace);
      yield event;
    }
  };
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await t?.close();
});

async function signedIn(prefix: string, viewport?: { width: number; height: number }) {
  const { context, page, errors } = await openPage(browser, viewport);
  const id = newIdentity(prefix);
  await new AuthPage(page).signUp(t.url, id);
  return { context, page, errors, id, chrome: new AppChrome(page), worlds: new WorldsPage(page) };
}

describe('player journeys', () => {
  it('anonymous: browse featured worlds, open one from the landing page, Login to Spawn', async () => {
    const { context, page, errors } = await openPage(browser);
    await page.goto(t.url);
    await page.getByRole('heading', { name: /Every legend begins/ }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await shot(page, '01-landing');
    await page.getByRole('button', { name: /Explore Aethermoor/ }).click();
    await page.waitForURL(`**/worlds?world=${AETHERMOOR}`);
    const popup = page.getByRole('dialog', { name: 'Aethermoor' });
    await popup.waitFor();
    expect(await page.getByRole('heading', { name: 'My Worlds' }).count()).toBe(0);
    await shot(page, '02-anonymous-world-popup');
    await popup.getByRole('button', { name: 'Login to Spawn' }).click();
    await page.waitForURL('**/auth');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sign up → spawn → save → story (start, choice, typed action, mission, regenerate, undo, export, reload) → characters → delete', async () => {
    const { context, page, errors, worlds, chrome } = await signedIn('journey');
    await worlds.goto(t.url, AETHERMOOR);
    await worlds.popup.getByRole('button', { name: 'Spawn', exact: true }).click();
    // The overlay no longer closes an expanded popup.
    await page.mouse.click(5, 300);
    await worlds.popup.getByLabel('Character name').waitFor();
    await worlds.popup.getByRole('button', { name: 'Generate Character (3 gems)' }).click();
    await worlds.popup.getByRole('alert').filter({ hasText: 'Please enter a username for your character' }).waitFor();
    await shot(page, '03-spawn-form');
    await worlds.popup.getByLabel('Character name').fill('Lyra Windborn');
    const answers = worlds.popup.locator('textarea');
    const count = await answers.count();
    for (let i = 1; i < count; i++) await answers.nth(i).fill(`Answer ${i}: a sky-sailor who fears nothing but silence.`);
    await worlds.popup.getByRole('button', { name: 'Generate Character (3 gems)' }).click();
    await page.getByRole('heading', { name: 'Your Character Profile' }).waitFor({ timeout: 20_000 });
    await page.getByRole('heading', { name: 'Lyra Windborn' }).waitFor();
    await page.getByText('Character Stats').first().waitFor();
    await chrome.credits().filter({ hasText: '7' }).waitFor(); // live: 10 - 3
    await shot(page, '04-character-result');
    await worlds.saveCharacter();

    const select = page.getByLabel('Character', { exact: true });
    await select.waitFor();
    expect(await select.locator('option').first().textContent()).toBe('Lyra Windborn - Aethermoor');
    await shot(page, '05-characters');
    await page.getByRole('button', { name: 'Story' }).click();
    await page.waitForURL('**/storychat/*');
    const story = new StoryPage(page);
    await page.getByRole('button', { name: 'Start your adventure!' }).waitFor();
    expect(await page.getByRole('contentinfo').count()).toBe(0); // no footer on the story screen
    await page.getByRole('button', { name: 'Start your adventure!' }).click();
    await page.getByText('Generating initial story...').waitFor();
    // Streamed: text is on screen while the chapter is still being written.
    await page.waitForFunction(() => {
      const live = document.querySelector('[data-testid="live-chapter"] .chapter-text');
      return !!live && (live.textContent ?? '').trim().length > 20;
    });
    expect(await story.live.getAttribute('aria-busy')).toBe('true');
    await shot(page, '06-story-streaming');
    await story.waitForChapters(1);
    const objective = (await story.missionPanel.locator('.mission-objective').textContent())?.trim();
    expect(objective).toBeTruthy();
    expect(objective).not.toContain('No mission yet');
    await shot(page, '07-story-first-chapter');

    // Send is disabled until a choice is picked or an action typed.
    expect(await story.send.isDisabled()).toBe(true);
    await story.actionBox.fill('   ');
    expect(await story.send.isDisabled()).toBe(true);
    const firstChoice = story.choices().first();
    const choiceText = (await firstChoice.textContent())!.trim();
    await firstChoice.click();
    expect(await firstChoice.getAttribute('aria-pressed')).toBe('true');
    await shot(page, '08-choice-selected');
    await story.send.click();
    expect(await story.actionBox.isDisabled()).toBe(true);
    await story.waitForChapters(2);
    await page.locator('.player-choice').filter({ hasText: choiceText }).first().waitFor();
    expect(await page.locator('.chapter-divider').count()).toBe(1);
    // The stats panel shows exactly the gains the latest chapter stored (+N on each raised stat).
    const [latest] = await t.app.db.dataSource.query(
      `SELECT stat_increases FROM chapters WHERE character_id = $1 AND is_selected ORDER BY "index" DESC LIMIT 1`,
      [new URL(page.url()).pathname.split('/').pop()],
    );
    const gains = Object.values(latest.stat_increases as Record<string, number>).filter((n) => n > 0).length;
    expect(await page.locator('.stat-gain').count()).toBe(gains);

    await story.actionBox.fill('I climb the rigging and shout for the harbour master.');
    await story.send.click();
    await story.waitForChapters(3);
    await page.locator('.player-choice').filter({ hasText: 'I climb the rigging' }).waitFor();
    expect(await story.actionBox.inputValue()).toBe('');

    await story.editMission('Find the lost lighthouse keeper before the storm.');
    await shot(page, '09-mission-edited');

    // Story memory: plot essentials saved for the story (and sent with every next chapter's prompt).
    await page.getByRole('tab', { name: /^Memory/ }).click(); // the story tools, beside the action box
    const memory = page.getByTestId('story-memory');
    await memory.getByText('Story Memory').click();
    await memory.getByLabel('Plot essentials').fill('Lyra is the lost heir of the Argent Collegium.');
    await memory.getByRole('button', { name: 'Save Memory' }).click();
    await page.getByText('Story memory saved.').waitFor();
    await shot(page, '09b-story-memory');

    // Story cards: the people the chapters met are there; the player adds a place and pins it.
    await page.getByRole('tab', { name: /^Cards/ }).click();
    const cards = page.getByTestId('story-cards');
    const met = await cards.getByTestId('story-card').count();
    await cards.getByRole('button', { name: 'Add Card' }).click();
    await cards.getByLabel('Kind').selectOption('place');
    await cards.getByLabel('Name', { exact: true }).fill('Gull Rock');
    await cards.getByLabel('Other names').fill('the Rock');
    await cards.getByLabel('Description').fill('A lighthouse on a reef, dark for ten years.');
    await cards.getByRole('button', { name: 'Save Card' }).click();
    await page.getByText('Story card saved.').first().waitFor();
    await cards.getByTestId('story-card').filter({ hasText: 'Gull Rock' }).waitFor();
    expect(await cards.getByTestId('story-card').count()).toBe(met + 1);
    await cards.getByRole('button', { name: 'Pin Gull Rock' }).click();
    await cards.getByRole('button', { name: 'Unpin Gull Rock' }).waitFor();
    await shot(page, '09c-story-cards');
    // On a phone the tools are a bar under the story; Cards opens in a bottom sheet.
    await page.setViewportSize({ width: 390, height: 844 });
    await page
      .getByRole('navigation', { name: 'Story tools' })
      .getByRole('button', { name: /^Cards/ })
      .click();
    await page.getByRole('dialog', { name: 'Cards' }).waitFor();
    await shot(page, '09d-story-cards-phone');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The player rewrites the latest chapter: stored, marked, and what the story goes on from.
    await page.getByRole('button', { name: 'Edit chapter' }).click();
    const rewrite = 'The harbour master laughed and pointed at the lighthouse, dark for ten years. Lyra counted the steps to the door.';
    await page.getByLabel('Text of chapter 3').fill(rewrite);
    await page.getByRole('button', { name: 'Save Edit' }).click();
    await page.getByText('Your edit was saved.').first().waitFor();
    await story.chapters.last().getByText('Edited by you').waitFor();
    expect(await story.chapters.last().locator('.chapter-text').textContent()).toBe(rewrite);
    await shot(page, '09e-chapter-edited');

    const before = await story.chapters.last().textContent();
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await page.getByRole('group', { name: 'Versions of this chapter' }).getByText('Version 2 of 2').waitFor({ timeout: 30_000 });
    expect(await story.chapters.count()).toBe(3);
    await page.getByRole('button', { name: 'Previous version' }).click();
    await page.getByText('Version 1 of 2').waitFor();
    expect(await story.chapters.last().textContent()).toBe(before);

    // Continue: the storyteller goes on with the chapter, as a third version that starts with it.
    const shown = (await story.chapters.last().locator('.chapter-text').textContent())!;
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('group', { name: 'Versions of this chapter' }).getByText('Version 3 of 3').waitFor({ timeout: 30_000 });
    const continued = (await story.chapters.last().locator('.chapter-text').textContent())!;
    expect(continued.startsWith(shown)).toBe(true);
    expect(continued.length).toBeGreaterThan(shown.length + 200);
    await shot(page, '09f-chapter-continued');

    // Rewind to the first chapter: the later ones are kept as a branch, and the player returns to it
    // with the keyboard alone.
    await page.getByRole('button', { name: 'Rewind here: make chapter 1 the latest' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Rewind' }).click();
    await story.waitForChapters(1);
    await page.getByRole('tab', { name: /^Branches/ }).click();
    const branches = page.getByTestId('story-branches');
    await branches.getByTestId('story-branch').filter({ hasText: 'After chapter 1' }).waitFor();
    await shot(page, '09g-rewound-branches');
    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone Branches waits under More (the bar keeps the everyday tools).
    await story.openToolSheet('Branches');
    await shot(page, '09h-branches-phone');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('tab', { name: /^Branches/ }).click();
    await branches.getByRole('button', { name: /^Return to this branch/ }).focus();
    await page.keyboard.press('Enter');
    await story.waitForChapters(3);
    await page.getByText('Version 3 of 3').waitFor();
    expect(await story.chapters.last().locator('.chapter-text').textContent()).toBe(continued);
    await page.getByRole('button', { name: 'Previous version' }).click();
    await page.getByText('Version 2 of 3').waitFor();
    await page.getByRole('button', { name: 'Previous version' }).click();
    await page.getByText('Version 1 of 3').waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Markdown' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.md$/);

    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Undo Chapter' }).click();
    await story.waitForChapters(2);

    // Stop a chapter while it is written: nothing of it stays, the action is back in the box. Paced
    // slowly here: at 45 ms a sentence a busy machine could finish the chapter before Stop is pressed.
    pace = 1500;
    await story.actionBox.fill('I row out toward the reef.');
    await story.send.click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="live-chapter"] .chapter-text')?.textContent ?? '').length > 10);
    await shot(page, '09i-stop-while-writing');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByText('Chapter stopped. Nothing of it was kept; your action is back in the box.').waitFor();
    await story.live.waitFor({ state: 'detached' });
    pace = 45;
    expect(await story.chapters.count()).toBe(2);
    expect(await story.actionBox.inputValue()).toBe('I row out toward the reef.');

    // Reload in the middle of a chapter: the story, the mission and the chapter being written survive.
    await story.actionBox.fill('I follow the lantern lights into the fog.');
    await story.send.click();
    await page.waitForFunction(() => (document.querySelector('[data-testid="live-chapter"] .chapter-text')?.textContent ?? '').length > 10);
    await page.reload();
    await story.live.waitFor({ timeout: 10_000 }).catch(() => undefined); // resumed, if still writing
    await story.waitForChapters(3);
    await page.locator('.player-choice').filter({ hasText: 'lantern lights' }).waitFor();
    await shot(page, '10-story-after-reload');

    await page.getByRole('button', { name: 'Close Story' }).click();
    await page.waitForURL('**/profile');

    await chrome.nav.getByRole('link', { name: 'Characters' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Are you sure you want to delete this character? This action cannot be undone.').waitFor();
    await shot(page, '11-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No characters found').waitFor();
    await page.getByRole('button', { name: 'Spawn a Character in Worlds' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('create a world (with the 1200 rule), then share and unshare it', async () => {
    const { context, page, errors, worlds } = await signedIn('creator');
    await worlds.goto(t.url);
    await page.getByText('No worlds found. Create one, or see Featured Worlds below.').waitFor();
    await page.getByRole('link', { name: 'Create World' }).click();
    await page.waitForURL('**/worlds/new');
    const description = page.getByLabel('World description');
    await description.fill('x'.repeat(1201));
    await page.getByRole('button', { name: 'Continue to details' }).click();
    await page.getByRole('alert').filter({ hasText: 'World description cannot exceed 1200 characters' }).waitFor();
    await page.getByText('1201 / 1200').waitFor();
    await shot(page, '12-world-1200-rule');
    await description.fill('');
    await page.getByRole('button', { name: 'Generate Description' }).click();
    await page.getByRole('region', { name: 'Generated description' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Accept' }).click();
    expect((await description.inputValue()).length).toBeGreaterThan(50);
    expect((await description.inputValue()).length).toBeLessThanOrEqual(1200);
    await page.getByRole('button', { name: 'Continue to details' }).click();
    await page.getByLabel('World name').fill('Glasswater Deep');
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await page.getByRole('img', { name: /Generated artwork/ }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Regenerate Image' }).waitFor();
    await page.getByRole('button', { name: 'Generate Questions' }).click();
    await page.waitForFunction(() => ((document.querySelector('input[id$="-q0"]') as HTMLInputElement | null)?.value ?? '').length > 0, null, {
      timeout: 20_000,
    });
    await shot(page, '13-world-wizard');
    await page.getByRole('button', { name: 'Create World (3 gems)' }).click();
    await page.waitForURL(/\/worlds$/);
    await worlds.openMine('Glasswater Deep');
    await shot(page, '14-own-world-popup');
    await worlds.popup.getByRole('button', { name: 'Share', exact: true }).click();
    await worlds.popup.getByRole('button', { name: 'Unshare' }).waitFor();
    await page.waitForTimeout(300);
    const [shared] = await t.app.db.dataSource.query(`SELECT shared_globally FROM worlds WHERE name = $1`, ['Glasswater Deep']);
    expect(shared.shared_globally).toBe(true);
    await worlds.popup.getByRole('button', { name: 'Unshare' }).click();
    await worlds.popup.getByRole('button', { name: 'Share', exact: true }).waitFor();
    await page.waitForTimeout(300);
    const [unshared] = await t.app.db.dataSource.query(`SELECT shared_globally FROM worlds WHERE name = $1`, ['Glasswater Deep']);
    expect(unshared.shared_globally).toBe(false);
    // The overlay closes a collapsed popup.
    await page.mouse.click(5, 300);
    await worlds.popup.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('spawn from profile: the incomplete-profile toast leads to /profile; a filled profile spawns', async () => {
    const { context, page, errors, worlds, chrome } = await signedIn('profiler');
    await worlds.goto(t.url, AETHERMOOR);
    await worlds.popup.getByRole('button', { name: 'Spawn', exact: true }).click();
    await worlds.popup.getByRole('radio', { name: 'Your character profile' }).check();
    await worlds.popup.getByRole('button', { name: 'Spawn from Profile (3 gems)' }).click();
    const toast = chrome.toast('Please complete your character profile first!');
    await toast.waitFor();
    // This toast asks the player to act, so it stays 10 s (not the default 5: under load, the 5 s passed
    // between the toast appearing and the hover, and it was gone before the click); hovering pauses it
    // (react-toastify's pauseOnHover), so the screenshot cannot outlast it either.
    await toast.hover();
    await shot(page, '15-profile-incomplete-toast');
    await toast.click();
    await page.waitForURL('**/profile?tab=character');
    await page.getByRole('button', { name: /Fill In Profile|Edit Profile/ }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please fill in all required fields' }).waitFor();
    await page.getByLabel(/Skills/).fill('Knot-tying, star navigation');
    await page.getByLabel(/Personality Traits/).fill('Patient, stubborn');
    await page.getByLabel(/Free Time/).fill('Repairing old clocks');
    await page.getByRole('button', { name: 'Save' }).click();
    await chrome.toast('Profile saved successfully!').waitFor();
    await page.getByText('Repairing old clocks').waitFor();
    await shot(page, '16-character-profile');
    await worlds.goto(t.url, AETHERMOOR);
    await worlds.popup.getByRole('button', { name: 'Spawn', exact: true }).click();
    await worlds.popup.getByRole('radio', { name: 'Your character profile' }).check();
    await worlds.popup.getByRole('button', { name: 'Spawn from Profile (3 gems)' }).click();
    await page.getByRole('heading', { name: 'Your Character Profile' }).waitFor({ timeout: 20_000 });
    await shot(page, '17-spawned-from-profile');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a purchase through the local checkout, with the credits updating live in another tab', async () => {
    const { context, page, errors, chrome } = await signedIn('buyer');
    const other = await context.newPage();
    await other.goto(`${t.url}/worlds`);
    const otherCredits = new AppChrome(other).credits();
    await otherCredits.filter({ hasText: /^10$/ }).waitFor();

    await chrome.nav.getByRole('link', { name: /Subscription:/ }).click();
    await page.waitForURL('**/subscription');
    await page.getByText('Current plan', { exact: true }).waitFor();
    await shot(page, '18-subscription-tiers');
    await page.getByRole('button', { name: 'Choose Hero' }).click();
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.getByRole('button', { name: 'Choose Hero' }).click();
    await shot(page, '19-checkout-view');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await page.waitForURL(/\/checkout\/local\//);
    await shot(page, '20-local-checkout');
    await page
      .getByRole('button', { name: /pay|confirm/i })
      .first()
      .click();
    await page.waitForURL(/\/subscription/);
    await chrome.toast('Subscription updated successfully!').waitFor();
    await page.locator('.tier-card.is-current').getByRole('heading', { name: 'Hero' }).waitFor();
    // The other tab never reloaded: its gem count moved through the live subscription.
    await other.waitForFunction(() => Number(document.querySelector('[data-testid="nav-credits"]')?.textContent) > 10, null, { timeout: 15_000 });
    await shot(other, '21-live-credits-other-tab');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a support message: Submitted! for 3 seconds, then the form resets', async () => {
    const { context, page, errors } = await signedIn('helper');
    await page.getByRole('button', { name: 'Report a Bug' }).click();
    await page.waitForURL('**/support?type=bug');
    expect(await page.getByRole('radio', { name: /Bug/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please enter a message before submitting.' }).waitFor();
    await page.getByLabel('Message').fill('The compass in Hollowmere points the wrong way.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Submitted!').waitFor();
    await page.locator('.Toastify__toast').filter({ hasText: 'Your bug has been submitted successfully!' }).waitFor();
    await shot(page, '22-support-submitted');
    await page.getByText('Submitted!').waitFor({ state: 'detached', timeout: 5000 });
    expect(await page.getByLabel('Message').inputValue()).toBe('');
    const [row] = await t.app.db.dataSource.query(`SELECT type, message FROM support_messages ORDER BY created_at DESC LIMIT 1`);
    expect(row).toEqual({ type: 'bug', message: 'The compass in Hollowmere points the wrong way.' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('immersive UI on and off on the story screen', async () => {
    const { context, page, errors, worlds, chrome } = await signedIn('immersed');
    await worlds.goto(t.url, AETHERMOOR);
    await worlds.spawn('Kestrel');
    await worlds.saveCharacter();
    await page.getByRole('button', { name: 'Story' }).click();
    const story = new StoryPage(page);
    await page.getByRole('button', { name: 'Start your adventure!' }).click();
    await story.waitForChapters(1);
    const main = page.locator('main.story-page');
    expect(await main.getAttribute('data-immersive')).toBe('off');
    // The offline storyteller only names a setting once the story travels somewhere; give this
    // character one directly (how it arose is the server's business, not the restyle's).
    const characterId = new URL(page.url()).pathname.split('/').pop();
    await t.app.db.dataSource.query(`UPDATE characters SET current_setting = $2 WHERE id = $1`, [
      characterId,
      'A storm-lashed sky harbour of brass cranes and lantern-lit docks, high above a sea of clouds.',
    ]);
    await page.reload();
    await story.waitForChapters(1);
    expect(await main.getAttribute('data-immersive')).toBe('off'); // setting, but immersive UI off
    await chrome.setImmersive(true);
    await page.reload();
    await story.waitForChapters(1);
    await page.waitForFunction(() => document.querySelector('main.story-page')?.getAttribute('data-immersive') === 'on');
    const vars = await main.evaluate((el) => (el as HTMLElement).style.getPropertyValue('--st-container-bg'));
    expect(vars).toMatch(/^(#|rgb|hsl|[a-z])/i);
    await shot(page, '23-immersive-on');
    // On a phone a tool opens in a sheet at the end of body, outside the page: it wears the story's
    // colours too, as the side panel does.
    await page.setViewportSize({ width: 390, height: 844 });
    await page
      .getByRole('navigation', { name: 'Story tools' })
      .getByRole('button', { name: /^Mission/ })
      .click();
    const sheet = page.getByRole('dialog', { name: 'Mission' });
    await sheet.waitFor();
    const painted = await sheet.evaluate((el) => getComputedStyle(el).backgroundColor);
    const storyPanel = await main.evaluate((el) => {
      const probe = document.createElement('div');
      probe.style.background = (el as HTMLElement).style.getPropertyValue('--st-stats-bg');
      el.appendChild(probe);
      const colour = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return colour;
    });
    expect(painted).toBe(storyPanel);
    await shot(page, '23b-immersive-phone-sheet');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });
    await chrome.setImmersive(false);
    await page.reload();
    await story.waitForChapters(1);
    expect(await main.getAttribute('data-immersive')).toBe('off');
    await shot(page, '24-immersive-off');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('phone (390×844): the side drawer and a one-card carousel that swipes', async () => {
    const { context, page, errors, worlds, id } = await signedIn('phone', { width: 390, height: 844 });
    // Two worlds of their own so the carousel has somewhere to go.
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('taleforge.session') ?? '{}').accessToken as string);
    for (const name of ['Pocket Realm', 'Tiny Kingdom']) {
      const r = await t.gql(
        `mutation($input: SubmitWorldInput!) { submitWorld(input: $input) { id } }`,
        { input: { name, description: `${name}: a small world of big storms and bigger secrets.`, questions: ['Who are you?'] } },
        token,
      );
      expect(r.errors).toBeUndefined();
    }
    await worlds.goto(t.url);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Characters' }).isVisible()).toBe(false);
    await nav.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.getByRole('link', { name: `Profile (${id.username})` }).waitFor();
    await drawer.getByRole('link', { name: 'Characters' }).waitFor();
    await drawer.getByRole('link', { name: /Subscription:/ }).waitFor();
    await shot(page, '25-phone-drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    const slides = worlds.carousel.getByRole('group');
    expect(await slides.count()).toBe(1);
    const first = await slides.first().getAttribute('aria-label');
    const track = worlds.carousel.locator('.carousel-track');
    const box = (await track.boundingBox())!;
    const y = box.y + box.height / 2;
    // A touch swipe of 120 px to the left shows the next world.
    await track.dispatchEvent('touchstart', {
      touches: [{ identifier: 1, clientX: box.x + 200, clientY: y }],
      changedTouches: [{ identifier: 1, clientX: box.x + 200, clientY: y }],
    });
    await track.dispatchEvent('touchend', { touches: [], changedTouches: [{ identifier: 1, clientX: box.x + 80, clientY: y }] });
    await page.waitForFunction((label) => document.querySelector('.carousel-slide')?.getAttribute('aria-label') !== label, first);
    await shot(page, '26-phone-carousel');
    expect(errors).toEqual([]);
    await context.close();
  });
});

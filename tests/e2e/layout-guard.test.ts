/**
 * The layout guard (issue 33): at a phone's 390×844 and a laptop's 1280×800, every route holds (no
 * horizontal scroll, axe clean) and every dialog, menu, drawer, sheet and toast is fully on screen,
 * covers the page when modal, keeps focus inside while open and gives it back when closed.
 */
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { characterOfEmail } from '../support/party-fixtures';
import { launchBrowser } from '../support/browser';
import { newIdentity, type TestApp } from '../support/test-app';
import { AuthPage, openPage } from './pages/app';
import { audit, checkModal, insideViewport, noHorizontalScroll } from './pages/layout';
import { startAppWithPublicUrl } from './pages/server';
import { StoryPage } from './pages/story';
import { WorldsPage } from './pages/worlds';

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** Where a failed run leaves a screenshot of the moment it failed (git-ignored). */
const SHOTS = path.resolve(__dirname, '..', '.artifacts', 'e2e-screenshots');

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

/** The page holds: no sideways scroll, axe clean. */
async function route(page: Page, label: string): Promise<string[]> {
  return [...(await noHorizontalScroll(page, label)), ...(await audit(page, label))];
}

describe('layout guard: every route and overlay at 390×844 and 1280×800', () => {
  for (const size of SIZES) {
    const phone = size.width < 768;
    const at = `${size.width}`;
    it(`at ${size.width}×${size.height}`, async () => {
      const problems: string[] = [];
      const { context, page, errors } = await openPage(browser, size);
      try {
        const nav = page.getByRole('navigation', { name: 'Main' });
        const menuButton = nav.getByRole('button', { name: 'Open menu' });

        // Signed out.
        await page.goto(t.url);
        await page.getByRole('heading', { name: /Every legend begins/ }).waitFor();
        problems.push(...(await route(page, `${at} /`)));
        await page.goto(`${t.url}/auth`);
        await page.getByRole('button', { name: 'Log In', exact: true }).waitFor();
        problems.push(...(await route(page, `${at} /auth`)));
        await page.goto(`${t.url}/reset-password`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        problems.push(...(await route(page, `${at} /reset-password`)));
        const worlds = new WorldsPage(page);
        await worlds.goto(t.url);
        problems.push(...(await route(page, `${at} /worlds (signed out)`)));
        if (phone) {
          await menuButton.click();
          const menu = page.getByRole('dialog', { name: 'Menu' });
          problems.push(...(await checkModal(page, menu, `${at} phone menu (signed out)`, () => page.keyboard.press('Escape'), menuButton)));
        }
        const card = page
          .locator('.world-grid')
          .getByRole('button', { name: /Aethermoor/ })
          .first();
        await card.click();
        problems.push(...(await checkModal(page, worlds.popup, `${at} world popup (signed out)`, () => page.keyboard.press('Escape'), card)));

        // Signed in.
        const id = newIdentity(`guard${at}`);
        await new AuthPage(page).signUp(t.url, id);
        problems.push(...(await route(page, `${at} /worlds (signed in)`)));
        if (phone) {
          await menuButton.click();
          const menu = page.getByRole('dialog', { name: 'Menu' });
          problems.push(...(await checkModal(page, menu, `${at} phone menu (signed in)`, () => page.keyboard.press('Escape'), menuButton)));
          // Settings from the menu: the menu closes, and focus comes back to the menu button.
          await menuButton.click();
          await menu.getByRole('button', { name: 'Settings' }).click();
          problems.push(
            ...(await checkModal(page, page.getByRole('dialog', { name: 'Settings' }), `${at} settings`, () => page.keyboard.press('Escape'), menuButton)),
          );
        } else {
          const gear = nav.getByRole('button', { name: 'Settings' });
          await gear.click();
          problems.push(
            ...(await checkModal(page, page.getByRole('dialog', { name: 'Settings' }), `${at} settings`, () => page.keyboard.press('Escape'), gear)),
          );
        }
        await page
          .locator('.world-grid')
          .getByRole('button', { name: /Aethermoor/ })
          .first()
          .click();
        await worlds.popup.getByRole('button', { name: 'Spawn', exact: true }).click();
        await worlds.popup.getByLabel('Character name').fill('Wren');
        problems.push(...(await insideViewport(worlds.popup, `${at} world popup (spawn form)`)));
        problems.push(...(await audit(page, `${at} world popup (spawn form)`)));
        await worlds.popup.getByRole('button', { name: /Generate Character/ }).click();
        await page.getByRole('heading', { name: 'Your Character Profile' }).waitFor({ timeout: 30_000 });
        problems.push(...(await route(page, `${at} character result`)));
        await worlds.saveCharacter();
        problems.push(...(await route(page, `${at} /characters`)));
        const del = page.getByRole('button', { name: 'Delete' });
        await del.click();
        problems.push(...(await checkModal(page, page.getByRole('alertdialog'), `${at} delete confirm`, () => page.keyboard.press('Escape'), del)));

        // The story screen, two chapters in: confirmations, the tools, a toast.
        await page.getByRole('button', { name: 'Story' }).click();
        await page.getByRole('button', { name: 'Start your adventure!' }).click();
        await page.getByRole('group', { name: 'Suggested choices' }).waitFor({ timeout: 30_000 });
        await page.getByRole('group', { name: 'Suggested choices' }).getByRole('button').first().click();
        await page.getByRole('button', { name: 'Send' }).click();
        const undo = page.getByRole('button', { name: 'Undo' });
        await undo.waitFor({ timeout: 30_000 });
        problems.push(...(await route(page, `${at} /storychat`)));
        if (phone) {
          // Each tool opens in a bottom sheet from the bar under the action box, or from More: every
          // button of the bar on screen, and the bar never scrolls sideways.
          const story = new StoryPage(page);
          problems.push(...(await insideViewport(story.toolBar, `${at} tools bar`)));
          for (const button of await story.toolBar.getByRole('button').all()) {
            problems.push(...(await insideViewport(button, `${at} tools bar button ${await button.locator('.tool-label').textContent()}`)));
          }
          if (await story.toolBar.evaluate((el) => el.scrollWidth > el.clientWidth)) problems.push(`${at} tools bar: scrolls sideways`);
          const more = story.toolBar.getByRole('button', { name: 'More' });
          await more.click();
          problems.push(
            ...(await checkModal(page, page.getByRole('dialog', { name: 'More tools' }), `${at} More sheet`, () => page.keyboard.press('Escape'), more)),
          );
          for (const name of ['Mission', 'Inventory', 'Memory', 'Remembered', 'Cards', 'Branches', 'Publish']) {
            const { sheet, opener } = await story.openToolSheet(name);
            problems.push(...(await checkModal(page, sheet, `${at} ${name} sheet`, () => page.keyboard.press('Escape'), opener)));
          }
        } else {
          // The side panel: each tool on screen beside the story.
          for (const name of ['Mission', 'Inventory', 'Memory', 'Remembered', 'Cards', 'Branches', 'Publish']) {
            await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
            problems.push(...(await insideViewport(page.getByRole('tabpanel'), `${at} ${name} tool`)));
            problems.push(...(await audit(page, `${at} ${name} tool`)));
          }
        }
        await undo.click();
        problems.push(...(await checkModal(page, page.getByRole('alertdialog'), `${at} undo confirm`, () => page.keyboard.press('Escape'), undo)));
        const rewind = page.getByRole('button', { name: 'Rewind here: make chapter 1 the latest' });
        await rewind.click();
        const confirm = page.getByRole('alertdialog');
        problems.push(...(await insideViewport(confirm, `${at} rewind confirm`)));
        await confirm.getByRole('button', { name: 'Rewind' }).click();
        const toast = page.locator('.Toastify__toast').filter({ hasText: 'Back at chapter 1' }).first();
        await toast.waitFor();
        problems.push(...(await insideViewport(toast, `${at} toast`)));
        problems.push(...(await noHorizontalScroll(page, `${at} toast`)));

        for (const [path, ready] of [
          ['/worlds/new', 'World description'],
          ['/support', 'Message'],
        ] as const) {
          await page.goto(`${t.url}${path}`);
          await page.getByLabel(ready).waitFor();
          problems.push(...(await route(page, `${at} ${path}`)));
        }
        await page.goto(`${t.url}/subscription`);
        await page.getByText('Current plan', { exact: true }).waitFor();
        problems.push(...(await route(page, `${at} /subscription`)));
        await page.getByRole('button', { name: 'Choose Hero' }).click();
        await page.getByRole('heading', { name: 'Checkout' }).waitFor();
        problems.push(...(await route(page, `${at} checkout`)));
        await page.goto(`${t.url}/subscription/manage`);
        await page.getByRole('heading', { name: 'Past payments' }).waitFor();
        problems.push(...(await route(page, `${at} /subscription/manage`)));
        await page.goto(`${t.url}/profile`);
        await page.getByRole('button', { name: 'Log Out' }).waitFor();
        problems.push(...(await route(page, `${at} /profile`)));
        await page.getByRole('tab', { name: 'Character Profile' }).click();
        await page.getByRole('button', { name: /Fill In Profile|Edit Profile/ }).click();
        problems.push(...(await route(page, `${at} /profile character (edit)`)));
        await page.goto(`${t.url}/report/story/00000000-0000-4000-a000-0000000000ff`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        problems.push(...(await route(page, `${at} /report/story/:id`)));
      } catch (e) {
        await page.screenshot({ path: `${SHOTS}/layout-guard-failed-${at}.png` }).catch(() => undefined);
        throw new Error(`${String(e)}\nproblems so far:\n${problems.join('\n')}`, { cause: e });
      }
      expect(problems).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

/**
 * Party screens (issue 34) at both sizes: the story screen's "Play with friends" dialog, /party/:id as
 * its host (the host's controls and settings, the invite code dialog, every confirmation) and as a
 * member, and /party/join with a code's preview.
 */
describe('layout guard: party routes at 390×844 and 1280×800', () => {
  const characterOf = (email: string, name: string) => characterOfEmail(t, email, name);

  for (const size of SIZES) {
    const phone = size.width < 768;
    const at = `${size.width} party`;
    it(`at ${size.width}×${size.height}`, async () => {
      const problems: string[] = [];
      const host = await openPage(browser, size);
      const member = await openPage(browser, size);
      const pages = [host.page, member.page];
      try {
        const hostId = newIdentity(`phost${size.width}`);
        await new AuthPage(host.page).signUp(t.url, hostId);
        const hostCharacter = await characterOf(hostId.email, 'Kael');
        const memberId = newIdentity(`pmember${size.width}`);
        await new AuthPage(member.page).signUp(t.url, memberId);
        await characterOf(memberId.email, 'Tomas');

        /** A tool of the party screen: a tab's panel on a wide screen, a bottom sheet on a phone (checked as a modal). */
        const tool = async (page: Page, name: string, label: string): Promise<Locator> => {
          if (phone) {
            const { sheet, opener } = await new StoryPage(page).openToolSheet(name);
            problems.push(...(await checkModal(page, sheet, label, () => page.keyboard.press('Escape'), opener)));
            return (await new StoryPage(page).openToolSheet(name)).sheet;
          }
          await page
            .getByRole('tablist', { name: 'Story tools' })
            .getByRole('tab', { name: new RegExp(`^${name}`) })
            .click();
          const panel = page.getByRole('tabpanel');
          problems.push(...(await insideViewport(panel, label)), ...(await audit(page, label)));
          return panel;
        };
        /** A confirmation opened by `opener` (inside `within`), checked and dismissed with Escape. */
        const confirmation = async (page: Page, opener: Locator, label: string) => {
          await opener.click();
          problems.push(...(await checkModal(page, page.getByRole('alertdialog'), label, () => page.keyboard.press('Escape'), opener)));
        };

        // The story screen's "Play with friends" dialog.
        await host.page.goto(`${t.url}/storychat/${hostCharacter}`);
        const withFriends = host.page.getByRole('button', { name: 'Play with friends' });
        await withFriends.click();
        const createDialog = host.page.getByRole('dialog', { name: 'Play with friends' });
        problems.push(
          ...(await checkModal(host.page, createDialog, `${at} "Play with friends" dialog`, () => host.page.keyboard.press('Escape'), withFriends)),
        );
        await withFriends.click();
        await createDialog.getByLabel(/Live rounds/).check();
        await createDialog.getByRole('button', { name: 'Start Party' }).click();
        await host.page.waitForURL(/\/party\/[0-9a-f-]{36}$/);
        const partyUrl = host.page.url();
        await host.page.getByTestId('party-hint').filter({ hasText: 'Round 1:' }).waitFor();
        problems.push(...(await route(host.page, `${at} /party/:id (host)`)));

        // The host's controls and settings; the invite code dialog; ending's confirmation.
        let controls = await tool(host.page, 'Host', `${at} host controls`);
        const createInvite = controls.getByRole('button', { name: 'Create invite code' });
        await createInvite.click();
        const inviteDialog = host.page.getByRole('dialog', { name: 'Invite code' });
        await inviteDialog.waitFor();
        const code = (await inviteDialog.getByTestId('invite-code').textContent())!.trim();
        problems.push(...(await checkModal(host.page, inviteDialog, `${at} invite code dialog`, () => host.page.keyboard.press('Escape'), createInvite)));
        const settings = controls.getByRole('form', { name: 'Party settings' });
        await settings.getByRole('checkbox', { name: 'I pay for every chapter' }).check();
        problems.push(...(await insideViewport(settings, `${at} party settings`)), ...(await audit(host.page, `${at} party settings (changed)`)));
        await confirmation(host.page, controls.getByRole('button', { name: 'End party' }), `${at} end party confirm`);

        // The join screen with the code's preview, then the party as a member.
        await member.page.goto(`${t.url}/party/join?code=${code}`);
        await member.page.getByRole('radio', { name: 'Tomas', exact: true }).waitFor();
        problems.push(...(await route(member.page, `${at} /party/join (preview)`)));
        await member.page.getByRole('radio', { name: 'Tomas', exact: true }).check();
        await member.page.getByRole('button', { name: 'Join party' }).click();
        await member.page.waitForURL(partyUrl);
        await member.page.getByTestId('party-hint').filter({ hasText: 'Round 1:' }).waitFor();
        problems.push(...(await route(member.page, `${at} /party/:id (member)`)));
        await tool(member.page, 'Players', `${at} players (member)`);
        if (phone) await member.page.keyboard.press('Escape');
        await confirmation(member.page, member.page.getByRole('button', { name: 'Leave party' }), `${at} leave party confirm`);

        // The host's confirmations for a member: hand over, kick, ban.
        if (phone) await host.page.keyboard.press('Escape');
        controls = await tool(host.page, 'Players', `${at} players (host)`);
        await controls.getByText('Tomas', { exact: true }).waitFor();
        for (const [name, label] of [
          ['Make host', 'make host confirm'],
          ['Kick', 'kick confirm'],
          ['Ban', 'ban confirm'],
        ] as const) {
          await confirmation(host.page, controls.getByRole('button', { name, exact: true }), `${at} ${label}`);
        }
      } catch (e) {
        for (const [i, page] of pages.entries())
          await page.screenshot({ path: `${SHOTS}/layout-guard-party-failed-${size.width}-${i}.png` }).catch(() => undefined);
        throw new Error(`${String(e)}\nproblems so far:\n${problems.join('\n')}`, { cause: e });
      }
      expect(problems).toEqual([]);
      expect([...host.errors, ...member.errors]).toEqual([]);
      await host.context.close();
      await member.context.close();
    });
  }
});

import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/** Screenshots of every journey land here (git-ignored). */
const SHOTS_DIR = path.resolve(__dirname, '..', '..', '.artifacts', 'e2e-screenshots');

export interface Identity {
  email: string;
  username: string;
  password: string;
}

/** A fresh browser context and page, collecting uncaught page errors. */
export async function openPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

/** Saves a full-page screenshot named after the journey step. */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/** Saves a screenshot of one part of the page (a long page's section, seen at its real size). */
export async function shotOf(part: Locator, name: string): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await part.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

/** The shared chrome: navigation, drawer, toasts. */
export class AppChrome {
  constructor(readonly page: Page) {}

  get nav() {
    return this.page.getByRole('navigation', { name: 'Main' });
  }

  credits() {
    return this.page.getByTestId('nav-credits').first();
  }

  toast(text: string | RegExp) {
    return this.page.locator('.Toastify__toast').filter({ hasText: text }).first();
  }

  async openSettings() {
    await this.nav.getByRole('button', { name: 'Settings' }).click();
    return this.page.getByRole('dialog', { name: 'Settings' });
  }

  async setImmersive(on: boolean) {
    const dialog = await this.openSettings();
    const box = dialog.getByRole('checkbox', { name: 'Immersive UI (experimental)' });
    await box.setChecked(on);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
}

/** /auth */
export class AuthPage {
  constructor(readonly page: Page) {}

  async signUp(base: string, id: Identity) {
    await this.page.goto(`${base}/auth`);
    await this.page.getByRole('button', { name: 'Create an account' }).click();
    await this.page.getByLabel('Email').fill(id.email);
    await this.page.getByLabel('Username').fill(id.username);
    await this.page.getByLabel('Password').fill(id.password);
    await this.page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await this.page.waitForURL('**/worlds');
    // Attached, not visible: on a phone the nav items live in the drawer.
    await this.page
      .getByRole('navigation', { name: 'Main' })
      .locator(`[data-testid="nav-profile"][aria-label="Profile (${id.username})"]`)
      .first()
      .waitFor({ state: 'attached' });
  }
}

import type { Page } from 'playwright-core';

/** /worlds: My Worlds carousel, Featured grid, world popup, character result. */
export class WorldsPage {
  constructor(readonly page: Page) {}

  async goto(base: string, worldId?: string) {
    await this.page.goto(`${base}/worlds${worldId ? `?world=${worldId}` : ''}`);
    await this.page.getByRole('heading', { name: 'Featured Worlds' }).waitFor();
    // Settled: every list has loaded. Until then My Worlds can change height (loader → carousel or
    // empty line) and move the Featured cards between locating one and the click landing on it.
    await this.page.waitForFunction(() => !document.querySelector('main .page-loader'));
  }

  get popup() {
    return this.page.getByRole('dialog');
  }

  get carousel() {
    return this.page.getByRole('region', { name: 'My Worlds carousel' });
  }

  async openFeatured(name: string) {
    await this.page
      .locator('.world-grid')
      .getByRole('button', { name: new RegExp(name) })
      .first()
      .click();
    await this.page.getByRole('dialog', { name }).waitFor();
  }

  async openMine(name: string) {
    await this.carousel
      .getByRole('button', { name: new RegExp(name) })
      .first()
      .click();
    await this.page.getByRole('dialog', { name }).waitFor();
  }

  /** Spawn → username and answers → Generate Character (3 gems) → the result screen. */
  async spawn(username: string, answers: string[] = []) {
    await this.popup.getByRole('button', { name: 'Spawn', exact: true }).click();
    await this.popup.getByLabel('Character name').fill(username);
    const boxes = this.popup.locator('textarea');
    for (let i = 0; i < answers.length; i++) await boxes.nth(i + 1).fill(answers[i]);
    await this.popup.getByRole('button', { name: 'Generate Character (3 gems)' }).click();
    await this.page.getByRole('heading', { name: 'Your Character Profile' }).waitFor({ timeout: 20_000 });
  }

  async saveCharacter() {
    await this.page.getByRole('button', { name: 'Save Character' }).click();
    await this.page.waitForURL('**/characters');
  }
}

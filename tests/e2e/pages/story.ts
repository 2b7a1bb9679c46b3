import type { Locator, Page } from 'playwright-core';

/** /storychat/:id */
export class StoryPage {
  constructor(readonly page: Page) {}

  get chapters() {
    return this.page.getByTestId('chapter');
  }
  get live() {
    return this.page.getByTestId('live-chapter');
  }
  get actionBox() {
    return this.page.getByPlaceholder('Or type your own action...');
  }
  get send() {
    return this.page.getByRole('button', { name: 'Send' });
  }
  get missionPanel() {
    return this.page.getByTestId('mission-panel');
  }
  choices() {
    return this.page.getByRole('group', { name: 'Suggested choices' }).getByRole('button');
  }

  /** Waits until no chapter is being written and the given number of chapters is shown. */
  async waitForChapters(n: number, timeout = 30_000) {
    await this.live.waitFor({ state: 'detached', timeout });
    await this.page.waitForFunction((count) => document.querySelectorAll('[data-testid="chapter"]').length === count, n, { timeout });
  }

  async editMission(text: string) {
    await this.missionPanel.getByRole('button', { name: 'Edit mission' }).click();
    await this.missionPanel.getByLabel('Mission objective').fill(text);
    await this.missionPanel.getByRole('button', { name: 'Save' }).click();
    await this.missionPanel.getByText(text).waitFor();
  }

  /** The tools' bar of a phone (StoryTools). */
  get toolBar() {
    return this.page.getByRole('navigation', { name: 'Story tools' });
  }

  /**
   * On a phone, opens a tool's bottom sheet: from the bar, or under More for a tool not on it.
   * Returns the sheet and the button focus goes back to when it closes.
   */
  async openToolSheet(label: string): Promise<{ sheet: Locator; opener: Locator }> {
    const onBar = this.toolBar.getByRole('button', { name: new RegExp(`^${label}`) });
    let opener = onBar;
    if (await onBar.count()) await onBar.click();
    else {
      opener = this.toolBar.getByRole('button', { name: 'More' });
      await opener.click();
      await this.page
        .getByRole('dialog', { name: 'More tools' })
        .getByRole('button', { name: new RegExp(`^${label}`) })
        .click();
    }
    const sheet = this.page.getByRole('dialog', { name: label });
    await sheet.waitFor();
    return { sheet, opener };
  }
}

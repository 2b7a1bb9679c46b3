import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (npm test installs it when missing); Playwright cannot download browsers here. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** A fresh headless browser (Playwright gives it a throw-away profile). */
export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: run the tests through \`npm test\` (it installs it) or set CHROMIUM_PATH.`);
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}

import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (npm test installs it when missing); Playwright cannot download browsers here. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function requireChromium(): void {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: run the tests through \`npm test\` (it installs it) or set CHROMIUM_PATH.`);
  }
}

/**
 * The e2e run's shared headless browser (tests/e2e/global-setup.ts launches one per run); `close`
 * only disconnects this file, closing the contexts it made. Launched here when no run browser exists.
 */
export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const ws = process.env.TALEFORGE_TEST_BROWSER_WS;
  if (ws) {
    const browser = await chromium.connect(ws);
    return { browser, close: () => browser.close() };
  }
  requireChromium();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: BROWSER_ARGS });
  return { browser, close: () => browser.close() };
}

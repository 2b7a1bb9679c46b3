import { chromium } from 'playwright-core';
import apiGlobalSetup from '../api/global-setup';
import { BROWSER_ARGS, CHROMIUM, requireChromium } from '../support/browser';

/**
 * The api project's database template, plus one Chromium for the whole e2e run: each test file
 * connects to it and works in contexts of its own (fresh cookies and storage), instead of launching
 * a browser per file (~1–3 s each on a busy machine).
 */
export default async function globalSetup(): Promise<void> {
  await apiGlobalSetup();
  if (process.env.TALEFORGE_TEST_BROWSER_WS) return;
  requireChromium();
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: BROWSER_ARGS });
  (globalThis as { taleforgeBrowser?: typeof server }).taleforgeBrowser = server;
  process.env.TALEFORGE_TEST_BROWSER_WS = server.wsEndpoint();
}

import type { BrowserServer } from 'playwright-core';
import apiGlobalTeardown from '../api/global-teardown';

/** Closes the run's browser (see global-setup.ts), then the database template. */
export default async function globalTeardown(): Promise<void> {
  const g = globalThis as { taleforgeBrowser?: BrowserServer };
  await g.taleforgeBrowser?.close();
  delete g.taleforgeBrowser;
  delete process.env.TALEFORGE_TEST_BROWSER_WS;
  await apiGlobalTeardown();
}

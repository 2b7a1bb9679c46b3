/**
 * Checkout from another loopback name (issue 33): with PUBLIC_URL at http://localhost:<port> — what
 * `npm start` uses — a player who opened http://127.0.0.1:<port> buys a tier through the local
 * checkout and comes back to 127.0.0.1, still signed in, with the purchase shown. Before the fix the
 * checkout sent the browser to localhost, where neither the session nor the checkout lived.
 */
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { newIdentity, type TestApp } from '../support/test-app';
import { AppChrome, AuthPage, openPage, shot } from './pages/app';
import { startAppWithPublicUrl } from './pages/server';

let t: TestApp;
let browser: Browser;
let closeBrowser: () => Promise<void>;

jest.setTimeout(240_000);

beforeAll(async () => {
  t = await startAppWithPublicUrl({}, { publicHost: 'localhost' });
  ({ browser, close: closeBrowser } = await launchBrowser());
});
afterAll(async () => {
  await closeBrowser?.();
  await t?.close();
});

it('a checkout opened from http://127.0.0.1:<port> completes and returns there, while PUBLIC_URL says localhost', async () => {
  expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const origin = new URL(t.url).origin;
  const { context, page, errors } = await openPage(browser);
  await new AuthPage(page).signUp(t.url, newIdentity('alias-buyer'));
  const chrome = new AppChrome(page);
  await chrome.credits().filter({ hasText: /^10$/ }).waitFor();

  await page.goto(`${t.url}/subscription`);
  await page.getByRole('button', { name: 'Choose Hero' }).click();
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await page.waitForURL(/\/checkout\/local\//);
  // The checkout page is served at the origin the player is on, not at PUBLIC_URL's localhost.
  expect(new URL(page.url()).origin).toBe(origin);
  await page
    .getByRole('button', { name: /pay|confirm/i })
    .first()
    .click();
  await page.waitForURL(/\/subscription/);
  expect(new URL(page.url()).origin).toBe(origin);
  await chrome.toast('Subscription updated successfully!').waitFor();
  await page.locator('.tier-card.is-current').getByRole('heading', { name: 'Hero' }).waitFor();
  // Still signed in here (the session lives at 127.0.0.1), and the purchase's credits arrived.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="nav-credits"]')?.textContent) > 10, null, { timeout: 15_000 });
  await shot(page, 'checkout-from-127-0-0-1');
  expect(errors).toEqual([]);
  await context.close();
});

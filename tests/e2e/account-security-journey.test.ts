import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { totpCode } from '../../server/src/modules/auth/totp';
import { launchBrowser } from '../support/browser';
import { newIdentity, startTestApp, type TestApp } from '../support/test-app';
import { openPage, shot, shotOf } from './pages/app';

/**
 * Issue 21 in Debian's chromium: turn on two-step verification and sign in with the app's code (on a
 * phone), download the data archive, manage the subscription, and delete the account.
 */
let t: TestApp;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  t = await startTestApp();
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await t?.close();
});

it('two-step verification: set up on the Account tab; the next sign-in asks for the code; export; Manage Subscription; delete the account', async () => {
  const id = newIdentity('journey');
  await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password: id.password, data: { username: id.username } });
  const { context, page, errors } = await openPage(browser);
  const logIn = async () => {
    await page.getByLabel('Email').fill(id.email);
    await page.getByLabel('Password').fill(id.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
  };
  await page.goto(`${t.url}/auth`);
  await logIn();
  await page.waitForURL('**/worlds');
  await page.goto(`${t.url}/profile`);

  // Set up: scan (here: read the key), confirm a code.
  const twoStep = page.getByRole('region', { name: 'Two-step verification' });
  await twoStep.getByRole('button', { name: 'Set Up Authenticator App' }).click();
  await twoStep.getByAltText('QR code for your authenticator app').waitFor();
  await shotOf(twoStep, '21c-set-up-authenticator');
  const secret = (await twoStep.locator('.totp-secret').innerText()).replace(/\s/g, '');
  await twoStep.getByLabel('Code from the app').fill(totpCode(secret));
  await twoStep.getByRole('button', { name: 'Turn On' }).click();
  await twoStep.getByText('Signing in asks for a code from your authenticator app').waitFor();
  // Still signed in on this device (its session moved to aal2 with new tokens): a reload keeps it.
  await page.reload();
  await twoStep.getByRole('button', { name: 'Turn Off Two-Step Verification' }).waitFor();

  // The data archive.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download My Data' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^taleforge-export-\d{4}-\d{2}-\d{2}\.zip$/);
  // The run's browser is shared over a connection: the download is saved here, not read in place.
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-export-')), download.suggestedFilename());
  await download.saveAs(file);
  expect(fs.readFileSync(file).subarray(0, 2).toString()).toBe('PK');

  // Sign out; on a phone, the password alone is not enough.
  await page.getByRole('button', { name: 'Log Out' }).click();
  await page.waitForURL('**/auth');
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn();
  await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
  await page.getByLabel('Code', { exact: true }).fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('alert').filter({ hasText: 'That code is not correct.' }).waitFor();
  await shot(page, '21d-sign-in-code-phone');
  // The next step's code: the one used at set-up may not be replayed within its 30 seconds.
  await page.getByLabel('Code', { exact: true }).fill(totpCode(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  // Back where the player signed out: the Account tab.
  await page.waitForURL('**/profile');
  await page.getByRole('heading', { name: 'Username and email' }).waitFor();
  await shot(page, '21g-account-tab-phone');

  // Manage Subscription from the Account tab.
  await page.getByRole('link', { name: 'Manage Subscription' }).click();
  await page.waitForURL('**/subscription/manage');
  await page.getByRole('heading', { name: 'Past payments' }).waitFor();
  await page.getByText('You are on the Free tier: nothing is charged.').waitFor();
  await shot(page, '21e-manage-subscription-phone');

  // Delete the account.
  await page.goto(`${t.url}/profile`);
  await page.getByRole('button', { name: 'Delete Account…' }).click();
  const form = page.getByRole('form', { name: 'Delete account' });
  await form.getByLabel('Password').fill(id.password);
  await shotOf(form, '21f-delete-account-phone');
  await form.getByRole('button', { name: 'Delete My Account Forever' }).click();
  await page.waitForURL(`${t.url}/`);
  await page.locator('.Toastify__toast').filter({ hasText: 'Your account was deleted.' }).first().waitFor();
  expect((await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password: id.password })).status).toBe(400);
  expect(errors).toEqual([]);
  await context.close();
});

import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { newIdentity, startTestApp, type TestApp } from '../support/test-app';

/** The built client served by the real app, in Debian's chromium: sign up → /worlds → reload → sign out. */
let t: TestApp;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  ({ browser, close: closeBrowser } = await launchBrowser());
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
});

afterAll(async () => {
  await closeBrowser?.();
  await t?.close();
});

describe('identity in the browser', () => {
  it('signs up, lands on /worlds, stays signed in across a reload, and signs out', async () => {
    const id = newIdentity('e2e');
    await page.goto(`${t.url}/auth`);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill(id.email);
    await page.getByLabel('Username').fill(id.username);
    await page.getByLabel('Password').fill(id.password);
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await page.getByText('Success! You are now signed up.').waitFor();
    await page.waitForURL('**/worlds');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: `Profile (${id.username})` }).waitFor();
    // Featured worlds come from the API.
    await page.getByText('Aethermoor').first().waitFor();

    await page.reload();
    await nav.getByRole('link', { name: `Profile (${id.username})` }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/worlds');

    await nav.getByRole('link', { name: `Profile (${id.username})` }).click();
    await page.waitForURL('**/profile');
    await page.getByText(id.email).first().waitFor();
    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL('**/auth');
    await page.getByRole('button', { name: 'Log In', exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('taleforge.session'))).toBeNull();

    // The server really revoked the session.
    const [session] = await t.app.db.dataSource.query(`SELECT s.revoked_reason FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`, [
      id.email,
    ]);
    expect(session.revoked_reason).toBe('sign_out');
    expect(consoleErrors).toEqual([]);
  });

  it('a protected route sends an anonymous visitor to /auth and back there after signing in', async () => {
    const id = newIdentity('e2e');
    await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password: id.password, data: { username: id.username } });
    await page.goto(`${t.url}/characters`);
    await page.waitForURL('**/auth');
    await page.getByLabel('Email').fill(id.email);
    await page.getByLabel('Password').fill(id.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.waitForURL('**/characters');
  });

  it('a wrong password shows the SPEC message', async () => {
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${t.url}/auth`);
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
  });

  it('changes the password on the Account tab, which signs out another device; the new password signs in', async () => {
    await page.evaluate(() => localStorage.clear());
    const id = newIdentity('e2e');
    await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password: id.password, data: { username: id.username } });
    const elsewhere = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password: id.password });
    await page.goto(`${t.url}/auth`);
    await page.getByLabel('Email').fill(id.email);
    await page.getByLabel('Password').fill(id.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.waitForURL('**/worlds');
    await page.goto(`${t.url}/profile`);
    await page.getByLabel('Current password', { exact: true }).fill(id.password);
    await page.getByLabel('New password', { exact: true }).fill(`${id.password} renewed`);
    await page.getByLabel('Repeat the new password').fill(`${id.password} renewed`);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Your password was changed. Your other devices were signed out.').waitFor();
    expect((await t.rest('GET', '/api/auth/v1/user', undefined, elsewhere.body.access_token)).status).toBe(401);
    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL('**/auth');
    await page.getByLabel('Email').fill(id.email);
    await page.getByLabel('Password').fill(id.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
    await page.getByLabel('Password').fill(`${id.password} renewed`);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    // Signed in again, back where the player was (the Account tab).
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { name: 'Password and sessions' }).waitFor();
  });

  it('serves the GraphiQL playground from our own bundle (no CDN)', async () => {
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(t.url) && !r.url().startsWith('data:') && !r.url().startsWith('ws:')) external.push(r.url());
    });
    await page.goto(`${t.url}/graphiql`);
    await page.locator('.graphiql-container').waitFor();
    expect(external).toEqual([]);
  });
});

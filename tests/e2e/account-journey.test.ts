import type { Browser } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { startSmtp } from '../support/smtp';
import { newIdentity, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';
import { openPage, shot } from './pages/app';
import { startAppWithPublicUrl } from './pages/server';

/** Reset by mail in Debian's chromium: the mail read from a real SMTP server, the link followed in the browser. */
let t: TestApp;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await startAppWithPublicUrl({
    mail: { smtpUrl: smtp.url, from: 'Taleforge <no-reply@taleforge.test>', outboxDir: '/tmp/taleforge-e2e-outbox', requireEmailConfirmation: false },
  });
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await t?.close();
  await smtp?.close();
});

it('forgot password → the mailed link → a new password; the old password and every other session stop working', async () => {
  const id = newIdentity('forgot');
  await t.rest('POST', '/api/auth/v1/signup', { email: id.email, password: id.password, data: { username: id.username } });
  const elsewhere = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password: id.password });

  const { context, page, errors } = await openPage(browser, { width: 390, height: 844 });
  await page.goto(`${t.url}/auth`);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByLabel('Email').fill(id.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await page.getByRole('status').filter({ hasText: 'a link to choose a new password is on its way' }).waitFor();
  await shot(page, '21a-forgot-password-phone');

  const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes(id.email)), 'the reset mail', 5000);
  const link = /https?:\/\/\S+\/api\/auth\/v1\/verify\?token=[^\s"<>]+/.exec(mail.text)![0];
  await page.goto(link);
  await page.waitForURL('**/reset-password');
  expect(new URL(page.url()).hash).toBe(''); // the tokens left the address at once
  await page.getByLabel('New password', { exact: true }).fill(`${id.password} reborn`);
  await page.getByLabel('Repeat the new password').fill(`${id.password} reborn`);
  await shot(page, '21b-choose-new-password-phone');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await page.waitForURL('**/worlds');
  await page.getByText('Your new password is set.').waitFor();
  expect((await t.rest('GET', '/api/auth/v1/user', undefined, elsewhere.body.access_token)).status).toBe(401);
  expect((await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password: id.password })).status).toBe(400);
  expect((await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: id.email, password: `${id.password} reborn` })).status).toBe(200);

  // The same link again: used up, said plainly.
  await page.goto(link);
  await page.getByRole('alert').filter({ hasText: 'This reset link is invalid or has expired.' }).waitFor();
  expect(errors).toEqual([]);
  await context.close();
});

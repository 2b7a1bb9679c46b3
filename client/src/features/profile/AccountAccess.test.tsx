import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { readSession } from '../../apollo/session-store';
import { MESSAGES } from '../../lib/messages';
import { gqlError, sessionPayload } from '../../test/fake-graphql-server';
import { FREE_STATUS, renderApp } from '../../test/render-app';
import { checkoutRedirect } from '../subscription/SubscriptionPage';

const ENROLLMENT = {
  factorId: 'f-1',
  qrCodeSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
  uri: 'otpauth://totp/x',
};
const VERIFIED = { id: 'f-1', friendlyName: 'Authenticator app', status: 'verified', createdAt: '2026-11-20T10:00:00.000Z' };

describe('Account tab: two-step verification, your data (issue 21)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('sets up an authenticator app: QR code and key, a wrong code said plainly, the right one turns it on and keeps the new session', async () => {
    const success = jest.spyOn(toast, 'success');
    let factors: unknown[] = [];
    const { calls } = await renderApp(
      '/profile',
      {
        TwoStepVerification_factors: () => ({ data: { mfaFactors: factors } }),
        TwoStepVerification_enroll: () => ({ data: { enrollTotp: ENROLLMENT } }),
        TwoStepVerification_confirm: (call) => {
          if (call.variables.code !== '123456') return gqlError('INVALID_CREDENTIALS', 'That code is not correct. Check your authenticator app and try again.');
          factors = [VERIFIED];
          return { data: { confirmTotp: sessionPayload(9) } };
        },
      },
      { signedIn: true },
    );
    const section = (await screen.findByRole('heading', { name: 'Two-step verification' })).closest('section')!;
    fireEvent.click(await within(section).findByRole('button', { name: 'Set Up Authenticator App' }));
    const qr = (await within(section).findByAltText('QR code for your authenticator app')) as HTMLImageElement;
    expect(qr.src.startsWith('data:image/svg+xml;utf8,')).toBe(true);
    expect(within(section).getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP')).toBeTruthy();
    fireEvent.change(within(section).getByLabelText('Code from the app'), { target: { value: '000000' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Turn On' }));
    expect((await within(section).findByRole('alert')).textContent).toBe('That code is not correct. Check your authenticator app and try again.');
    fireEvent.change(within(section).getByLabelText('Code from the app'), { target: { value: '123 456' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Turn On' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith(MESSAGES.twoStepOn));
    expect(readSession()?.accessToken).toBe('access-9');
    expect(await within(section).findByRole('button', { name: 'Turn Off Two-Step Verification' })).toBeTruthy();
    expect(calls.filter((c) => c.operationName === 'TwoStepVerification_confirm').at(-1)?.variables).toEqual({ factorId: 'f-1', code: '123456' });
  });

  it('asks for the password again when the session proved it too long ago; a wrong one is said plainly, the right one goes on', async () => {
    const { calls } = await renderApp(
      '/profile',
      {
        TwoStepVerification_factors: () => ({ data: { mfaFactors: [] } }),
        TwoStepVerification_enroll: (call) => {
          const p = call.variables.currentPassword;
          if (p === null || p === undefined)
            return gqlError('FORBIDDEN', 'Enter your password again to add an authenticator.', { reason: 'reauthentication_needed' });
          return p === 'right password' ? { data: { enrollTotp: ENROLLMENT } } : gqlError('INVALID_CREDENTIALS', 'Your current password is not correct.');
        },
      },
      { signedIn: true },
    );
    const section = (await screen.findByRole('heading', { name: 'Two-step verification' })).closest('section')!;
    fireEvent.click(await within(section).findByRole('button', { name: 'Set Up Authenticator App' }));
    const form = await within(section).findByRole('form', { name: 'Confirm your password' });
    fireEvent.change(within(form).getByLabelText('Your password'), { target: { value: 'wrong password' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Continue' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Your current password is not correct.');
    fireEvent.change(within(form).getByLabelText('Your password'), { target: { value: 'right password' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Continue' }));
    expect(await within(section).findByAltText('QR code for your authenticator app')).toBeTruthy();
    expect(calls.filter((c) => c.operationName === 'TwoStepVerification_enroll').map((c) => c.variables.currentPassword)).toEqual([
      null,
      'wrong password',
      'right password',
    ]);
  });

  it('turns two-step verification off after a confirmation', async () => {
    let factors: unknown[] = [VERIFIED];
    jest.spyOn(window, 'confirm').mockReturnValue(true);
    await renderApp(
      '/profile',
      {
        TwoStepVerification_factors: () => ({ data: { mfaFactors: factors } }),
        TwoStepVerification_remove: () => {
          factors = [];
          return { data: { removeMfaFactor: true } };
        },
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Turn Off Two-Step Verification' }));
    expect(await screen.findByRole('button', { name: 'Set Up Authenticator App' })).toBeTruthy();
  });

  it('deletes the account only with the password; a wrong one is said plainly; then signed out and home', async () => {
    const success = jest.spyOn(toast, 'success');
    const { router } = await renderApp(
      '/profile',
      {
        AccountData_delete: (call) =>
          call.variables.password === 'right password'
            ? { data: { deleteAccount: true } }
            : gqlError('INVALID_CREDENTIALS', 'Your current password is not correct.'),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Account…' }));
    const form = screen.getByRole('form', { name: 'Delete account' });
    expect(within(form).getByRole('note').textContent).toContain('This cannot be undone.');
    fireEvent.click(within(form).getByRole('button', { name: 'Delete My Account Forever' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(MESSAGES.deletePasswordRequired);
    fireEvent.change(within(form).getByLabelText('Password'), { target: { value: 'wrong password' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Delete My Account Forever' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('Your current password is not correct.'));
    expect(readSession()).not.toBeNull();
    fireEvent.change(within(form).getByLabelText('Password'), { target: { value: 'right password' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Delete My Account Forever' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith(MESSAGES.accountDeleted));
    expect(readSession()).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('downloads the data archive with the session token', async () => {
    const archive = new Blob(['PK'], { type: 'application/zip' });
    const fetchMock = jest.fn().mockResolvedValue({
      ok: true,
      status: 200,
      headers: new Headers({ 'content-disposition': 'attachment; filename="taleforge-export-2026-11-26.zip"' }),
      blob: async () => archive,
    } as Response);
    Object.assign(globalThis, { fetch: fetchMock });
    const created = jest.fn(() => 'blob:archive');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderApp('/profile', {}, { signedIn: true });
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Download My Data' })));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(fetchMock).toHaveBeenCalledWith('/api/account/export', { headers: { authorization: 'Bearer access-1' } });
    expect(created).toHaveBeenCalledWith(archive);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('taleforge-export-2026-11-26.zip');
  });

  it('on a page left open past the access token lifetime, the session is refreshed before the archive is fetched', async () => {
    const fetchMock = jest.fn().mockResolvedValue({
      ok: true,
      status: 200,
      headers: new Headers({ 'content-disposition': 'attachment; filename="taleforge-export-2026-11-26.zip"' }),
      blob: async () => new Blob(['PK']),
    } as Response);
    Object.assign(globalThis, { fetch: fetchMock });
    Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:archive'), revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { calls } = await renderApp(
      '/profile',
      {
        TokenRefresh_refreshSession: () => ({ data: { refreshSession: sessionPayload(2) } }),
        AccountData_session: () => ({ data: { me: { id: 'user-1' } } }),
      },
      { signedIn: true, expiresIn: 60 },
    );
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Download My Data' })));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(calls.some((c) => c.operationName === 'TokenRefresh_refreshSession')).toBe(true);
    expect(fetchMock).toHaveBeenCalledWith('/api/account/export', { headers: { authorization: 'Bearer access-2' } });
  });
});

describe('/subscription/manage (issue 21)', () => {
  afterEach(() => jest.restoreAllMocks());
  const PAID = { ...FREE_STATUS, tier: { id: 'hero', name: 'Hero', price: 19.99 }, currentPeriodEnd: '2026-12-26T00:00:00.000Z', provider: 'local' };

  it('cancels at period end after a confirmation, then resumes; lists past payments', async () => {
    let status = { ...PAID, cancelAtPeriodEnd: false };
    const { calls } = await renderApp(
      '/subscription/manage',
      {
        ManageSubscriptionPage_status: () => ({
          data: {
            subscriptionStatus: status,
            pastPayments: [{ paidAt: '2026-11-26T00:00:00.000Z', tierName: 'Hero', amountCents: 1999, credits: 400, reference: 'in_local_1' }],
          },
        }),
        ManageSubscriptionPage_subscribe: (call) => {
          status = { ...status, cancelAtPeriodEnd: call.variables.tierId === 'free' };
          return { data: { subscribe: status } };
        },
      },
      { signedIn: true },
    );
    const payments = await screen.findByRole('table');
    expect(within(payments).getByText('$19.99')).toBeTruthy();
    expect(within(payments).getByText('+400')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Subscription' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel at Period End' }));
    expect(await screen.findByRole('button', { name: 'Resume Subscription' })).toBeTruthy();
    expect(screen.getByText(/Ends on/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resume Subscription' }));
    expect(await screen.findByRole('button', { name: 'Cancel Subscription' })).toBeTruthy();
    expect(calls.filter((c) => c.operationName === 'ManageSubscriptionPage_subscribe').map((c) => c.variables.tierId)).toEqual(['free', 'hero']);
  });

  it("a Stripe subscription is managed in Stripe's portal", async () => {
    const assign = jest.spyOn(checkoutRedirect, 'go').mockImplementation(() => {});
    await renderApp(
      '/subscription/manage',
      {
        ManageSubscriptionPage_status: () => ({ data: { subscriptionStatus: { ...PAID, provider: 'stripe' }, pastPayments: [] } }),
        ManageSubscriptionPage_portal: () => ({ data: { manageSubscription: { url: 'https://billing.stripe.test/p/session/x' } } }),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Open Billing Portal' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/session/x'));
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
  });
});

describe('Account tab: username and email (issue 21)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('saves a new username (the session shows it at once) and asks for a new email with the current password', async () => {
    const { calls } = await renderApp(
      '/profile',
      {
        AccountIdentity_update: (call) => {
          const input = call.variables.input as { username?: string; email?: string; currentPassword?: string };
          if (input.email && input.currentPassword !== 'right password') return gqlError('INVALID_CREDENTIALS', 'Your current password is not correct.');
          return { data: { updateAccount: { id: 'user-1', email: 'aria@example.com', username: input.username ?? 'aria' } } };
        },
      },
      { signedIn: true },
    );
    const names = await screen.findByRole('form', { name: 'Username' });
    await waitFor(() => expect((within(names).getByLabelText('Username') as HTMLInputElement).value).toBe('aria'));
    fireEvent.change(within(names).getByLabelText('Username'), { target: { value: 'Aria Vale' } });
    fireEvent.click(within(names).getByRole('button', { name: 'Save Username' }));
    await waitFor(() => expect(readSession()?.user.username).toBe('Aria Vale'));

    const emails = screen.getByRole('form', { name: 'Email' });
    fireEvent.click(within(emails).getByRole('button', { name: 'Change Email' }));
    expect((await within(emails).findByRole('alert')).textContent).toBe(MESSAGES.emailFieldsRequired);
    fireEvent.change(within(emails).getByLabelText('New email'), { target: { value: 'aria.new@example.com' } });
    fireEvent.change(within(emails).getByLabelText('Current password for the email change'), { target: { value: 'wrong' } });
    fireEvent.click(within(emails).getByRole('button', { name: 'Change Email' }));
    await waitFor(() => expect(within(emails).getByRole('alert').textContent).toBe('Your current password is not correct.'));
    fireEvent.change(within(emails).getByLabelText('Current password for the email change'), { target: { value: 'right password' } });
    fireEvent.click(within(emails).getByRole('button', { name: 'Change Email' }));
    expect((await within(emails).findByRole('status')).textContent).toBe(MESSAGES.emailChangeRequested);
    expect(calls.filter((c) => c.operationName === 'AccountIdentity_update').map((c) => c.variables.input)).toEqual([
      { username: 'Aria Vale' },
      { email: 'aria.new@example.com', currentPassword: 'wrong' },
      { email: 'aria.new@example.com', currentPassword: 'right password' },
    ]);
  });
});

import { fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { readSession } from '../../apollo/session-store';
import { gqlError, sessionPayload } from '../../test/fake-graphql-server';
import { renderApp } from '../../test/render-app';
import { AUTH_MESSAGES } from './AuthPage';
import { RESET_MESSAGES } from './ResetPasswordPage';

const b64url = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const accessToken = `${b64url({ alg: 'HS256' })}.${b64url({ sub: 'u-1', sid: 's-9', email: 'aria@example.com', username: 'aria' })}.sig`;

describe('password reset (issue 21, in part)', () => {
  afterEach(() => {
    jest.restoreAllMocks();
    window.history.replaceState(null, '', '/');
  });

  it('"Forgot password?" asks for the email and says the same thing whatever the answer', async () => {
    const { calls } = await renderApp('/auth', { AuthPage_requestPasswordReset: () => ({ data: { requestPasswordReset: true } }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' aria@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect((await screen.findByRole('status')).textContent).toBe(AUTH_MESSAGES.resetSent);
    expect(calls.find((c) => c.operationName === 'AuthPage_requestPasswordReset')?.variables).toEqual({ email: 'aria@example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Back to log in' }));
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeTruthy();
  });

  it('a followed link signs in from the fragment (then clears it), and the new password is set without the old one', async () => {
    window.history.replaceState(
      null,
      '',
      `/reset-password#access_token=${accessToken}&refresh_token=r-1&expires_at=9999999999&expires_in=3600&token_type=bearer&type=recovery`,
    );
    const success = jest.spyOn(toast, 'success');
    const { calls, router } = await renderApp('/reset-password', {
      ResetPasswordPage_setPassword: () => ({ data: { updateAccount: { __typename: 'User', id: 'u-1' } } }),
    });
    await screen.findByRole('heading', { name: 'Choose a new password' });
    expect(window.location.hash).toBe('');
    await waitFor(() => expect(readSession()?.accessToken).toBe(accessToken));
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'a brand new secret' } });
    fireEvent.change(screen.getByLabelText('Repeat the new password'), { target: { value: 'a brand new secreT' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(RESET_MESSAGES.passwordsDiffer);
    fireEvent.change(screen.getByLabelText('Repeat the new password'), { target: { value: 'a brand new secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set New Password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/worlds'));
    expect(success).toHaveBeenCalledWith(RESET_MESSAGES.done);
    const call = calls.find((c) => c.operationName === 'ResetPasswordPage_setPassword');
    expect(call?.variables).toEqual({ input: { newPassword: 'a brand new secret' } });
    expect(call?.authorization).toBe(`Bearer ${accessToken}`);
  });

  it('with an authenticator, the code comes first (sent with the link session), then the new password with the upgraded session', async () => {
    window.history.replaceState(null, '', `/reset-password#access_token=${accessToken}&refresh_token=r-1&expires_at=9999999999&type=recovery&mfa_required=1`);
    const { calls } = await renderApp('/reset-password', {
      ResetPasswordPage_verifyMfaCode: (call) =>
        call.variables.code === '123456'
          ? { data: { verifyMfaCode: sessionPayload(4) } }
          : gqlError('INVALID_CREDENTIALS', 'That code is not correct. Check your authenticator app and try again.'),
      ResetPasswordPage_setPassword: () => ({ data: { updateAccount: { __typename: 'User', id: 'u-1' } } }),
    });
    await screen.findByRole('form', { name: 'Verification code' });
    expect(readSession()).toBeNull();
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not correct. Check your authenticator app and try again.');
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByLabelText('New password');
    expect(readSession()?.accessToken).toBe('access-4');
    expect(calls.filter((c) => c.operationName === 'ResetPasswordPage_verifyMfaCode').map((c) => c.authorization)).toEqual([
      `Bearer ${accessToken}`,
      `Bearer ${accessToken}`,
    ]);
  });

  it('a used or expired link says so and offers the way back', async () => {
    window.history.replaceState(null, '', '/reset-password#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired');
    await renderApp('/reset-password', { ResetPasswordPage_setPassword: () => gqlError('UNAUTHENTICATED', 'no') });
    expect((await screen.findByRole('alert')).textContent).toBe(RESET_MESSAGES.linkInvalid);
    expect(screen.getByRole('link', { name: 'Back to log in' }).getAttribute('href')).toBe('/auth');
  });
});

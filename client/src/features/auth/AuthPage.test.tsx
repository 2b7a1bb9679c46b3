import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { readSession } from '../../apollo/session-store';
import { gqlError, sessionPayload } from '../../test/fake-graphql-server';
import { renderApp } from '../../test/render-app';
import { AUTH_MESSAGES, SIGN_UP_REDIRECT_DELAY_MS } from './AuthPage';

const field = (label: string) => screen.queryByLabelText(label);
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const toggle = () => fireEvent.click(screen.getByRole('button', { name: /^(Create an account|Use an existing account)$/ }));

async function submitLogin() {
  fill('Email', 'aria@example.com');
  fill('Password', 'wrong-pass');
  fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('AuthPage', () => {
  afterEach(() => jest.restoreAllMocks());

  it('login shows email (plain text input) and password, all required, and no username', async () => {
    await renderApp('/auth');
    const email = (await screen.findByLabelText('Email')) as HTMLInputElement;
    expect(email.type).toBe('text');
    expect(email.required).toBe(true);
    expect((field('Password') as HTMLInputElement).required).toBe(true);
    expect(field('Username')).toBeNull();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign Up' })).toBeNull();
  });

  it('toggling to sign-up shows the username field and the Sign Up button, and back', async () => {
    await renderApp('/auth');
    await screen.findByLabelText('Email');
    toggle();
    expect((field('Username') as HTMLInputElement).required).toBe(true);
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log In' })).toBeNull();
    toggle();
    expect(field('Username')).toBeNull();
    expect(screen.getByRole('button', { name: 'Log In' })).toBeTruthy();
  });

  it("a failed login shows 'Incorrect email or password.' and toggling clears it", async () => {
    await renderApp('/auth', {
      AuthPage_signIn: () => gqlError('INVALID_CREDENTIALS', 'Invalid login credentials'),
    });
    await screen.findByLabelText('Email');
    await submitLogin();
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect email or password.');
    toggle();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Incorrect email or password.')).toBeNull();
  });

  it("sign-up refused by the server shows the server's message", async () => {
    await renderApp('/auth', {
      AuthPage_signUp: () => gqlError('CONFLICT', 'This email is already registered.'),
    });
    await screen.findByLabelText('Email');
    toggle();
    fill('Email', 'aria@example.com');
    fill('Username', 'aria');
    fill('Password', 'secret-pass');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This email is already registered.');
  });

  it("sign-up that throws (network) shows 'Sign up failed. Please try again with valid email.'", async () => {
    await renderApp('/auth', { AuthPage_signUp: () => ({ networkError: true }) });
    await screen.findByLabelText('Email');
    toggle();
    fill('Email', 'aria@example.com');
    fill('Username', 'aria');
    fill('Password', 'secret-pass');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findByRole('alert')).textContent).toBe(AUTH_MESSAGES.signUpException);
    expect(AUTH_MESSAGES.signUpException).toBe('Sign up failed. Please try again with valid email.');
  });

  it('sign-up success: toast, message, signed in, then on to /worlds', async () => {
    const success = jest.spyOn(toast, 'success');
    const { router, calls } = await renderApp('/auth', {
      AuthPage_signUp: () => ({ data: { signUp: sessionPayload(5, 3600, 'newbie') } }),
    });
    await screen.findByLabelText('Email');
    toggle();
    fill('Email', 'newbie@example.com');
    fill('Username', 'newbie');
    fill('Password', 'secret-pass');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));

    expect((await screen.findByText('Success! You are now signed up.')).getAttribute('role')).toBe('status');
    expect(success).toHaveBeenCalledWith('Sign up successful! Welcome to Taleforge');
    expect(readSession()?.user.username).toBe('newbie');
    expect(calls.find((c) => c.operationName === 'AuthPage_signUp')?.variables).toEqual({
      input: { email: 'newbie@example.com', username: 'newbie', password: 'secret-pass' },
    });
    await act(async () => {
      await new Promise((r) => setTimeout(r, SIGN_UP_REDIRECT_DELAY_MS + 50));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/worlds'));
  });

  it('with an authenticator app, the password step asks for the code; the code is sent with the password step token and signs in', async () => {
    const { router, calls } = await renderApp('/auth', {
      AuthPage_signIn: () => ({ data: { signIn: { ...sessionPayload(7), mfaRequired: true } } }),
      AuthPage_verifyMfaCode: (call) =>
        call.variables.code === '123456'
          ? { data: { verifyMfaCode: sessionPayload(8) } }
          : gqlError('INVALID_CREDENTIALS', 'That code is not correct. Check your authenticator app and try again.'),
    });
    await screen.findByLabelText('Email');
    await submitLogin();
    await screen.findByRole('heading', { name: 'Two-step verification' });
    // Not signed in yet: the password step's token is kept only for the code.
    expect(readSession()).toBeNull();
    fill('Code', '654321');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not correct. Check your authenticator app and try again.');
    fill('Code', '123 456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(readSession()?.accessToken).toBe('access-8'));
    expect(calls.filter((c) => c.operationName === 'AuthPage_verifyMfaCode').map((c) => c.authorization)).toEqual(['Bearer access-7', 'Bearer access-7']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/worlds'));
  });

  it('with email confirmation required, sign-up says to open the mailed link; an unconfirmed login offers a new link', async () => {
    const { calls } = await renderApp('/auth', {
      AuthPage_signUp: () => ({ data: { signUp: null } }),
      AuthPage_signIn: () => ({
        data: null,
        errors: [
          {
            message: 'Please confirm your email first: open the link we sent you, or ask for a new one.',
            extensions: { code: 'FORBIDDEN', reason: 'email_not_confirmed' },
          },
        ],
      }),
      AuthPage_resendConfirmation: () => ({ data: { resendConfirmation: true } }),
    });
    await screen.findByLabelText('Email');
    toggle();
    fill('Email', 'newbie@example.com');
    fill('Username', 'newbie');
    fill('Password', 'secret-pass');
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect((await screen.findByRole('status')).textContent).toBe(AUTH_MESSAGES.confirmSent);
    expect(readSession()).toBeNull();
    toggle();
    fill('Email', 'newbie@example.com');
    fill('Password', 'secret-pass');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please confirm your email first: open the link we sent you, or ask for a new one.');
    fireEvent.click(screen.getByRole('button', { name: 'Send a new confirmation link' }));
    expect((await screen.findByRole('status')).textContent).toBe(AUTH_MESSAGES.confirmResent);
    expect(calls.find((c) => c.operationName === 'AuthPage_resendConfirmation')?.variables).toEqual({ email: 'newbie@example.com' });
  });

  it('a followed confirmation link lands on /auth with the session in the fragment: signed in, the fragment gone, on to /worlds', async () => {
    const claims = btoa(JSON.stringify({ sub: 'user-1', email: 'aria@example.com', user_metadata: { username: 'aria' } }));
    window.history.replaceState(
      null,
      '',
      `/auth#access_token=h.${claims}.s&refresh_token=refresh-3&expires_at=${Math.floor(Date.now() / 1000) + 3600}&type=signup`,
    );
    const success = jest.spyOn(toast, 'success');
    const { router } = await renderApp('/auth');
    await waitFor(() => expect(router.state.location.pathname).toBe('/worlds'));
    expect(readSession()?.refreshToken).toBe('refresh-3');
    expect(window.location.hash).toBe('');
    expect(success).toHaveBeenCalledWith(AUTH_MESSAGES.confirmed);
  });
});

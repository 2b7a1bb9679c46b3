import { fireEvent, screen, waitFor } from '@testing-library/react';
import { readSession } from './apollo/session-store';
import { showsFooter, showsNav } from './components/layout/visibility';
import { gqlError, sessionPayload, unauthenticated } from './test/fake-graphql-server';
import { renderApp } from './test/render-app';
import { STORY_CHARACTER } from './test/fixtures';

const nav = () => screen.queryByRole('navigation', { name: 'Main' });
const footer = () => screen.queryByRole('contentinfo');

describe('nav / footer visibility (SPEC §2)', () => {
  it.each([
    ['/', false, false],
    ['/auth', false, false],
    ['/worlds', true, true],
    ['/worlds/new', true, true],
    ['/characters', true, true],
    ['/profile', true, true],
    ['/support', true, true],
    ['/subscription', true, true],
    ['/storychat/42', true, false],
  ])('%s → nav %s, footer %s', (path, navShown, footerShown) => {
    expect(showsNav(path)).toBe(navShown);
    expect(showsFooter(path)).toBe(footerShown);
  });

  it('landing: no nav, no footer', async () => {
    await renderApp('/');
    expect((await screen.findByRole('link', { name: 'Start Your Adventure' })).getAttribute('href')).toBe('/worlds');
    expect(nav()).toBeNull();
    expect(footer()).toBeNull();
  });

  it('auth: no nav, no footer', async () => {
    await renderApp('/auth');
    await screen.findByRole('button', { name: 'Log In' });
    expect(nav()).toBeNull();
    expect(footer()).toBeNull();
  });

  it('worlds: nav and footer with the support buttons and the copyright line', async () => {
    await renderApp('/worlds');
    await screen.findByRole('heading', { name: 'Featured Worlds' });
    expect(nav()).not.toBeNull();
    expect(footer()).not.toBeNull();
    for (const name of ['Contact Us', 'Give Us Feedback', 'Report a Bug']) {
      expect(screen.getByRole('button', { name })).toBeTruthy();
    }
    expect(screen.getByText(/© \d{4} Taleforge\. All rights reserved\./)).toBeTruthy();
  });

  it('story screen: nav but no footer', async () => {
    await renderApp('/storychat/42', { StoryPage_character: () => ({ data: { character: STORY_CHARACTER } }) }, { signedIn: true });
    await screen.findByRole('button', { name: 'Start your adventure!' });
    expect(nav()).not.toBeNull();
    expect(footer()).toBeNull();
  });
});

describe('ProtectedRoute', () => {
  it('sends an anonymous visitor to /auth and back to where they were going after login', async () => {
    const { router, calls } = await renderApp('/characters?tab=x', {
      AuthPage_signIn: () => ({ data: { signIn: sessionPayload(7) } }),
    });
    const submit = await screen.findByRole('button', { name: 'Log In' });
    expect(router.state.location.pathname).toBe('/auth');

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'aria@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-pass' } });
    fireEvent.click(submit);

    expect(await screen.findByRole('heading', { name: 'Characters' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/characters');
    expect(router.state.location.search).toBe('?tab=x');
    expect(readSession()?.accessToken).toBe('access-7');
    // sign-in goes out without a bearer token
    expect(calls.find((c) => c.operationName === 'AuthPage_signIn')?.authorization).toBeNull();
    expect(document.title).toBe('Taleforge');
  });

  it('goes to /worlds after a login that had no origin', async () => {
    const { router } = await renderApp('/auth', { AuthPage_signIn: () => ({ data: { signIn: sessionPayload(3) } }) });
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'aria@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-pass' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/worlds'));
  });

  it('lets a signed-in user in, and the nav shows their profile', async () => {
    await renderApp('/profile', {}, { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Profile (aria)' }).getAttribute('href')).toBe('/profile');
  });

  it('anonymous nav: Characters and the profile icon lead to /auth', async () => {
    await renderApp('/worlds');
    await screen.findByRole('heading', { name: 'Featured Worlds' });
    expect(screen.getByRole('link', { name: 'Characters' }).getAttribute('href')).toBe('/auth');
    expect(screen.getByRole('link', { name: 'Profile (sign in)' }).getAttribute('href')).toBe('/auth');
  });
});

describe('catch-all route', () => {
  it('goes to / for anonymous visitors', async () => {
    const { router } = await renderApp('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('goes to /worlds when signed in', async () => {
    const { router } = await renderApp('/no/such/page', {}, { signedIn: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/worlds'));
  });
});

describe('session at start', () => {
  it('a stored session survives a reload (checked with me)', async () => {
    const { calls } = await renderApp('/worlds', {}, { signedIn: true });
    expect(await screen.findByRole('link', { name: 'Profile (aria)' })).toBeTruthy();
    expect(calls.find((c) => c.operationName === 'AuthProvider_me')?.authorization).toBe('Bearer access-1');
  });

  it('shows the auth-check failure screen with Try Again when the check cannot reach the server', async () => {
    await renderApp('/worlds', { AuthProvider_me: () => ({ networkError: true }) }, { signedIn: true });
    expect(await screen.findByText('Failed to check authentication status')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy();
  });

  it('a session whose refresh is refused ends anonymous on /auth', async () => {
    const { router } = await renderApp(
      '/profile',
      {
        AuthProvider_me: () => unauthenticated(),
        TokenRefresh_refreshSession: () => gqlError('UNAUTHENTICATED', 'revoked'),
      },
      { signedIn: true },
    );
    await screen.findByRole('button', { name: 'Log In' });
    expect(router.state.location.pathname).toBe('/auth');
    expect(readSession()).toBeNull();
  });
});

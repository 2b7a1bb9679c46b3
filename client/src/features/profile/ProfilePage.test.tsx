import { fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { readSession } from '../../apollo/session-store';
import { renderApp } from '../../test/render-app';

describe('ProfilePage', () => {
  afterEach(() => jest.restoreAllMocks());

  it('shows the account and logs out to an anonymous /auth', async () => {
    const { router, calls } = await renderApp('/profile', { ProfilePage_signOut: () => ({ data: { signOut: true } }) }, { signedIn: true });
    expect(await screen.findByText('aria@example.com')).toBeTruthy();
    expect(screen.getByText(/2025/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(readSession()).toBeNull();
    expect(calls.find((c) => c.operationName === 'ProfilePage_signOut')?.authorization).toBe('Bearer access-1');
  });

  it("a failed logout keeps the session and toasts 'Failed to log out. Please try again.'", async () => {
    const error = jest.spyOn(toast, 'error');
    const { router } = await renderApp('/profile', { ProfilePage_signOut: () => ({ networkError: true }) }, { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to log out. Please try again.'));
    expect(readSession()).not.toBeNull();
    expect(router.state.location.pathname).toBe('/profile');
  });
});

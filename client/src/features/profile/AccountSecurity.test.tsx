import { fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { gqlError } from '../../test/fake-graphql-server';
import { renderApp } from '../../test/render-app';
import { MESSAGES } from '../../lib/messages';

describe('Account tab: password and sessions (issue 21, in part)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('changes the password with the current one; mismatches and a wrong current password are said plainly', async () => {
    const success = jest.spyOn(toast, 'success');
    let attempts = 0;
    const { calls } = await renderApp(
      '/profile',
      {
        AccountSecurity_changePassword: () =>
          ++attempts === 1
            ? gqlError('INVALID_CREDENTIALS', 'Your current password is not correct.')
            : { data: { updateAccount: { __typename: 'User', id: 'u-1', username: 'aria' } } },
      },
      { signedIn: true },
    );
    const fill = (current: string, next: string, repeat: string) => {
      fireEvent.change(screen.getByLabelText('Current password'), { target: { value: current } });
      fireEvent.change(screen.getByLabelText('New password'), { target: { value: next } });
      fireEvent.change(screen.getByLabelText('Repeat the new password'), { target: { value: repeat } });
      fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    };
    await screen.findByRole('heading', { name: 'Password and sessions' });
    fill('old secret words', 'new secret words', 'new secret wordz');
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.passwordsDiffer);
    fill('wrong words here', 'new secret words', 'new secret words');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Your current password is not correct.'));
    fill('old secret words', 'new secret words', 'new secret words');
    await waitFor(() => expect(success).toHaveBeenCalledWith(MESSAGES.passwordChanged));
    expect(calls.filter((c) => c.operationName === 'AccountSecurity_changePassword').at(-1)?.variables).toEqual({
      input: { currentPassword: 'old secret words', newPassword: 'new secret words' },
    });
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });

  it('signs out every other device', async () => {
    const success = jest.spyOn(toast, 'success');
    const { calls } = await renderApp('/profile', { AccountSecurity_signOutOthers: () => ({ data: { signOut: true } }) }, { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign Out Everywhere Else' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith(MESSAGES.signedOutElsewhere));
    expect(calls.some((c) => c.operationName === 'AccountSecurity_signOutOthers')).toBe(true);
  });
});

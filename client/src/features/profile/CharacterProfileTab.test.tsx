import { fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { renderApp } from '../../test/render-app';

const profile = (p: Partial<Record<'skills' | 'personalityTraits' | 'freeTime' | 'pastTimes', string>>) => ({
  characterProfile: { __typename: 'UserCharacterProfile', skills: '', personalityTraits: '', freeTime: '', pastTimes: '', ...p },
});

describe('character profile tab (SPEC §4, §5, §8)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('view → edit → saving → view, with the required-fields rule and the SPEC toasts', async () => {
    const success = jest.spyOn(toast, 'success');
    const error = jest.spyOn(toast, 'error');
    let fail = true;
    const { calls } = await renderApp(
      '/profile?tab=character',
      {
        CharacterProfileTab_characterProfile: () => ({ data: profile({ skills: 'Sailing' }) }),
        CharacterProfileTab_saveCharacterProfile: (c) =>
          fail
            ? { data: null, errors: [{ message: 'Profile text is too long', extensions: { code: 'BAD_USER_INPUT' } }] }
            : { data: { saveCharacterProfile: profile(c.variables.input as Record<string, string>).characterProfile } },
      },
      { signedIn: true },
    );
    expect(await screen.findByText('Sailing')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please fill in all required fields');
    fireEvent.change(screen.getByLabelText(/Personality Traits/), { target: { value: 'Stubborn' } });
    fireEvent.change(screen.getByLabelText(/Free Time/), { target: { value: 'Stargazing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Profile text is too long'));
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Profile saved successfully!'));
    expect(await screen.findByText('Stargazing')).toBeTruthy();
    expect(calls.filter((c) => c.operationName === 'CharacterProfileTab_saveCharacterProfile').at(-1)?.variables).toEqual({
      input: { skills: 'Sailing', personalityTraits: 'Stubborn', freeTime: 'Stargazing', pastTimes: '' },
    });
  });

  it("a load failure: 'Failed to load profile'", async () => {
    await renderApp('/profile?tab=character', { CharacterProfileTab_characterProfile: () => ({ networkError: true }) }, { signedIn: true });
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load profile');
  });

  it('Account tab: subscription status and Manage Subscription', async () => {
    await renderApp('/profile', {}, { signedIn: true });
    const status = await screen.findByTestId('account-subscription');
    expect(status.textContent).toContain('Free · 10 credits · 2k context');
    expect(status.querySelector('svg')).toBeTruthy(); // credits are shown with the gem icon, as everywhere

    expect(screen.getByRole('link', { name: 'Manage Subscription' }).getAttribute('href')).toBe('/subscription/manage');
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { NO_SERVER_VOICE, READ_ALOUD_SETTINGS, userSettings } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

describe('navigation', () => {
  afterEach(() => jest.restoreAllMocks());

  it('settings popup: loads, saves Immersive UI (experimental), and says so when saving fails', async () => {
    const error = jest.spyOn(toast, 'error');
    let fail = false;
    let stored = userSettings();
    const { calls } = await renderApp(
      '/worlds',
      {
        SettingsDialog_settings: () => ({ data: { settings: stored, readAloud: NO_SERVER_VOICE } }),
        SettingsDialog_saveSettings: (c) => {
          if (fail) return { networkError: true };
          stored = { ...stored, immersiveUi: (c.variables.input as { immersiveUi: boolean }).immersiveUi };
          return { data: { saveSettings: stored } };
        },
      },
      { signedIn: true },
    );
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    const box = within(dialog).getByRole('checkbox', { name: 'Immersive UI (experimental)' }) as HTMLInputElement;
    expect(document.activeElement).toBe(box);
    fireEvent.click(box);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.operationName === 'SettingsDialog_saveSettings')?.variables).toEqual({ input: { immersiveUi: true, ...READ_ALOUD_SETTINGS } });

    fail = true;
    fireEvent.click(within(nav).getByRole('button', { name: 'Settings' }));
    const again = await screen.findByRole('dialog', { name: 'Settings' });
    expect((within(again).getByRole('checkbox') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to save settings. Please try again.'));
  });

  it('compact subscription status: tier, gem and credits, context in k', async () => {
    await renderApp('/worlds', {}, { signedIn: true });
    const status = await screen.findByRole('link', { name: /Subscription:\s*Free\s*,\s*10\s*credits,\s*2k\s*context/ });
    expect(status.getAttribute('href')).toBe('/subscription');
  });

  it('mobile drawer: opens as a dialog with the same items, Escape closes and returns focus', async () => {
    await renderApp('/worlds', {}, { signedIn: true });
    const menu = await screen.findByRole('button', { name: 'Open menu' });
    fireEvent.click(menu);
    const drawer = screen.getByRole('dialog', { name: 'Menu' });
    expect(within(drawer).getByRole('link', { name: 'Worlds' })).toBeTruthy();
    expect(within(drawer).getByRole('link', { name: 'Characters' })).toBeTruthy();
    expect(within(drawer).getByRole('link', { name: 'Profile (aria)' })).toBeTruthy();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
    expect(document.activeElement).toBe(menu);
  });
});

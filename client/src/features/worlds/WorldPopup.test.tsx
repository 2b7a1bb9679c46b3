import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { gqlError } from '../../test/fake-graphql-server';
import { GENERATED, WORLD, ownWorld } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { MESSAGES } from '../../lib/messages';

const featured = { WorldsPage_featuredWorlds: () => ({ data: { featuredWorlds: [WORLD] } }) };
const dialog = () => screen.getByRole('dialog');
const overlay = () => screen.getByTestId('modal-overlay');

describe('world popup (SPEC §2, §4, §5)', () => {
  afterEach(() => jest.restoreAllMocks());

  it("anonymous: 'Login to Spawn' goes to /auth; the overlay closes the collapsed popup", async () => {
    const { router } = await renderApp('/worlds?world=w-1', featured);
    await screen.findByRole('dialog', { name: 'Aethermoor' });
    fireEvent.click(overlay());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.search).toBe('');

    fireEvent.click(screen.getByRole('button', { name: /Aethermoor/ }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Login to Spawn' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });

  it('expanded: one textarea per question, the overlay no longer closes it, a blank username is refused', async () => {
    await renderApp('/worlds?world=w-1', featured, { signedIn: true });
    await screen.findByRole('dialog', { name: 'Aethermoor' });
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull(); // not own world
    fireEvent.click(screen.getByRole('button', { name: 'Spawn' }));
    expect(screen.getByLabelText('Character name').tagName).toBe('TEXTAREA');
    expect(screen.getByLabelText('Where were you born?').tagName).toBe('TEXTAREA');
    expect(screen.getByLabelText('What do you fear?').tagName).toBe('TEXTAREA');
    fireEvent.click(overlay());
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Character name'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Character (3 gems)' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter a username for your character');
  });

  it('one paid spawn button: no paid spawn while collapsed, then exactly one with its gem price, for answers or for the profile', async () => {
    const { calls } = await renderApp(
      '/worlds?world=w-1',
      {
        ...featured,
        WorldPopup_characterProfile: () => ({ data: { characterProfile: { skills: 'Sailing', personalityTraits: '', freeTime: '' } } }),
        WorldPopup_spawnCharacterFromProfile: () => ({ data: { spawnCharacterFromProfile: { ...GENERATED, draftId: 'd-1' } } }),
      },
      { signedIn: true },
    );
    await screen.findByRole('dialog', { name: 'Aethermoor' });
    const paid = () => within(dialog()).queryAllByRole('button', { name: /(Spawn|Generate).*gems/ });
    expect(paid()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Spawn' }));
    expect(paid().map((b) => b.textContent?.trim())).toEqual(['Generate Character (3 gems)']);
    expect(paid()[0].querySelector('svg')).toBeTruthy(); // the gem icon
    fireEvent.click(screen.getByRole('radio', { name: 'Your character profile' }));
    expect(paid().map((b) => b.textContent?.trim())).toEqual(['Spawn from Profile (3 gems)']);
    expect(screen.queryByLabelText('Where were you born?')).toBeNull(); // the profile replaces the answers
    fireEvent.change(screen.getByLabelText('Character name'), { target: { value: ' Lyra ' } });
    fireEvent.click(paid()[0]);
    expect(await screen.findByRole('heading', { name: 'Your Character Profile' })).toBeTruthy();
    expect(calls.find((c) => c.operationName === 'WorldPopup_spawnCharacterFromProfile')?.variables).toEqual({
      input: { worldDescription: WORLD.description, worldId: 'w-1', username: 'Lyra' },
    });
  });

  it('a 403 / INSUFFICIENT_CREDITS shows the credits message', async () => {
    await renderApp(
      '/worlds?world=w-1',
      { ...featured, WorldPopup_generateCharacter: () => gqlError('INSUFFICIENT_CREDITS', 'Not enough credits') },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Spawn' }));
    fireEvent.change(screen.getByLabelText('Character name'), { target: { value: 'Lyra' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Character (3 gems)' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.insufficientCreditsForCharacter);
  });

  it('generates, shows the full-screen result, saves and goes to /characters', async () => {
    const { router, calls } = await renderApp(
      '/worlds?world=w-1',
      {
        ...featured,
        WorldPopup_generateCharacter: () => ({ data: { generateCharacter: GENERATED } }),
        CharacterResult_saveCharacter: () => ({
          data: { saveCharacter: { __typename: 'Character', id: 'c-9', name: 'Lyra', worldId: 'w-1', worldName: 'Aethermoor' } },
        }),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Spawn' }));
    fireEvent.change(screen.getByLabelText('Character name'), { target: { value: ' Lyra ' } });
    fireEvent.change(screen.getByLabelText('Where were you born?'), { target: { value: 'A storm' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Character (3 gems)' }));
    expect(await screen.findByRole('heading', { name: 'Your Character Profile' })).toBeTruthy();
    expect(calls.find((c) => c.operationName === 'WorldPopup_generateCharacter')?.variables).toEqual({
      input: { worldDescription: WORLD.description, questions: WORLD.questions, answers: ['A storm', ''], username: 'Lyra', worldId: 'w-1' },
    });
    expect(screen.getByText('Mental fortitude')).toBeTruthy();
    expect(screen.getByText('Windcall')).toBeTruthy();
    expect(screen.getByText(/Born in a storm/).textContent).toBe('A sky-sailor.\nBorn in a storm.');
    fireEvent.click(screen.getByRole('button', { name: 'Save Character' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/characters'));
    expect(calls.find((c) => c.operationName === 'CharacterResult_saveCharacter')?.variables).toMatchObject({
      input: { name: 'Lyra', worldId: 'w-1', stats: GENERATED.stats },
    });
  });

  it('the generated character is kept as a draft: the screen says so, and Save Character saves that draft', async () => {
    const { router, calls } = await renderApp(
      '/worlds?world=w-1',
      {
        ...featured,
        WorldPopup_generateCharacter: () => ({ data: { generateCharacter: { ...GENERATED, draftId: 'd-7' } } }),
        CharacterResult_saveCharacterDraft: () => ({
          data: { saveCharacterDraft: { __typename: 'Character', id: 'c-9', name: 'Lyra', worldId: 'w-1', worldName: 'Aethermoor' } },
        }),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Spawn' }));
    // Before paying, the form says what it costs and that nothing paid for is lost.
    expect(screen.getByText(/costs 3 credits/).textContent).toContain('kept as a draft');
    fireEvent.change(screen.getByLabelText('Character name'), { target: { value: 'Lyra' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Character (3 gems)' }));
    expect(await screen.findByRole('heading', { name: 'Your Character Profile' })).toBeTruthy();
    expect(screen.getByTestId('draft-note').textContent).toContain('draft on your Characters page');
    fireEvent.click(screen.getByRole('button', { name: 'Save Character' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/characters'));
    expect(calls.find((c) => c.operationName === 'CharacterResult_saveCharacterDraft')?.variables).toEqual({ id: 'd-7' });
    expect(calls.some((c) => c.operationName === 'CharacterResult_saveCharacter')).toBe(false);
  });

  it('Start Over returns to /worlds', async () => {
    await renderApp('/worlds?world=w-1', { ...featured, WorldPopup_generateCharacter: () => ({ data: { generateCharacter: GENERATED } }) }, { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Spawn' }));
    fireEvent.change(screen.getByLabelText('Character name'), { target: { value: 'Lyra' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Character (3 gems)' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Start Over' }));
    expect(await screen.findByRole('heading', { name: 'Featured Worlds' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('spawn from profile with an empty profile: the info toast, whose click goes to /profile', async () => {
    const info = jest.spyOn(toast, 'info');
    const { router, calls } = await renderApp(
      '/worlds?world=w-1',
      { ...featured, WorldPopup_characterProfile: () => ({ data: { characterProfile: { skills: ' ', personalityTraits: '', freeTime: '' } } }) },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Spawn' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Your character profile' }));
    fireEvent.click(screen.getByRole('button', { name: 'Spawn from Profile (3 gems)' }));
    await waitFor(() => expect(info).toHaveBeenCalled());
    const [message, options] = info.mock.calls[0] as [string, { onClick: () => void; autoClose: number }];
    expect(message).toBe('Please complete your character profile first!');
    // A toast the player is asked to act on stays 10 s, not the default 5.
    expect(options.autoClose).toBe(10_000);
    await act(async () => {
      options.onClick();
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(calls.some((c) => c.operationName === 'WorldPopup_spawnCharacterFromProfile')).toBe(false);
  });

  it("spawn from profile failure shows the server's error", async () => {
    const error = jest.spyOn(toast, 'error');
    await renderApp(
      '/worlds?world=w-1',
      {
        ...featured,
        WorldPopup_characterProfile: () => ({ data: { characterProfile: { skills: 'Sailing', personalityTraits: '', freeTime: '' } } }),
        WorldPopup_spawnCharacterFromProfile: () => gqlError('INSUFFICIENT_CREDITS', 'You need 3 credits.'),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Spawn' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Your character profile' }));
    fireEvent.click(screen.getByRole('button', { name: 'Spawn from Profile (3 gems)' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('You need 3 credits.'));
  });

  it('Share toggles optimistically; a failure undoes it, alerts and refetches my worlds', async () => {
    const error = jest.spyOn(toast, 'error');
    let release!: () => void;
    let myWorldsCalls = 0;
    const { calls } = await renderApp(
      '/worlds?world=own-1',
      {
        WorldsPage_myWorlds: () => {
          myWorldsCalls++;
          return { data: { myWorlds: [ownWorld(1)] } };
        },
        WorldPopup_setWorldShared: () =>
          new Promise((resolve) => {
            release = () => resolve(gqlError('INTERNAL', 'boom'));
          }),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    // Optimistic: the button flips before the server answers.
    expect(await within(dialog()).findByRole('button', { name: 'Unshare' })).toBeTruthy();
    const before = myWorldsCalls;
    release();
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to update world sharing status. Please try again.'));
    expect(await within(dialog()).findByRole('button', { name: 'Share' })).toBeTruthy();
    await waitFor(() => expect(myWorldsCalls).toBeGreaterThan(before));
    expect(calls.find((c) => c.operationName === 'WorldPopup_setWorldShared')?.variables).toEqual({ id: 'own-1', shared: true });
  });
});

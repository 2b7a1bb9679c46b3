import { fireEvent, screen, waitFor } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { SAVED_CHARACTER } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { pageReload } from './CharactersPage';

const list = (items: unknown[]) => ({ CharactersPage_myCharacters: () => ({ data: { myCharacters: items } }) });

describe('characters page (SPEC §2, §8)', () => {
  afterEach(() => jest.restoreAllMocks());

  it("empty: 'No characters found' and 'Spawn a Character in Worlds'", async () => {
    const { router } = await renderApp('/characters', list([]), { signedIn: true });
    expect(await screen.findByText('No characters found')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Spawn a Character in Worlds' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/worlds'));
  });

  it("'name - world name' options ('Unknown World'), the sheet, Story", async () => {
    const other = { ...SAVED_CHARACTER, id: 'c-2', name: 'Orrin', worldId: null, worldName: null };
    const { router } = await renderApp('/characters', list([SAVED_CHARACTER, other]), { signedIn: true });
    const select = (await screen.findByLabelText('Character')) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Lyra - Aethermoor', 'Orrin - Unknown World']);
    fireEvent.change(select, { target: { value: 'c-2' } });
    expect(await screen.findByRole('heading', { name: 'Orrin' })).toBeTruthy();
    expect(screen.getByText('Windcall')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Story' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/storychat/c-2'));
  });

  it('Delete asks the SPEC confirm, then deletes and reloads; a failure says so', async () => {
    const reload = jest.spyOn(pageReload, 'reload').mockImplementation(() => undefined);
    const error = jest.spyOn(toast, 'error');
    let fail = false;
    const { calls } = await renderApp(
      '/characters',
      { ...list([SAVED_CHARACTER]), CharactersPage_deleteCharacter: () => (fail ? { networkError: true } : { data: { deleteCharacter: true } }) },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Are you sure you want to delete this character? This action cannot be undone.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.operationName === 'CharactersPage_deleteCharacter')).toBe(false);

    fail = true;
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to delete character. Please try again.'));
    expect(reload).not.toHaveBeenCalled();

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
    await waitFor(() => expect(reload).toHaveBeenCalled());
  });

  it('unsaved drafts are listed with Save and Discard: Save makes the character and selects it, Discard asks first', async () => {
    const draft = {
      id: 'd-1',
      name: 'Ash',
      worldId: 'w-1',
      worldName: 'Aethermoor',
      description: 'A lamplighter with a secret.',
      createdAt: '2026-11-26T10:00:00Z',
    };
    let drafts = [draft, { ...draft, id: 'd-2', name: 'Bryn', description: 'A ferrywoman.' }];
    let characters: unknown[] = [];
    const { calls } = await renderApp(
      '/characters',
      {
        CharactersPage_myCharacters: () => ({ data: { myCharacters: characters } }),
        CharacterDrafts_myCharacterDrafts: () => ({ data: { myCharacterDrafts: drafts } }),
        CharacterDrafts_saveCharacterDraft: ({ variables }) => {
          drafts = drafts.filter((d) => d.id !== variables.id);
          characters = [{ ...SAVED_CHARACTER, id: 'c-ash', name: 'Ash' }];
          return { data: { saveCharacterDraft: { id: 'c-ash' } } };
        },
        CharacterDrafts_discardCharacterDraft: ({ variables }) => {
          drafts = drafts.filter((d) => d.id !== variables.id);
          return { data: { discardCharacterDraft: true } };
        },
      },
      { signedIn: true },
    );
    expect(await screen.findByRole('heading', { name: 'Unsaved drafts' })).toBeTruthy();
    expect(screen.getByText('Ash - Aethermoor', { selector: '.draft-name' })).toBeTruthy();
    expect(screen.getByText('No characters found')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Save Ash' }));
    expect(await screen.findByRole('heading', { name: 'Ash' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Ash - Aethermoor', { selector: '.draft-name' })).toBeNull());
    expect(calls.find((c) => c.operationName === 'CharacterDrafts_saveCharacterDraft')?.variables).toEqual({ id: 'd-1' });

    fireEvent.click(screen.getByRole('button', { name: 'Discard Bryn' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('The credits it cost are not refunded');
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Unsaved drafts' })).toBeNull());
  });
});

/**
 * Joining a party (issue 34): the invite is looked up (partyInvitePreview), only the player's
 * characters in the party's world are offered, joining opens the party; codes that no longer work
 * and refusals are said.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { gqlError } from '../../test/fake-graphql-server';
import { renderApp } from '../../test/render-app';
import { party } from './party-fixtures';
import { codeFrom } from './JoinPartyPage';

const preview = (extra: Record<string, unknown> = {}) => ({
  __typename: 'PartyInvitePreview',
  worldId: 'w-1',
  worldName: 'Skyreach',
  hostUsername: 'tom',
  memberCount: 2,
  maxMembers: 6,
  mode: 'live',
  hostPays: false,
  chapterCredits: 1,
  full: false,
  locked: false,
  ended: false,
  expired: false,
  revoked: false,
  memberOfPartyId: null,
  ...extra,
});

const characters = [
  { __typename: 'Character', id: 'c-1', name: 'Kael', worldId: 'w-1', worldName: 'Skyreach' },
  { __typename: 'Character', id: 'c-2', name: 'Orin', worldId: 'w-2', worldName: 'Dunmere' },
  { __typename: 'Character', id: 'c-3', name: 'Lysa', worldId: 'w-1', worldName: 'Skyreach' },
];

function handlers(p: unknown, extra: Record<string, (call: { variables: Record<string, unknown> }) => unknown> = {}) {
  return {
    JoinPartyPage_preview: () => ({ data: { partyInvitePreview: p } }),
    JoinPartyPage_characters: () => ({ data: { myCharacters: characters } }),
    PartyPage_party: () => ({ data: { party: party() } }),
    PartyPage_previously: () => ({ data: { partyPreviously: [] } }),
    ...extra,
  } as never;
}

describe('join a party', () => {
  it('reads a code from a link or as typed', () => {
    expect(codeFrom(' 7k3qd-m9xta ')).toBe('7K3QD-M9XTA');
    expect(codeFrom('https://taleforge.example/party/join?code=7K3QD-M9XTA')).toBe('7K3QD-M9XTA');
  });

  it("lists only the player's characters in the party's world, and joins with the chosen one", async () => {
    const joined: unknown[] = [];
    const looked: unknown[] = [];
    const { router } = await renderApp(
      '/party/join?code=7k3qd-m9xta',
      handlers(preview(), {
        JoinPartyPage_preview: (call) => (looked.push(call.variables), { data: { partyInvitePreview: preview() } }),
        JoinPartyPage_join: (call) => (joined.push(call.variables), { data: { joinParty: { __typename: 'Party', id: 'p-1' } } }),
      }),
      { signedIn: true },
    );
    expect(await screen.findByRole('heading', { name: "tom's party in Skyreach" })).toBeTruthy();
    expect(looked).toEqual([{ code: '7K3QD-M9XTA' }]);
    expect(screen.getByText(/2 of 6 players/)).toBeTruthy();
    const radios = await screen.findAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual(['Kael', 'Lysa']);
    const join = screen.getByRole('button', { name: 'Join party' }) as HTMLButtonElement;
    expect(join.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('Lysa'));
    fireEvent.click(join);
    await waitFor(() => expect(router.state.location.pathname).toBe('/party/p-1'));
    expect(joined).toEqual([{ code: '7K3QD-M9XTA', characterId: 'c-3' }]);
  });

  it('a pasted link is looked up; a code that no longer works says why and offers no join', async () => {
    await renderApp('/party/join', handlers(preview({ expired: true })), { signedIn: true });
    fireEvent.change(await screen.findByLabelText('Invite code or link'), { target: { value: 'http://x/party/join?code=7K3QD-M9XTA' } });
    fireEvent.click(screen.getByRole('button', { name: 'Look up' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This invite has expired. Ask the host for a new one.');
    expect(screen.queryByRole('button', { name: 'Join party' })).toBeNull();
  });

  it('an unknown code, and a refusal on joining, are said with the server message and code', async () => {
    const { unmount } = await renderApp('/party/join?code=ZZZZZ-ZZZZZ', handlers(null), { signedIn: true });
    expect((await screen.findByRole('alert')).textContent).toBe('No party has that invite code. Check it with the host.');
    unmount();

    await renderApp(
      '/party/join?code=7K3QD-M9XTA',
      handlers(preview(), { JoinPartyPage_join: () => gqlError('CONFLICT', 'A party has at most 6 players.', { reason: 'full' }) }),
      { signedIn: true },
    );
    fireEvent.click(await screen.findByLabelText('Kael'));
    fireEvent.click(screen.getByRole('button', { name: 'Join party' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A party has at most 6 players. (full)');
  });

  it('no character in that world: says so and points to spawning one', async () => {
    await renderApp('/party/join?code=7K3QD-M9XTA', handlers(preview({ worldId: 'w-9', worldName: 'Nowhere' })), { signedIn: true });
    expect(await screen.findByText(/You have no saved character in Nowhere yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Spawn a Character in Worlds' })).toBeTruthy();
  });
});

/**
 * "Play with friends" on the story screen (issue 34): the dialog sends the mode, the round or turn
 * time and who pays, states the chapter's price in gems, opens the new party, and shows a refusal.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { gqlError } from '../../test/fake-graphql-server';
import { chapter, storyCharacter } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { party } from './party-fixtures';

const story = { StoryPage_character: () => ({ data: { character: storyCharacter({ chapters: [chapter(0)] }) } }) };

async function openDialog(extra: Record<string, (call: { variables: Record<string, unknown> }) => unknown> = {}) {
  const r = await renderApp(
    '/storychat/c-1',
    {
      ...story,
      PartyPage_party: () => ({ data: { party: party() } }),
      PartyPage_previously: () => ({ data: { partyPreviously: [] } }),
      ...extra,
    } as never,
    { signedIn: true },
  );
  fireEvent.click(await screen.findByRole('button', { name: 'Play with friends' }));
  return { ...r, dialog: await screen.findByRole('dialog', { name: 'Play with friends' }) };
}

describe('create a party', () => {
  it('by post, a turn time, the host paying: sends that input and opens the party', async () => {
    const sent: unknown[] = [];
    const { dialog, router } = await openDialog({
      CreatePartyDialog_create: (call) => (sent.push(call.variables), { data: { createParty: { __typename: 'Party', id: 'p-1' } } }),
    });
    await waitFor(() => expect(within(dialog).getByTestId('party-cost').textContent).toContain('Each chapter costs 1 gem, paid by the player'));
    fireEvent.click(within(dialog).getByLabelText(/By post/));
    fireEvent.change(within(dialog).getByLabelText('Time for each turn'), { target: { value: String(6 * 3600) } });
    fireEvent.click(within(dialog).getByLabelText('I pay for every chapter'));
    expect(within(dialog).getByTestId('party-cost').textContent).toContain('Each chapter costs 1 gem, paid by you.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start Party' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/party/p-1'));
    expect(sent).toEqual([{ input: { characterId: 'c-1', mode: 'post', hostPays: true, turnSeconds: 21600 } }]);
  });

  it('live rounds by default with a round time; a refusal is shown in the dialog with its code', async () => {
    const sent: unknown[] = [];
    const { dialog } = await openDialog({
      CreatePartyDialog_create: (call) => (
        sent.push(call.variables),
        gqlError('CONFLICT', 'This storyline already has an open party.', { reason: 'party_exists' })
      ),
    });
    fireEvent.change(within(dialog).getByLabelText('Round time'), { target: { value: '120' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start Party' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This storyline already has an open party. (party_exists)');
    expect(sent).toEqual([{ input: { characterId: 'c-1', mode: 'live', hostPays: false, roundSeconds: 120 } }]);
  });
});

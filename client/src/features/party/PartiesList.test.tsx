/** "Your parties" on the characters page (issue 34): the player's parties, linked, and joining another. */
import { screen } from '@testing-library/react';
import { renderApp } from '../../test/render-app';
import { member } from './party-fixtures';

it('lists your parties with links: who plays which character, your turn marked, and a way to join one', async () => {
  await renderApp(
    '/characters',
    {
      PartiesList_myParties: () => ({
        data: {
          myParties: [
            {
              __typename: 'Party',
              id: 'p-1',
              mode: 'post',
              status: 'open',
              round: 3,
              roundState: 'collecting',
              turnUserId: 'user-1',
              hostUserId: 'user-2',
              members: [member(1, { isHost: false }), member(2, { isHost: true })],
            },
            {
              __typename: 'Party',
              id: 'p-2',
              mode: 'live',
              status: 'ended',
              round: 9,
              roundState: 'collecting',
              turnUserId: null,
              hostUserId: 'user-1',
              members: [member(1)],
            },
          ],
        },
      }),
    },
    { signedIn: true },
  );
  // Each player by their character and their name (you as "you").
  const first = await screen.findByRole('link', { name: /^Kael \(you\), Tomas \(tom\) ·/ });
  expect(first.getAttribute('href')).toBe('/party/p-1');
  expect(first.textContent).toContain('By post');
  expect(first.textContent).toContain('Your turn');
  const second = screen.getByRole('link', { name: /^Kael \(you\) ·/ });
  expect(second.textContent).toBe('Kael (you) · Live rounds · you host · ended');
  expect(screen.getByRole('link', { name: 'Join with a code' }).getAttribute('href')).toBe('/party/join');
});

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { deferred } from '../../test/fake-graphql-server';
import { WORLD } from '../../test/fixtures';
import { ME, renderApp } from '../../test/render-app';
import { firstScreenCards } from './image-sources';
import { MY_WORLDS_EMPTY } from './WorldsPage';

const worlds = Array.from({ length: 9 }, (_, i) => ({
  ...WORLD,
  id: `w-${i}`,
  name: `World ${i}`,
  imageUrl: `/media/00000000-0000-4000-a000-${String(i).padStart(12, '0')}`,
}));

describe('worlds page: featured world images (SPEC §2)', () => {
  it('lists every featured world; the first screenful loads its resized images at once, the rest lazily', async () => {
    await renderApp('/worlds', { WorldsPage_featuredWorlds: () => ({ data: { featuredWorlds: worlds } }) });
    const images = await screen.findAllByRole('img');
    expect(images.map((img) => img.getAttribute('alt'))).toEqual(worlds.map((w) => w.name));
    const eager = firstScreenCards(window.innerWidth, window.innerHeight);
    images.forEach((img, i) => {
      // The card shows a 16:10 box: width/height reserve it before the file arrives.
      expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['640', '400']);
      expect(img.getAttribute('src')).toBe(worlds[i].imageUrl);
      expect(img.getAttribute('srcset')).toContain(`${worlds[i].imageUrl}?w=640 640w`);
      expect(img.getAttribute('loading')).toBe(i < eager ? 'eager' : 'lazy');
      expect(img.getAttribute('fetchpriority')).toBe(i < eager ? 'high' : 'auto');
    });
  });
});

describe('worlds page: Featured search (like Community)', () => {
  it('searches the featured worlds on the server once typing pauses, shows the matches, says when none match, and goes back to all', async () => {
    const { calls } = await renderApp('/worlds', {
      WorldsPage_featuredWorlds: () => ({ data: { featuredWorlds: worlds } }),
      WorldsPage_featuredSearch: ({ variables }) => ({
        data: { featuredWorlds: String(variables.search).toLowerCase() === 'world 3' ? [worlds[3]] : [] },
      }),
    });
    const section = (await screen.findByRole('heading', { name: 'Featured Worlds' })).closest('section')!;
    await within(section).findByRole('button', { name: /World 8/ });
    const box = within(section).getByLabelText('Search');
    fireEvent.change(box, { target: { value: '  World 3 ' } });
    // One request for the paused text, not one per keystroke; trimmed (the server matches case-insensitively).
    await waitFor(() => expect(within(section).queryByRole('button', { name: /World 8/ })).toBeNull());
    expect(
      within(section)
        .getAllByRole('button', { name: /World \d/ })
        .map((b) => b.textContent),
    ).toEqual([expect.stringContaining('World 3')]);
    expect(calls.filter((c) => c.operationName === 'WorldsPage_featuredSearch').map((c) => c.variables.search)).toEqual(['World 3']);
    // Screen readers hear what the search found (the cards change silently).
    expect(within(section).getByRole('status').textContent).toBe('1 featured world found.');

    fireEvent.change(box, { target: { value: 'nothing like it' } });
    expect(await within(section).findByText('No featured worlds match.')).toBeTruthy();
    expect(within(section).getByRole('status').textContent).toBe('No featured worlds found.');
    fireEvent.change(box, { target: { value: '' } });
    expect(await within(section).findByRole('button', { name: /World 8/ })).toBeTruthy();
    expect(within(section).getByRole('status').textContent).toBe('');
  });
});

describe('worlds page: a stored session being confirmed (after a reload)', () => {
  it('shows the signed-in layout at once, so Featured does not jump down under the pointer when the session is confirmed', async () => {
    const confirm = deferred<{ data: { me: typeof ME } }>();
    const { calls } = await renderApp(
      '/worlds',
      {
        AuthProvider_me: () => confirm.promise,
        WorldsPage_featuredWorlds: () => ({ data: { featuredWorlds: worlds } }),
      },
      { signedIn: true },
    );
    await screen.findByRole('button', { name: /World 8/ });
    // Before the session is confirmed: My Worlds is already there (loading), and not yet asked for.
    const featured = screen.getByRole('heading', { name: 'Featured Worlds' });
    expect(featured.tagName).toBe('H2');
    expect(screen.getByRole('heading', { name: 'My Worlds' })).toBeTruthy();
    expect(screen.getByText('Loading your worlds…').closest('[role=status]')).toBeTruthy();
    expect(calls.some((c) => c.operationName === 'WorldsPage_myWorlds')).toBe(false);
    const card = screen.getByRole('button', { name: /World 8/ });

    await act(async () => confirm.resolve({ data: { me: ME } }));
    expect(await screen.findByText(MY_WORLDS_EMPTY)).toBeTruthy();
    // The same heading and card elements: nothing above Featured was inserted or remounted.
    expect(screen.getByRole('heading', { name: 'Featured Worlds' })).toBe(featured);
    expect(screen.getByRole('button', { name: /World 8/ })).toBe(card);
  });
});

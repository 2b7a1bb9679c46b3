import { screen } from '@testing-library/react';
import { WORLD } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { firstScreenCards } from './image-sources';

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

import { render } from '@testing-library/react';
import { parse, print } from 'graphql';
import { WorldsPage_featuredWorldsDocument } from '../../gql/graphql';
import { EARLY_FEATURED_QUERY, fetchFeaturedEarly } from './early-featured';
import { firstScreenCards } from './image-sources';
import { WorldImage } from './WorldImage';

describe('the early featured-worlds request (entry bundle)', () => {
  it('selects exactly what WorldsPage_featuredWorlds selects, plus __typename for the cache', () => {
    const withoutTypename = EARLY_FEATURED_QUERY.replace(/\s__typename\b/g, '');
    expect(print(parse(withoutTypename))).toBe(print(WorldsPage_featuredWorldsDocument));
    expect(EARLY_FEATURED_QUERY.match(/__typename/g)).toHaveLength(2);
  });

  describe('image preloads', () => {
    const id = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;
    const worlds = Array.from({ length: 8 }, (_, i) => ({ id: `w-${i}`, imageUrl: `/media/${id(i)}` }));
    const realFetch = global.fetch;
    beforeEach(() => {
      document.head.innerHTML = '';
      global.fetch = jest.fn(async () => ({ ok: true, json: async () => ({ data: { featuredWorlds: worlds } }) })) as unknown as typeof fetch;
    });
    afterAll(() => {
      global.fetch = realFetch;
    });

    it('preloads the first screenful of card images with the very candidates the cards offer', async () => {
      await fetchFeaturedEarly();
      const links = [...document.head.querySelectorAll('link[rel=preload][as=image]')];
      expect(links).toHaveLength(firstScreenCards(window.innerWidth, window.innerHeight));
      links.forEach((link, i) => {
        const { container } = render(<WorldImage src={worlds[i].imageUrl} name="card" priority />);
        const img = container.querySelector('img')!;
        // Same srcset, sizes and fallback: the browser picks the same file for both, so the card
        // finds its image already loading (or loaded) instead of fetching another size.
        expect(link.getAttribute('imagesrcset')).toBe(img.getAttribute('srcset'));
        expect(link.getAttribute('imagesizes')).toBe(img.getAttribute('sizes'));
        expect(link.getAttribute('href')).toBe(img.getAttribute('src'));
        expect(link.getAttribute('fetchpriority')).toBe('high');
        expect(img.getAttribute('fetchpriority')).toBe('high');
      });
    });
  });
});

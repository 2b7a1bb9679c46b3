import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CARD_IMAGE_SIZES, firstScreenCards, MEDIA_WIDTHS, worldImageSources } from './image-sources';

describe('world image sources', () => {
  const stored = '/media/3efdb842-5741-491d-9212-9a33927597dc';

  it('offers stored images in every width the server serves, as WebP variants of the same URL', () => {
    const s = worldImageSources(stored, CARD_IMAGE_SIZES);
    expect(s.src).toBe(stored);
    expect(s.sizes).toBe(CARD_IMAGE_SIZES);
    expect(s.srcSet).toBe(MEDIA_WIDTHS.map((w) => `${stored}?w=${w} ${w}w`).join(', '));
  });

  it('leaves other images (data URLs, other hosts) as they are', () => {
    for (const url of ['data:image/png;base64,AAAA', 'https://example.com/a.jpg', '/media/not-an-id']) {
      expect(worldImageSources(url, CARD_IMAGE_SIZES)).toEqual({ src: url });
    }
  });

  it('keeps its width list in step with the server allow-list', () => {
    const server = readFileSync(join(__dirname, '../../../../server/src/modules/media/media-variants.ts'), 'utf8');
    const list = /export const MEDIA_WIDTHS = \[([\d, ]+)\] as const/.exec(server)?.[1];
    expect(list?.split(',').map(Number)).toEqual([...MEDIA_WIDTHS]);
  });

  it('counts the cards of the first screenful: every row whose top is in view', () => {
    expect(firstScreenCards(412, 823)).toBe(2); // phone: one column, the second card cut by the fold
    expect(firstScreenCards(800, 600)).toBe(2); // two columns, one row
    expect(firstScreenCards(1350, 940)).toBe(12); // four columns; the third row starts just above the fold
    expect(firstScreenCards(320, 150)).toBe(1); // never none
  });
});

/**
 * Which file a world image loads: stored images (`/media/{id}`) come resized as WebP from
 * `/media/{id}?w=…` (the widths the server allows), so a phone gets ~12 KB instead of the ~45 KB
 * original. Shared by the cards (WorldImage.tsx) and the early preload (early-featured.ts), which must
 * ask for the very same candidates or the preload is wasted. Part of the entry bundle: no imports.
 */

/** The server's allow-list (server/src/modules/media/media-variants.ts MEDIA_WIDTHS). */
export const MEDIA_WIDTHS = [320, 480, 640, 960, 1280] as const;

/**
 * Rendered card width (worlds.css: a grid of minmax(260px, 1fr) with 22px gaps in a page of at most
 * 1180px with 24px padding): the full width on one column (under 590px), at most 400px on two or three
 * columns, 266px on four. Over-estimates a little between breakpoints, never under-estimates.
 */
export const CARD_IMAGE_SIZES = '(max-width: 589px) calc(100vw - 48px), (min-width: 1180px) 266px, 400px';
/** The world popup's header image (.world-popup: min(640px, 100%)). */
export const POPUP_IMAGE_SIZES = '(max-width: 640px) 100vw, 640px';

const STORED = /^\/media\/[0-9a-f-]{36}$/i;

export interface ImageSources {
  src: string;
  srcSet?: string;
  sizes?: string;
}

export function worldImageSources(url: string, sizes: string): ImageSources {
  if (!STORED.test(url)) return { src: url };
  return { src: url, srcSet: MEDIA_WIDTHS.map((w) => `${url}?w=${w} ${w}w`).join(', '), sizes };
}

/**
 * How many cards of a list starting near the top of the page are in the first screenful (every row
 * whose top is in view): those render first and load their images at once with high priority, the
 * rest follow. An estimate from the same CSS figures (the grid starts ~200px down, a card is its 16:10
 * image plus ~150px of text); a wrong guess only changes what renders and loads first.
 */
export function firstScreenCards(viewportWidth: number, viewportHeight: number): number {
  const content = Math.min(viewportWidth, 1180) - 48;
  const columns = Math.max(1, Math.floor((content + 22) / 282));
  const cardWidth = (content - 22 * (columns - 1)) / columns;
  const rows = Math.max(1, Math.ceil((viewportHeight - 200) / ((cardWidth * 10) / 16 + 150 + 22)));
  return columns * rows;
}

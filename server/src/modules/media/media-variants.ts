/**
 * Resized WebP copies of stored images (`/media/{id}?w=480`). A card shows an image a few hundred
 * pixels wide, while the stored original is up to 1600 px (seeded art is 1024×576 JPEG): on a phone,
 * the original costs 3–4× the bytes of a WebP at the width the screen needs.
 */
import { sharp } from '../../common/lazy-modules';
import { AppError } from '../../common/app-error';

/**
 * The only widths served. A short list keeps the cache small (an open list would let anyone make the
 * server encode and keep thousands of sizes), and matches the client's srcset (client WorldImage.tsx).
 */
export const MEDIA_WIDTHS = [320, 480, 640, 960, 1280] as const;
export type MediaWidth = (typeof MEDIA_WIDTHS)[number];

/** Encoded variants kept in memory, by total bytes (tens of KB each: thousands fit). */
export const VARIANT_CACHE_BYTES = 32 * 1024 * 1024;
const WEBP_QUALITY = 75;

/**
 * The `w` query parameter: undefined when absent (the original is served); an allowed width; anything
 * else is refused with BAD_USER_INPUT rather than rounded, so a typo shows up instead of silently
 * getting another size (and every URL maps to exactly one cached variant).
 */
export function parseMediaWidth(raw: unknown): MediaWidth | undefined {
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  const width = MEDIA_WIDTHS.find((w) => w === n);
  if (width === undefined) throw AppError.badInput(`w must be one of ${MEDIA_WIDTHS.join(', ')} (pixels).`, 'w');
  return width;
}

/** A WebP at most `width` wide, same aspect ratio; never enlarged (a narrower original keeps its width). */
export function encodeWebpVariant(bytes: Buffer, width: number): Promise<Buffer> {
  return sharp(bytes).resize({ width, withoutEnlargement: true }).webp({ quality: WEBP_QUALITY }).toBuffer();
}

/** Least-recently-used map bounded by the total size of its values. */
export class ByteLru<V extends { bytes: Buffer }> {
  private readonly entries = new Map<string, V>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    const v = this.entries.get(key);
    if (v) {
      // Map keeps insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.total -= old.bytes.length;
    }
    if (value.bytes.length > this.maxBytes) return;
    this.entries.set(key, value);
    this.total += value.bytes.length;
    for (const [k, v] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(k);
      this.total -= v.bytes.length;
    }
  }
}

/**
 * Untrusted images (uploads and data URLs): the type is read from the bytes, never from the file
 * name or the declared MIME type; the size is capped; and the picture is decoded and re-encoded, so
 * what we store and serve is an image we produced (no polyglot payloads, no EXIF location data).
 */
import { sharp } from '../../common/lazy-modules';
import { AppError } from '../../common/app-error';
import type { MediaBlob } from './media.service';

export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
/** Stored images are bounded too: big enough for a full-width card, small enough to serve fast. */
const MAX_EDGE = 1600;
const MAX_INPUT_PIXELS = 40_000_000;

type ImageKind = 'jpeg' | 'png' | 'webp';

function sniffImage(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** Decodes a `data:image/...;base64,...` URL (the GraphQL way to send an image). */
export function bytesFromDataUrl(value: string, field = 'image'): Buffer {
  const m = /^data:image\/[a-z0-9.+-]+;base64,([A-Za-z0-9+/=\s]*)$/i.exec(value);
  if (!m) throw AppError.badInput(`${field} must be a base64 image data URL (data:image/...;base64,...).`, field);
  // Checked before decoding so an oversized string costs no allocation.
  if (Math.floor((m[1].replace(/\s/g, '').length * 3) / 4) > UPLOAD_MAX_BYTES + 3) {
    throw new AppError('PAYLOAD_TOO_LARGE', 'Images must be at most 5 MB.', { field });
  }
  return Buffer.from(m[1], 'base64');
}

/** Validates and re-encodes an untrusted image; throws BAD_USER_INPUT / PAYLOAD_TOO_LARGE. */
export async function prepareImage(bytes: Buffer, field = 'image'): Promise<MediaBlob> {
  if (bytes.length === 0) throw AppError.badInput('The image is empty.', field);
  if (bytes.length > UPLOAD_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'Images must be at most 5 MB.', { field });
  const kind = sniffImage(bytes);
  if (!kind) throw AppError.badInput('Only JPEG, PNG and WebP images are accepted.', field);
  try {
    const pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: MAX_EDGE, height: MAX_EDGE, fit: 'inside', withoutEnlargement: true });
    // Same family out as in: PNG keeps its transparency, WebP stays small.
    const out =
      kind === 'png'
        ? await pipeline.png({ compressionLevel: 9 }).toBuffer()
        : kind === 'webp'
          ? await pipeline.webp({ quality: 82 }).toBuffer()
          : await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    return { mime: `image/${kind}`, bytes: out };
  } catch {
    throw AppError.badInput('The image could not be read: it is damaged or not really an image.', field);
  }
}

/** Any image we produced (e.g. generated art) as a JPEG data URL, as SPEC's generate-image answers. */
export async function jpegDataUrl(bytes: Buffer, mime: string): Promise<string> {
  const jpeg = mime === 'image/jpeg' ? bytes : await sharp(bytes).jpeg({ quality: 88 }).toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

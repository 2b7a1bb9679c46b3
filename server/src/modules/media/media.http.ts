import type { RequestHandler } from 'express';
import { AppError, isAppError } from '../../common/app-error';
import { sendError } from '../../common/http';
import { parseMediaWidth } from './media-variants';
import type { MediaService } from './media.service';

const ID = /^[0-9a-f-]{36}$/i;
// Media rows never change content under an id (nor do their variants), so caches may keep them a year.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * `GET /media/:id` — the stored image as uploaded; `GET /media/:id?w=<width>` — a WebP at most that
 * wide with the same aspect ratio, for one of MEDIA_WIDTHS (another width: 400 BAD_USER_INPUT).
 * Both carry an ETag and answer If-None-Match with 304.
 */
export function serveMedia(media: MediaService): RequestHandler {
  return async (req, res, next) => {
    try {
      const id = String(req.params.id);
      const width = parseMediaWidth(req.query.w);
      if (!ID.test(id)) return sendError(res, AppError.notFound('Image'));
      const found = width === undefined ? await media.get(id) : await media.variant(id, width);
      if (!found) return sendError(res, AppError.notFound('Image'));
      const etag = 'etag' in found ? found.etag : `"${found.sha256}"`;
      res.setHeader('Cache-Control', IMMUTABLE);
      res.setHeader('ETag', etag);
      if (req.headers['if-none-match'] === etag) return res.status(304).end();
      res.type(found.mime).send(found.bytes);
    } catch (e) {
      if (isAppError(e)) return sendError(res, e);
      next(e);
    }
  };
}

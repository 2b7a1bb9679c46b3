import express, { type NextFunction, type Request, type Response } from 'express';
import { edgeText, jsonBody } from '../../common/http';
import multer from 'multer';
import { AppError } from '../../common/app-error';
import type { Logger } from '../../common/logger';
import type { Services } from '../../services';
import type { AuthUser } from '../auth/auth.service';
import { UPLOAD_MAX_BYTES } from '../media/image-upload';
import { jsonList } from '../shared/input';
import { body, isoDate, optionalRestUser, queryValue, restUser } from '../shared/rest';
import type { World } from './world.entity';

/** SPEC §3 world card (snake_case as the legacy client reads it) plus what GraphQL also offers. */
function worldCard(w: World, services: Services, author?: string | null) {
  return {
    ...(author === undefined ? {} : { author }),
    id: w.id,
    name: w.name,
    description: w.description,
    questions: w.questions,
    shared_globally: w.sharedGlobally,
    featured: w.featured,
    genre: w.genre,
    image_url: services.worlds.imageUrl(w),
    play_count: w.playCount,
    like_count: w.likeCount,
    created_at: isoDate(w.createdAt),
  };
}

/** SPEC §7 /worlds/* — thin: parse, call WorldService, present. */
export function worldsRestRouter(services: Services, logger: Logger): express.Router {
  const r = express.Router();
  r.use(jsonBody(services.config.bodyLimitBytes));
  // The create wizard's form: one optional image (bytes only in memory, capped), small text fields.
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
  }).single('image');

  r.get('/fetch-world-cards', async (req, res) => {
    const num = wholeNumber(req);
    const worlds = await services.worlds.featured({
      limit: num('limit'),
      offset: num('offset'),
      search: queryValue(req, 'search'),
      genre: queryValue(req, 'genre'),
    });
    res.json(worlds.map((w) => worldCard(w, services)));
  });

  // Public, like fetch-world-cards: the community list (cached in WorldService, dropped on every share change).
  r.get('/community', async (req, res) => {
    const num = wholeNumber(req);
    const page = await services.worlds.community({
      limit: num('limit'),
      offset: num('offset'),
      sort: queryValue(req, 'sort'),
      search: queryValue(req, 'search'),
      genre: queryValue(req, 'genre'),
    });
    res.json({ total: page.total, worlds: page.worlds.map((w) => worldCard(w, services, w.ownerId ? (page.authors.get(w.ownerId) ?? null) : null)) });
  });

  r.put('/like/:id', async (req, res) => {
    const user = await restUser(services, req);
    const world = await services.worlds.setLiked(user.id, req.params.id, body(req).liked);
    res.json({ success: true, liked: body(req).liked === true, like_count: world.likeCount });
  });

  r.post('/remix/:id', async (req, res) => {
    const user = await restUser(services, req);
    const world = await services.worlds.remix(user.id, req.params.id);
    res.status(201).json({ success: true, world: { ...worldCard(world, services), remixed_from_id: world.remixedFromId } });
  });

  r.get('/my-worlds', async (req, res) => {
    const user = await restUser(services, req);
    try {
      res.json((await services.worlds.mine(user.id)).map((w) => worldCard(w, services)));
    } catch (e) {
      // SPEC §7: the page reads an empty list when this fails; the failure is still logged.
      logger.error('my-worlds failed', { err: e });
      res.json([]);
    }
  });

  r.get('/image/:id', async (req, res) => {
    const user = await optionalRestUser(services, req);
    res.json(await services.worlds.imageInfo(user?.id ?? null, req.params.id));
  });

  r.put('/share/:id', async (req, res) => {
    const user = await restUser(services, req);
    const world = await services.worlds.setShared(user.id, req.params.id, body(req).shared_globally);
    res.json({ success: true, shared_globally: world.sharedGlobally });
  });

  r.post('/generate-description', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    res.json({ description: await services.worlds.generateDescription(user.id, { worldDescription: b.worldDescription, maxLength: b.maxLength }) });
  });

  r.post('/generate-questions', async (req, res) => {
    const user = await restUser(services, req);
    res.json({ questions: await services.worlds.generateQuestions(user.id, { worldDescription: body(req).worldDescription }) });
  });

  r.post('/generate-image', async (req, res) => {
    const user = await restUser(services, req);
    res.json({ success: true, imageData: await services.worlds.generateImage(user.id, { worldDescription: body(req).worldDescription }) });
  });

  r.post(
    '/submit-world',
    // Authenticate before reading a multipart body: an anonymous caller's upload is never buffered.
    async (req: Request, res: Response, next: NextFunction) => {
      res.locals.user = await restUser(services, req);
      next();
    },
    (req: Request, res: Response, next: NextFunction) => upload(req, res, (err: unknown) => next(err ? multerError(err) : undefined)),
    edgeText,
    async (req: Request, res: Response) => {
      const user = res.locals.user as AuthUser;
      const b = body(req);
      if (req.file) checkDeclaredType(req.file);
      const image = req.file ? req.file.buffer : b.image;
      const world = await services.worlds.submit(user.id, {
        worldName: b.worldName,
        worldDescription: b.worldDescription,
        questions: jsonList(b.questions, 'questions'),
        image,
      });
      res.status(201).json({ success: true, world: worldCard(world, services) });
    },
  );

  return r;
}

/** A reader of whole-number query parameters (limit, offset), undefined when absent. */
function wholeNumber(req: Request) {
  return (name: string): number | undefined => {
    const v = queryValue(req, name);
    if (v === undefined) return undefined;
    if (!/^\d{1,6}$/.test(v)) throw AppError.badInput(`${name} must be a whole number.`, name);
    return Number(v);
  };
}

/**
 * Defence in depth on top of sniffing the bytes (which decides the type): a file whose own name or
 * declared type says it is something else (a PNG renamed to .exe) is refused rather than guessed at.
 */
function checkDeclaredType(file: Express.Multer.File): void {
  const ext = /\.([A-Za-z0-9]{1,10})$/.exec(file.originalname ?? '')?.[1]?.toLowerCase();
  if (ext !== undefined && !['jpg', 'jpeg', 'jfif', 'png', 'webp'].includes(ext)) {
    throw AppError.badInput('Only .jpg, .png and .webp images are accepted.', 'image');
  }
  const mime = (file.mimetype ?? '').toLowerCase();
  if (mime && mime !== 'application/octet-stream' && !['image/jpeg', 'image/png', 'image/webp'].includes(mime)) {
    throw AppError.badInput('Only JPEG, PNG and WebP images are accepted.', 'image');
  }
}

/** multer's own errors, as our coded ones (an oversized file is 413, anything malformed 400). */
function multerError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') return new AppError('PAYLOAD_TOO_LARGE', 'Images must be at most 5 MB.', { field: 'image' });
    if (err.code === 'LIMIT_UNEXPECTED_FILE') return AppError.badInput('Only one file, in the "image" field, is accepted.', err.field ?? 'image');
    return AppError.badInput(`Malformed upload: ${err.message}.`, err.field);
  }
  return AppError.badInput('Malformed multipart body.');
}

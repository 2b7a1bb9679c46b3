import express, { type NextFunction, type Request, type Response } from 'express';
import { edgeText, jsonBody } from '../../common/http';
import multer from 'multer';
import { AppError } from '../../common/app-error';
import { CARD_MAX_BYTES } from './character-card';
import type { Services } from '../../services';
import { jsonList } from '../shared/input';
import { body, queryValue, restUser } from '../shared/rest';
import { characterDraft, savedCharacter } from './character.present';

/** SPEC §7 /characters/* (generation). Saved characters live under /profile (profile.rest.ts). */
export function charactersRestRouter(services: Services): express.Router {
  const r = express.Router();
  r.use(jsonBody(services.config.bodyLimitBytes));

  r.get('/generate', async (req, res) => {
    const user = await restUser(services, req);
    const character = await services.characters.generate(user.id, {
      worldDescription: queryValue(req, 'worldDescription'),
      username: queryValue(req, 'username'),
      answers: jsonList(queryValue(req, 'answers'), 'answers'),
      questions: jsonList(queryValue(req, 'questions'), 'questions'),
      // Not in SPEC's call: with it, the character is kept as a draft until saved or discarded.
      worldId: queryValue(req, 'world_id'),
    });
    res.json(character);
  });

  // SPEC: "spawning from profile has a call whose path and payload are not shown"; this is ours.
  // Failures answer with the usual { error, code } body, whose `error` the page shows.
  r.post('/spawn-from-profile', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    res.json(
      await services.characters.spawnFromProfile(user.id, user.username, { worldDescription: b.worldDescription, username: b.username, worldId: b.world_id }),
    );
  });

  // Drafts: generated characters not saved yet (the REST twins of myCharacterDrafts & co).
  r.get('/drafts', async (req, res) => {
    const user = await restUser(services, req);
    const drafts = await services.characters.drafts(user.id);
    const names = await services.worlds.visibleNames(
      user.id,
      drafts.map((d) => d.worldId),
    );
    res.json(drafts.map((d) => characterDraft(d, d.worldId ? (names.get(d.worldId) ?? null) : null)));
  });
  r.post('/drafts/:id/save', async (req, res) => {
    const user = await restUser(services, req);
    const c = await services.characters.saveDraft(user.id, req.params.id);
    res.status(201).json({ success: true, id: c.id });
  });
  r.delete('/drafts/:id', async (req, res) => {
    const user = await restUser(services, req);
    await services.characters.discardDraft(user.id, req.params.id);
    res.json({ success: true });
  });

  // Character Card V3 export of one of your characters, as JSON or as a card PNG.
  r.get('/:id/card.json', async (req, res) => {
    const user = await restUser(services, req);
    res.json(await services.characters.exportCard(user.id, req.params.id, 'json'));
  });
  r.get('/:id/card.png', async (req, res) => {
    const user = await restUser(services, req);
    const png = await services.characters.exportCard(user.id, req.params.id, 'png');
    res.setHeader('Content-Disposition', 'attachment; filename="character-card.png"');
    res.type('image/png').send(png);
  });

  // Import a V2/V3 card into a world: multipart (file field "card", field "world_id") or JSON
  // ({ world_id, card } with the card as an object or JSON text).
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: CARD_MAX_BYTES, files: 1, fields: 5, parts: 6 } }).single('card');
  r.post(
    '/import-card',
    async (req: Request, res: Response, next: NextFunction) => {
      res.locals.user = await restUser(services, req);
      next();
    },
    (req: Request, res: Response, next: NextFunction) =>
      upload(req, res, (err: unknown) => {
        if (!err) return next();
        const tooBig = err instanceof multer.MulterError && err.code === 'LIMIT_FILE_SIZE';
        next(tooBig ? new AppError('PAYLOAD_TOO_LARGE', 'Cards must be at most 5 MB.', { field: 'card' }) : AppError.badInput('Malformed upload.', 'card'));
      }),
    edgeText,
    async (req: Request, res: Response) => {
      const b = body(req);
      const card =
        req.file?.buffer ??
        (typeof b.card === 'string' ? Buffer.from(b.card) : b.card && typeof b.card === 'object' ? Buffer.from(JSON.stringify(b.card)) : null);
      if (!card) throw AppError.badInput('card is required (a card PNG or card JSON).', 'card');
      const c = await services.characters.importCard((res.locals.user as { id: string }).id, b.world_id, card);
      res.status(201).json({ success: true, character: savedCharacter(c, null) });
    },
  );

  return r;
}

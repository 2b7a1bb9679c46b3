import express, { type Request, type Response } from 'express';
import { jsonBody } from '../../common/http';
import { isAppError } from '../../common/app-error';
import type { Services } from '../../services';
import { body, isoDate, restUser } from '../shared/rest';
import type { PublicationView } from './community.service';

function publicationJson(p: PublicationView, base: string) {
  return {
    id: p.id,
    url: `${base}${p.path}`,
    chapter_count: p.chapterCount,
    hidden: p.hidden,
    published_at: isoDate(p.publishedAt),
    updated_at: isoDate(p.updatedAt),
  };
}

/** REST twins of the community mutations: publish, unpublish, report. Thin over CommunityService. */
export function communityRestRouter(services: Services): express.Router {
  const r = express.Router();
  r.use(jsonBody(services.config.bodyLimitBytes));

  r.post('/publish-story', async (req, res) => {
    const user = await restUser(services, req);
    const p = await services.community.publish(user.id, body(req).characterId);
    res.json({ success: true, publication: publicationJson(p, services.config.publicUrl) });
  });

  r.post('/unpublish-story', async (req, res) => {
    const user = await restUser(services, req);
    res.json({ success: await services.community.unpublish(user.id, body(req).characterId) });
  });

  r.post('/report', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    const result = await services.community.report(user.id, { targetKind: b.target_kind, targetId: b.target_id, reason: b.reason, note: b.note });
    res.status(201).json({ success: true, hidden: result.hidden });
  });

  return r;
}

const GONE_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Story not available — Taleforge</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style></head><body><h1>This story is not available</h1><p>It was never published, its author took it down, or it is hidden while moderators review it.</p><p><a href="/worlds">Browse worlds</a></p></body></html>`;

/**
 * GET /read/{id}: a published story as server-rendered HTML (anonymous readers welcome). It carries
 * its own CSP (no scripts at all) in place of the app's; an unknown, unpublished or hidden story is a
 * plain 404 page. Readers get a short cache; an unpublish takes effect within that time at a CDN.
 */
export function readPublishedStory(services: Services) {
  return async (req: Request, res: Response) => {
    try {
      const page = await services.community.readPublished(req.params.id);
      res.setHeader('content-security-policy', page.csp);
      res.setHeader('cache-control', 'public, max-age=60');
      res.type('html').send(page.html);
    } catch (e) {
      if (!isAppError(e) || e.code !== 'NOT_FOUND') throw e;
      res.setHeader('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
      res.setHeader('cache-control', 'no-store');
      res.status(404).type('html').send(GONE_PAGE);
    }
  };
}

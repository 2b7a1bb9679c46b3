import express from 'express';
import { jsonBody } from '../../common/http';
import type { Services } from '../../services';
import { body, restUser } from '../shared/rest';

/** SPEC §7 POST /support/insert. */
export function supportRestRouter(services: Services): express.Router {
  const r = express.Router();
  r.use(jsonBody(services.config.bodyLimitBytes));
  r.post('/insert', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    const m = await services.support.submit(user.id, { type: b.type, message: b.message });
    res.status(201).json({ success: true, id: m.id });
  });
  return r;
}

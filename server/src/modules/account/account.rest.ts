import express from 'express';
import { jsonBody, requestMeta } from '../../common/http';
import type { Services } from '../../services';
import { body, restUser } from '../shared/rest';

/** The account's data (GDPR): the export archive, and deletion after the password. */
export function accountRestRouter(services: Services): express.Router {
  const r = express.Router();
  r.use(jsonBody(services.config.bodyLimitBytes));

  r.get('/export', async (req, res) => {
    const user = await restUser(services, req);
    const { filename, archive } = await services.accountData.exportArchive(user);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
    res.setHeader('Cache-Control', 'no-store');
    res.send(archive);
  });

  r.post('/delete', async (req, res) => {
    const user = await restUser(services, req);
    await services.accountData.deleteAccount(user, body(req).password, requestMeta(req));
    res.status(204).end();
  });
  return r;
}

import express from 'express';
import { jsonBody } from '../../common/http';
import type { Services } from '../../services';
import { body, queryValue, restUser } from '../shared/rest';

/** Party play over REST (/api/parties): the main calls, thin over PartyService like the GraphQL twins. */
export function partiesRestRouter(services: Services): express.Router {
  const r = express.Router();
  r.use(jsonBody(services.config.bodyLimitBytes));
  r.post('/', async (req, res) => {
    const user = await restUser(services, req);
    res.status(201).json({ party: await services.parties.create(user.id, body(req)) });
  });
  r.get('/', async (req, res) => {
    const user = await restUser(services, req);
    res.json({ parties: await services.parties.mine(user.id) });
  });
  r.post('/join', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    res.json({ party: await services.parties.join(user.id, b.code, b.characterId) });
  });
  r.get('/:id', async (req, res) => {
    const user = await restUser(services, req);
    const party = await services.parties.get(user.id, req.params.id);
    const story = await services.parties.storyline(user.id, party.id, { limit: queryValue(req, 'limit'), beforeIndex: queryValue(req, 'beforeIndex') }, {});
    res.json({ party, story });
  });
  r.get('/:id/previously', async (req, res) => {
    const user = await restUser(services, req);
    res.json({ chapters: await services.parties.previously(user.id, req.params.id) });
  });
  r.post('/:id/act', async (req, res) => {
    const user = await restUser(services, req);
    res.json({ party: await services.parties.act(user.id, req.params.id, body(req).action) });
  });
  r.post('/:id/close-round', async (req, res) => {
    const user = await restUser(services, req);
    res.json({ party: await services.parties.closeRoundNow(user.id, req.params.id) });
  });
  r.post('/:id/invite', async (req, res) => {
    const user = await restUser(services, req);
    const invite = await services.parties.createInvite(user.id, req.params.id, body(req).hours);
    res.status(201).json({ id: invite.id, code: invite.code, expiresAt: invite.expiresAt.toISOString() });
  });
  return r;
}

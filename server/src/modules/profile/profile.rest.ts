import express from 'express';
import { jsonBody } from '../../common/http';
import type { Services } from '../../services';
import { savedCharacter } from '../characters/character.present';
import { body, isoDate, restUser } from '../shared/rest';
import type { UserCharacterProfile } from './character-profile.entity';
import type { UserSettings } from './user-settings.entity';

function profileBody(p: UserCharacterProfile) {
  return { skills: p.skills, personalityTraits: p.personalityTraits, freeTime: p.freeTime, pastTimes: p.pastTimes };
}

/** Read-aloud's settings, beside the SPEC's (same names as GraphQL's). */
function readAloudBody(s: UserSettings) {
  return {
    readAloudEngine: s.readAloudEngine,
    readAloudVoice: s.readAloudVoice,
    readAloudServerVoice: s.readAloudServerVoice,
    readAloudRate: s.readAloudRate,
    readAloudAuto: s.readAloudAuto,
  };
}

/** SPEC §7 /profile/* — account, character profile, settings and saved characters. */
export function profileRestRouter(services: Services): express.Router {
  const r = express.Router();
  r.use(jsonBody(services.config.bodyLimitBytes));

  r.get('/', async (req, res) => {
    const user = await services.profile.account((await restUser(services, req)).id);
    res.json({ id: user.id, username: user.username, email: user.email, created_at: isoDate(user.createdAt) });
  });

  // SPEC "POST /profile/ | profile data": the character profile (skills, personalityTraits, freeTime,
  // pastTimes). The helper paths the SPEC does not show are /profile/character-profile below.
  const saveProfile: express.RequestHandler = async (req, res) => {
    const user = await restUser(services, req);
    const saved = await services.profile.saveCharacterProfile(user.id, body(req));
    res.json({ success: true, profile: profileBody(saved) });
  };
  r.post('/', saveProfile);
  r.post('/character-profile', saveProfile);
  r.get('/character-profile', async (req, res) => {
    const user = await restUser(services, req);
    res.json(profileBody(await services.profile.characterProfile(user.id)));
  });

  r.get('/fetch-settings', async (req, res) => {
    const s = await services.profile.settings((await restUser(services, req)).id);
    res.json({ immersiveui: s.immersiveUi, readingLevel: s.readingLevel, ...readAloudBody(s) });
  });

  r.post('/save-settings', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    const s = await services.profile.saveSettings(user.id, {
      immersiveUi: b.immersiveUI,
      readingLevel: b.readingLevel,
      readAloudEngine: b.readAloudEngine,
      readAloudVoice: b.readAloudVoice,
      readAloudServerVoice: b.readAloudServerVoice,
      readAloudRate: b.readAloudRate,
      readAloudAuto: b.readAloudAuto,
    });
    res.json({ success: true, immersiveui: s.immersiveUi, readingLevel: s.readingLevel, ...readAloudBody(s) });
  });

  r.get('/fetch-saved-characters', async (req, res) => {
    const user = await restUser(services, req);
    const chars = await services.characters.mine(user.id);
    const names = await services.worlds.visibleNames(
      user.id,
      chars.map((c) => c.worldId),
    );
    res.json(chars.map((c) => savedCharacter(c, c.worldId ? (names.get(c.worldId) ?? null) : null)));
  });

  r.post('/insert-characters', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    const c = await services.characters.save(user.id, {
      name: b.name,
      world_id: b.world_id,
      stats: b.stats,
      description: b.description,
      traits: b.traits,
      strengths: b.strengths,
      weaknesses: b.weaknesses,
      special: b.special,
      answers: b.answers,
    });
    res.status(201).json({ success: true, id: c.id });
  });

  r.delete('/characters/:id', async (req, res) => {
    const user = await restUser(services, req);
    await services.characters.delete(user.id, req.params.id);
    res.json({ success: true });
  });

  return r;
}

import express from 'express';
import { jsonBody } from '../../common/http';
import type { Services } from '../../services';
import { body, isoDate, queryValue, restUser } from '../shared/rest';
import type { Chapter } from './chapter.entity';
import type { Character } from '../characters/character.entity';
import type { Mission } from './missions/mission.entity';
import type { StoryBranch } from './editing/story-branch.entity';
import type { ChapterOutcome } from './story.service';

/** A query-string number, for the service's own check (NaN is refused there with a coded error). */
const numberOrNone = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));

/** SPEC §3 chapter, plus its place in the story. */
function chapterBody(c: Chapter) {
  return {
    id: c.id,
    index: c.index,
    take: c.take,
    text: c.text,
    playerChoice: c.playerChoice,
    choices: c.choices,
    setting: c.setting,
    // The check rolled before the chapter (null: routine) and what it did to health and items (issue 31).
    check: c.checkOutcome ?? null,
    stakes: c.stakesView,
    // A party round's companions' own checks, each on their party stats (as GraphQL's Chapter.partyChecks).
    partyChecks: (c.partyChecks ?? []).map(({ userId, name, action, check, statIncreases }) => ({ userId, name, action, check, statIncreases })),
  };
}

/** SPEC §3 mission, plus when and at which chapter it was completed (the mission log). */
function missionBody(m: Mission) {
  return {
    id: m.id,
    objective: m.objective,
    startedAt: isoDate(m.startedAt),
    status: m.status,
    completedAt: m.completedAt ? isoDate(m.completedAt) : null,
    completedInChapter: m.completedInChapter,
  };
}

/** A branch as listed (the rows themselves stay on the server). */
function branchBody(b: StoryBranch) {
  return {
    id: b.id,
    fromChapter: b.fromChapterNumber,
    chapterCount: b.chapterCount,
    firstAction: b.firstAction,
    preview: b.preview,
    createdAt: isoDate(b.createdAt),
  };
}

/** SPEC §7 generate-chapter response (`error` is null on success; failures use the usual error body). */
function outcomeBody(o: ChapterOutcome) {
  return {
    error: null,
    newChapter: chapterBody(o.chapter),
    updatedStats: o.updatedStats,
    newIncreases: o.newIncreases,
    // The chapter's cast (the people besides the hero, as the storyteller reported them); each
    // also updated or added a story card.
    updatedCurrentCharacters: o.chapter.castMembers ?? [],
    newSettingGenerated: o.newSettingGenerated,
    settingText: o.settingText,
    newMission: o.newMission ? missionBody(o.newMission) : null,
    missionCompleted: o.missionCompleted,
    health: o.chapter.stakes ? { current: o.chapter.stakes.healthAfter, max: o.chapter.stakes.healthMaxAfter } : null,
  };
}

/**
 * SPEC §7 /stories/* as thin adapters over StoryService, plus the paths the SPEC's storyline needs
 * but does not show (storyline read, regenerate, takes, undo, edits, rewind and branches, export). Errors answer `{ error, code }`
 * with the code's status, so `error` is set exactly when something failed.
 */
export function storiesRestRouter(services: Services): express.Router {
  const r = express.Router();
  // Taken before the body is read and the caller authenticated: whether a repeated action raced the
  // chapter it repeats depends on when it arrived, not on how long it queued behind other work.
  r.use((req, res, next) => {
    res.locals.arrivedAt = Date.now();
    next();
  });
  r.use(jsonBody(services.config.bodyLimitBytes));

  r.post('/generate-chapter', async (req, res) => {
    const user = await restUser(services, req);
    res.json(outcomeBody(await services.stories.generateChapter(user.id, body(req), { arrivedAt: res.locals.arrivedAt as number })));
  });

  r.post('/regenerate-chapter', async (req, res) => {
    const user = await restUser(services, req);
    res.json(outcomeBody(await services.stories.regenerateChapter(user.id, body(req))));
  });

  // Streamed regenerate: starts the new take and answers at once; follow it with GraphQL chapterStream
  // or read it with GET /storyline/{characterId} (generatingChapterId until it is done).
  r.post('/start-regeneration', async (req, res) => {
    const user = await restUser(services, req);
    const h = await services.stories.startChapter(user.id, body(req), 'regenerate');
    res.json({ error: null, chapterId: h.chapterId, index: h.index, take: h.take });
  });

  // Stops the chapter being written (see GraphQL stopChapter): `stopped` is false when none was.
  r.post('/stop-chapter', async (req, res) => {
    const user = await restUser(services, req);
    res.json({ error: null, stopped: await services.stories.stopChapter(user.id, body(req).characterId) });
  });

  // Continue: a new take of the latest chapter that goes on from where it stops (see GraphQL
  // startContinuation); answers at once, like start-regeneration.
  r.post('/start-continuation', async (req, res) => {
    const user = await restUser(services, req);
    const h = await services.stories.startChapter(user.id, body(req), 'continue');
    res.json({ error: null, chapterId: h.chapterId, index: h.index, take: h.take });
  });

  r.post('/select-take', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    res.json(outcomeBody(await services.stories.selectTake(user.id, b.characterId, b.take)));
  });

  r.post('/edit-chapter', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    const ch = await services.stories.editChapter(user.id, b.characterId, b.chapterId, { text: b.text, playerChoice: b.playerChoice });
    res.json({ error: null, chapter: { ...chapterBody(ch), edited: ch.edited, actionEdited: ch.actionEdited } });
  });

  // Undo, rewind and returning to a branch answer the story as it is now.
  const storyNow = async (c: Character) => ({
    error: null,
    updatedStats: c.stats,
    settingText: c.currentSetting,
    missionHistory: (await services.stories.missionHistoryOf(c, {})).map(missionBody),
  });

  r.post('/undo-chapter', async (req, res) => {
    const user = await restUser(services, req);
    const c = await services.stories.undoLastChapter(user.id, body(req).characterId);
    // A party story's round may have gone back with it: its members are told.
    await services.parties.storyChanged(c.id);
    res.json(await storyNow(c));
  });

  r.post('/rewind', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    const c = await services.stories.rewind(user.id, b.characterId, b.chapterIndex);
    await services.parties.storyChanged(c.id);
    res.json(await storyNow(c));
  });

  r.get('/branches/:characterId', async (req, res) => {
    const user = await restUser(services, req);
    const list = await services.stories.listBranches(user.id, req.params.characterId);
    res.json({ error: null, branches: list.map(branchBody) });
  });

  r.post('/restore-branch', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    const c = await services.stories.restoreBranch(user.id, b.characterId, b.branchId);
    await services.parties.storyChanged(c.id);
    res.json(await storyNow(c));
  });

  r.post('/delete-branch', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    res.json({ error: null, deleted: await services.stories.deleteBranch(user.id, b.characterId, b.branchId) });
  });

  r.post('/fetch-styles', async (req, res) => {
    const user = await restUser(services, req);
    res.json(await services.stories.styles(user.id, body(req).settingDescription));
  });

  r.post('/get-new-mission', async (req, res) => {
    const user = await restUser(services, req);
    const { objective } = await services.stories.suggestMission(user.id, body(req));
    res.json({ error: null, objective });
  });

  r.post('/update-mission-history', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    const history = await services.stories.replaceMissionHistory(user.id, b.characterId, b.missionHistory);
    res.json({ error: null, missionHistory: history.map(missionBody) });
  });

  r.post('/update-mission', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    // missionHistory (the client's copy) is not trusted: the stored history is the truth.
    const { mission, history } = await services.stories.updateMission(user.id, b.characterId, b.updatedMission);
    res.json({ error: null, updatedMissionHistory: history.map(missionBody), updatedMission: missionBody(mission) });
  });

  // Read-aloud's server voice (GraphQL readChapterAloud's twin): the chapter (its id, or its 1-based
  // number for the selected take) as MP3. 1 credit the first time in a voice; from the cache after.
  r.get('/:characterId/chapters/:chapter/audio', async (req, res) => {
    const user = await restUser(services, req);
    const a = await services.readAloud.chapterAudio(user.id, req.params.characterId, req.params.chapter, queryValue(req, 'voice'));
    const etag = `"${a.sha256}"`;
    // The same URL answers new audio after the chapter is edited: caches must ask again (ETag → 304).
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('ETag', etag);
    res.setHeader('X-Audio-Cached', String(a.cached));
    res.setHeader('X-Credits-Charged', String(a.creditsCharged));
    if (req.headers['if-none-match'] === etag) return void res.status(304).end();
    res.type(a.mime).send(a.bytes);
  });

  r.get('/storyline/:characterId', async (req, res) => {
    const user = await restUser(services, req);
    const s = await services.stories.storyline(user.id, req.params.characterId, {
      limit: queryValue(req, 'limit'),
      beforeIndex: queryValue(req, 'beforeIndex'),
    });
    res.json({
      id: s.character.id,
      description: s.character.description,
      stats: s.character.stats,
      storyline: {
        chapters: s.storyline.chapters.map(chapterBody),
        current_chapter: s.storyline.currentChapter,
        current_setting: s.storyline.currentSetting,
        total_chapters: s.storyline.totalChapters,
      },
      mission_history: s.missions.map(missionBody),
    });
  });

  // The hero's stakes (issue 31): health, the story's difficulty and what the hero carries.
  r.get('/stakes/:characterId', async (req, res) => {
    const user = await restUser(services, req);
    res.json({ error: null, ...(await services.stories.heroStakes(user.id, req.params.characterId)) });
  });

  r.post('/difficulty', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    const memory = await services.stories.updateStoryMemory(user.id, b.characterId, { difficulty: b.difficulty });
    res.json({ error: null, difficulty: memory.difficulty });
  });

  // The memory bank (Story Memory): list, write, change, forget.
  r.get('/memories/:characterId', async (req, res) => {
    const user = await restUser(services, req);
    const memories = await services.stories.listMemories(user.id, req.params.characterId, {
      limit: numberOrNone(queryValue(req, 'limit')),
      offset: numberOrNone(queryValue(req, 'offset')),
      search: queryValue(req, 'search'),
    });
    res.json({ memories });
  });

  r.post('/memories', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    res.status(201).json({ memory: await services.stories.addMemory(user.id, b.characterId, { kind: b.kind, text: b.text, pinned: b.pinned }) });
  });

  r.put('/memories/:id', async (req, res) => {
    const user = await restUser(services, req);
    const b = body(req);
    res.json({ memory: await services.stories.updateMemory(user.id, b.characterId, req.params.id, { kind: b.kind, text: b.text, pinned: b.pinned }) });
  });

  r.delete('/memories/:id', async (req, res) => {
    const user = await restUser(services, req);
    await services.stories.deleteMemory(user.id, queryValue(req, 'characterId'), req.params.id);
    res.status(204).end();
  });

  // What the storyteller remembered for the latest chapter (?chapterId= for one of the latest three).
  r.get('/remembered/:characterId', async (req, res) => {
    const user = await restUser(services, req);
    res.json({ remembered: await services.stories.remembered(user.id, req.params.characterId, queryValue(req, 'chapterId')) });
  });

  r.get('/export/:characterId', async (req, res) => {
    const user = await restUser(services, req);
    const file = await services.stories.exportStory(user.id, req.params.characterId, queryValue(req, 'format') ?? 'md');
    res.setHeader('Content-Type', file.mimeType);
    res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox");
    res.send(file.content);
  });

  return r;
}

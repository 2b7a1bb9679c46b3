import type { ChapterEvent, ChapterInput, StoryAI } from '../../server/src/ai/story-ai';
import { OfflineStoryAI } from '../../server/src/ai/offline/offline-story-ai';
import { Character } from '../../server/src/modules/characters/character.entity';
import { StoryService, type StoryServiceOptions } from '../../server/src/modules/stories/story.service';
import type { TestApp } from './test-app';

export const BASE_STATS = { strength: 12, agility: 10, endurance: 11, intellect: 14, wisdom: 9, charisma: 13 };

/** A saved character owned by `userId`, in a featured world (inserted directly: no credits spent). */
export async function makeCharacter(t: TestApp, userId: string, stats: Record<string, number> = BASE_STATS): Promise<Character> {
  const ds = t.app.db.dataSource;
  const [w] = (await ds.query(`SELECT id FROM worlds WHERE featured ORDER BY name LIMIT 1`)) as Array<{ id: string }>;
  const repo = ds.getRepository(Character);
  return repo.save(
    repo.create({
      userId,
      worldId: w!.id,
      name: 'Ayla Storm',
      description: 'A wandering cartographer who maps places nobody else dares to visit, with a compass that never points north.',
      stats,
      traits: ['curious', 'stubborn', 'kind'],
      strengths: ['maps', 'climbing'],
      weaknesses: ['impatience'],
      special: { name: 'True Bearing', description: 'Always knows the way back to where she started.' },
    }),
  );
}

/** The offline storyteller with some methods replaced; `calls` records every chapter prompt. */
export function scriptedAI(overrides: Partial<StoryAI> = {}): StoryAI & { calls: ChapterInput[] } {
  const base = new OfflineStoryAI();
  const calls: ChapterInput[] = [];
  const ai: StoryAI & { calls: ChapterInput[] } = {
    kind: 'offline',
    calls,
    generateWorldDescription: (i, o) => base.generateWorldDescription(i, o),
    generateWorldQuestions: (i, o) => base.generateWorldQuestions(i, o),
    generateWorldImage: (i, o) => base.generateWorldImage(i, o),
    generateCharacter: (i, o) => base.generateCharacter(i, o),
    streamChapter: (i, o) => {
      calls.push(i);
      return (overrides.streamChapter ?? base.streamChapter.bind(base))(i, o);
    },
    generateMission: (i, o) => base.generateMission(i, o),
    generateStyles: (i, o) => base.generateStyles(i, o),
    summarize: (i, o) => base.summarize(i, o),
    ...Object.fromEntries(Object.entries(overrides).filter(([k]) => k !== 'streamChapter')),
  };
  return ai;
}

/** Replaces the app's StoryService with one on `ai` (resolvers and REST read services.stories per request). */
export function useStoryAI(t: TestApp, ai: StoryAI, options: Partial<StoryServiceOptions> = {}): StoryService {
  const s = t.app.services;
  const stories = new StoryService(s.dataSource, { config: s.config, ai, limiter: s.limiter }, options);
  s.stories = stories;
  return stories;
}

/** A chapter stream that yields the offline chapter's deltas one by one, each released by `release()`. */
export function gatedStream() {
  const base = new OfflineStoryAI();
  let releases = 0;
  let waiters: Array<() => void> = [];
  let sent = 0;
  let text = '';
  const sentWaiters: Array<{ n: number; resolve: () => void }> = [];
  const bumpSent = () => {
    sent++;
    for (const w of [...sentWaiters]) {
      if (sent < w.n) continue;
      sentWaiters.splice(sentWaiters.indexOf(w), 1);
      w.resolve();
    }
  };
  return {
    /** Allows `n` more deltas (Infinity: all). */
    release(n = 1) {
      releases += n;
      const ws = waiters;
      waiters = [];
      ws.forEach((w) => w());
    },
    /** The text of the deltas yielded so far. */
    text: () => text,
    /** Resolves once `n` deltas have been yielded. */
    yielded(n: number) {
      return sent >= n ? Promise.resolve() : new Promise<void>((resolve) => sentWaiters.push({ n, resolve }));
    },
    async *stream(input: ChapterInput): AsyncIterable<ChapterEvent> {
      let i = 0;
      for await (const ev of base.streamChapter(input)) {
        if (ev.type === 'delta') {
          while (i >= releases) await new Promise<void>((r) => waiters.push(r));
          i++;
          text += ev.text;
          yield ev;
          bumpSent();
        } else {
          while (i >= releases) await new Promise<void>((r) => waiters.push(r));
          yield ev;
        }
      }
    },
  };
}

/**
 * Dice that fall as scripted (StoryServiceOptions.dice): each check takes the next roll, and the
 * last one repeats. Tests decide what a check comes to instead of depending on a chapter's random id.
 */
export function scriptedDice(rolls: number[]): (seed: number) => number {
  let i = 0;
  return () => rolls[Math.min(i++, rolls.length - 1)] ?? 10;
}

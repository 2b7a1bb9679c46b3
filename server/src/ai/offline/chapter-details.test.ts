/**
 * Details a reader trips on: suggested actions read as a player would say them (a person the mission
 * is about is not asked to help with it: "Ask Abigail how to bring proof … to Abigail"), and what a
 * chapter leaves in the memory bank is whole sentences (recalled later, a memory cut mid-word shows).
 */
import { FEATURED_WORLDS } from '../../db/seed-data';
import { collectChapter, type ChapterInput } from '../story-ai';
import { buildWorldMaterial } from '../world-material';
import { groundedWorld } from './grounded';
import { OfflineStoryAI } from './offline-story-ai';

const ai = new OfflineStoryAI();
const world = FEATURED_WORLDS.find((w) => w.name === 'Saltbone Crossing') as (typeof FEATURED_WORLDS)[number];
const material = buildWorldMaterial({ ...world, answers: [] });
const hero = {
  name: 'Mara Vell',
  description: 'A courier.',
  stats: { strength: 10, agility: 12, endurance: 10, intellect: 11, wisdom: 10, charisma: 11 },
  traits: ['Wary'],
};

function input(over: Partial<ChapterInput>): ChapterInput {
  return {
    worldDescription: world.description,
    world: material,
    character: hero,
    mission: null,
    missionAge: 0,
    missionsCompleted: 0,
    pastMissions: [],
    setting: null,
    summary: 'Mara came to the crossing.',
    recentChapters: [{ text: 'Mara came to the crossing.', playerChoice: null }],
    chapterNumber: 5,
    action: null,
    readingLevel: 8,
    seed: 3,
    maxContextTokens: 8000,
    ...over,
  };
}

describe('suggested actions', () => {
  const people = groundedWorld(world.description, material, hero.name).people;

  it.each(people.slice(0, 4))('a mission about %s never asks them to help with it, nor has them talk of it as someone else’s', async (person) => {
    const first = person.split(/\s+/).find((w) => !/^(?:Dr|Doctor|Marshal|Sheriff|Captain|Mother|Father|Sister|Brother)\.?$/.test(w)) as string;
    const mission = `Learn what ${person} is keeping from you about the Red Canyon`;
    for (let n = 3; n < 40; n++) {
      // The player's action names the person, so the chapter is with them; the mission has run long (every suggestion takes it up).
      const { result } = await collectChapter(
        ai.streamChapter(input({ mission, missionAge: 6, pastMissions: [mission], action: `Ask ${first} about the raid`, chapterNumber: n, seed: n })),
      );
      const twice = result.choices.filter((c) => c.split(first).length > 2);
      expect(twice).toEqual([]);
      // Nor do they speak of themselves by name, as if the mission were about someone else.
      const own = [...result.text.matchAll(new RegExp(`“([^”]*)” ${first} `, 'g'))].map((m) => m[1] as string).filter((q) => q.includes(first));
      expect(own).toEqual([]);
    }
  });
});

describe('what a chapter remembers', () => {
  it('is whole: bounded, and never cut mid-word', async () => {
    const long = 'I go after the task by the long way round, past the old mill and the flooded cut, asking everyone I meet about the railroad men';
    for (let n = 2; n < 40; n++) {
      const { result } = await collectChapter(
        ai.streamChapter(
          // Told in the third person past, as memories are kept, so its words can be found in the chapter.
          input({
            mission: 'Find out what the Hargrove Cattle Company wants with the Red Canyon',
            missionAge: 2,
            action: long,
            chapterNumber: n,
            seed: n,
            pointOfView: 'third',
          }),
        ),
      );
      for (const m of result.memories) {
        expect(m.text.length).toBeLessThanOrEqual(200);
        // It ends on a word the chapter wrote whole, with a full stop.
        const last = /([\p{L}'’-]+)\W*$/u.exec(m.text)?.[1] as string;
        expect(m.text).toMatch(/[.!?]$/);
        expect(result.text.replace(/\n/g, ' ')).toMatch(new RegExp(`\\b${last}\\b`));
      }
    }
  });
});

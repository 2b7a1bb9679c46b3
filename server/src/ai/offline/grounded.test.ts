/**
 * The offline storyteller writes from the world's own material (issue 32): 30-chapter stories in
 * featured worlds use the world's people, places and factions, never a phrase the world rules out,
 * never an invented place where the world names its own, and missions from the world's conflicts
 * that are never handed out twice.
 */
import { FEATURED_WORLDS } from '../../db/seed-data';
import type { ChapterCharacter } from '../story-ai';
import { breaksWorld } from '../world-material';
import { OfflineStoryAI } from './offline-story-ai';
import { playOfflineStory } from './test-worlds';
import { shortName } from './world-model';

const hero: ChapterCharacter = {
  name: 'Edmund Hale',
  description: 'A clerk with a long memory.',
  stats: { strength: 9, agility: 10, endurance: 10, intellect: 13, wisdom: 12, charisma: 9 },
  traits: ['Wary', 'Stubborn', 'Kind'],
};
const world = (name: string) => FEATURED_WORLDS.find((w) => w.name === name) as (typeof FEATURED_WORLDS)[number];
const play = (name: string, seed = 3) =>
  playOfflineStory(new OfflineStoryAI(), {
    world: world(name),
    answers: ['A letter from my dead sister Clara', 'My mother, drowned ten years ago'],
    hero,
    chapters: 30,
    seed,
    choose: (n, last) => (last ? (last.choices[n % last.choices.length] as string) : null),
  });

describe('a story grounded in its world', () => {
  it('under forty kilometres of ice there is no sky, sun, storm or horizon, in 30 chapters', async () => {
    const story = await play('The Glass Reef');
    const text = story.chapters.map((c) => c.result.text).join('\n');
    expect(text).not.toMatch(/\b(sky|skyline|suns?|dust storms?|horizon|clouds?)\b/i);
    expect(breaksWorld(text, ['noSky'])).toBe(false);
  });

  it("Hollowmere's story happens among its own places and people, not invented ones", async () => {
    const story = await play('Hollowmere');
    const text = story.chapters.map((c) => c.result.text).join('\n');
    expect(text).toContain('Ravenscar Hall');
    expect(text).toMatch(/Thorne/);
    expect(text).toMatch(/Drowned Choir|Ashworths/);
    // The old storyteller's stock: another genre's court, invented moor names.
    expect(text).not.toMatch(/Thorn Court|Drahmoor|Mormoor|Skelbarrow|Kharfen/);
  });

  it('no brand from another fiction in Neon Requiem; missions name its own corporations', async () => {
    const story = await play('Neon Requiem');
    const text = story.chapters.map((c) => c.result.text).join('\n');
    expect(text).not.toMatch(/Arasaka/i);
    expect(story.missions.some((m) => /Hoshida|Castellan|Veridian/.test(m))).toBe(true);
  });

  it.each(['Hollowmere', 'Saltbone Crossing', 'The Glass Reef', 'Cinderfall'])('in %s no mission is handed out twice', async (name) => {
    const story = await play(name, 11);
    expect(story.missions.length).toBeGreaterThanOrEqual(4);
    expect(new Set(story.missions.map((m) => m.toLowerCase())).size).toBe(story.missions.length);
  });

  it.each(['Hollowmere', 'Saltbone Crossing', 'The Glass Reef', 'Neon Requiem'])(
    'in %s the cast has one person per first name and none with the hero’s surname or a bare title',
    async (name) => {
      const story = await play(name, 5);
      const people = [...new Set(story.chapters.flatMap((c) => c.result.cast.map((m) => m.name)))];
      const firsts = people.map(shortName);
      expect(new Set(firsts).size).toBe(firsts.length);
      expect(people.filter((p) => p !== 'Edmund Hale' && / Hale$/.test(p))).toEqual([]);
      expect(people.filter((p) => !/\s/.test(p) && /^(Dr|Director|Captain|Marshal|Vicar)\.?$/.test(p))).toEqual([]);
    },
  );
});

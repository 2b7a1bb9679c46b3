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
import { GENRES } from './genres';
import { worldDescription } from './world';
import { readWorld, shortName } from './world-model';

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

describe('a cast that holds (issue 32, item 2) and says something new (item 5)', () => {
  it.each(['Hollowmere', 'Neon Requiem', 'Saltbone Crossing', 'The Glass Reef'])(
    'in %s each person keeps one look, one manner and one habit, no look is another’s, and no line is spoken in more than 10% of chapters',
    async (name) => {
      const story = await play(name, 21);
      const texts = story.chapters.map((c) => c.result.text);
      const people = [...new Set(story.chapters.flatMap((c) => c.result.cast.map((m) => shortName(m.name))))];
      const looks = new Map<string, Set<string>>();
      const tags = new Map<string, Set<string>>();
      for (const t of texts) {
        for (const p of people) {
          for (const m of t.matchAll(new RegExp(`(?:^|[.!?;] )${p} ((?:has|is|wears|smells|keeps a scarf)[^.;]*)[.;]`, 'g')))
            looks.set(p, (looks.get(p) ?? new Set()).add(m[1] as string));
          for (const m of t.matchAll(new RegExp(`” ${p} ([a-z]+)`, 'g'))) tags.set(p, (tags.get(p) ?? new Set()).add(m[1] as string));
        }
      }
      // One look per person (told once when met), and no look worn by two people.
      expect(looks.size).toBeGreaterThanOrEqual(2);
      expect(tags.size).toBeGreaterThanOrEqual(2);
      for (const [, l] of looks) expect(l.size).toBeLessThanOrEqual(1);
      const allLooks = [...looks.values()].flatMap((l) => [...l]);
      expect(new Set(allLooks).size).toBe(allLooks.length);
      // A manner of speech is a handful of speech verbs; no one speaks in every manner.
      for (const [, t] of tags) expect(t.size).toBeLessThanOrEqual(3);
      // Lines written for the moment: none recurs in more than 10% of the chapters.
      const lines = new Map<string, number>();
      for (const t of texts) for (const q of new Set(t.match(/“[^”]+”/g) ?? [])) lines.set(q, (lines.get(q) ?? 0) + 1);
      expect(Math.max(...lines.values())).toBeLessThanOrEqual(3);
    },
  );
});

describe('the offline world helper builds on what the player typed', () => {
  it("a city inside a dead god's skeleton is named from its own words, with no borrowed Greek names", () => {
    const d = worldDescription("a city inside a dead god's skeleton", 1200);
    expect(d.startsWith("A city inside a dead god's skeleton.")).toBe(true);
    expect(d).toMatch(/Skeleton|God/);
    expect(d).not.toMatch(/Athene|Delphi|Phaedra|Ithra|nymph|Olymp/i);
    for (const n of (GENRES.find((g) => g.id === 'mythic') as (typeof GENRES)[number]).firstNames) expect(d).not.toContain(n);
  });

  it('a bare genre word still gets a whole world of that genre', () => {
    const d = worldDescription('pirates', 1200);
    expect(d.length).toBeGreaterThan(200);
    expect(readWorld(d).genre.id).toBe('pirate');
  });
});

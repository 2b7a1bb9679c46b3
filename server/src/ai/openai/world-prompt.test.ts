/**
 * The world's own material reaches the model (issue 32, item 1): its places, factions, people and
 * dangers, what cannot happen in it and the player's answers go into every story prompt — the
 * chapter's, the summary's (the same system message, for the prompt cache) and the mission's, which
 * also lists the objectives the story has had.
 */
import { FEATURED_WORLDS } from '../../db/seed-data';
import type { ChapterInput } from '../story-ai';
import { buildWorldMaterial } from '../world-material';
import { chapterMessages, missionMessages, summaryMessages } from './prompts';

const reef = FEATURED_WORLDS.find((w) => w.name === 'The Glass Reef') as (typeof FEATURED_WORLDS)[number];
const world = buildWorldMaterial({
  ...reef,
  answers: reef.questions.map((_, i) => ['A letter from my dead sister', 'A debt I cannot repay'][i % 2] as string),
});
const input: ChapterInput = {
  worldDescription: reef.description,
  character: { name: 'Ayla Storm', description: 'A diver.', stats: { agility: 12 }, traits: ['curious'] },
  mission: null,
  summary: '',
  recentChapters: [],
  chapterNumber: 2,
  action: 'Search the pump room',
  readingLevel: 8,
  seed: 1,
  maxContextTokens: 8000,
  world,
};
const text = (content: unknown) => (typeof content === 'string' ? content : '');

describe('the world material in the prompt', () => {
  it('the chapter prompt names the world’s own places, factions and dangers, what it rules out, and the answers', () => {
    const system = text(chapterMessages(input).messages[0]?.content);
    for (const name of [...(world.places ?? []).slice(0, 2), ...(world.factions ?? []).slice(0, 2), ...(world.threats ?? []).slice(0, 1)])
      expect(system).toContain(name);
    expect(world.constraints?.length).toBeGreaterThan(0);
    expect(system).toContain(world.constraints?.[0] as string);
    expect(system).toContain('A letter from my dead sister');
    // …and the report says it was sent, as part of the world.
    expect(chapterMessages(input).report.sections.find((s) => s.key === 'world')?.text).toContain((world.places ?? [])[0] as string);
  });

  it('a small context sends it too, shorter', () => {
    const small = text(chapterMessages({ ...input, maxContextTokens: 2000 }).messages[0]?.content);
    const large = text(chapterMessages(input).messages[0]?.content);
    expect(small).toContain((world.places ?? [])[0] as string);
    expect(small).toContain('A letter from my dead sister');
    expect(small.length).toBeLessThan(large.length);
  });

  it('the summary shares the chapter prompt’s system message', () => {
    const summary = summaryMessages({
      previousSummary: '',
      chapters: [{ text: 'Ayla went down.', playerChoice: null }],
      story: { worldDescription: reef.description, character: input.character, mission: null, maxContextTokens: 8000, world },
    });
    expect(summary[0]?.content).toBe(chapterMessages(input).messages[0]?.content);
  });

  it('the mission prompt draws on the world and never repeats an objective the story had', () => {
    const m = text(
      missionMessages({
        worldDescription: reef.description,
        character: { name: 'Ayla Storm' },
        world,
        pastMissions: ['Reach the Reef before the tide does'],
      })[1]?.content,
    );
    expect(m).toContain((world.factions ?? [])[0] as string);
    expect(m).toContain('Reach the Reef before the tide does');
  });
});

/**
 * The world's own material reaches the model (issue 32, item 1): its places, factions, people and
 * dangers, what cannot happen in it and the player's answers go into every story prompt — the
 * chapter's, the summary's (the same system message, for the prompt cache) and the mission's, which
 * also lists the objectives the story has had.
 */
import { FEATURED_WORLDS } from '../../db/seed-data';
import { estimateTokens } from '../context-budget';
import { fixedChapterTokens, WORLD_MATERIAL_HEADING, worldMaterialText } from '../prompt-plan';
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
    expect(chapterMessages(input).report.sections.find((s) => s.key === 'world_material')?.text).toContain((world.places ?? [])[0] as string);
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

describe('the world material within the budget', () => {
  const chapter = (n: number, lines: number) =>
    Array.from({ length: lines }, (_, k) => `Line ${k} of chapter ${n}: Ayla follows the pump pipes down past the ice to the flooded galleries.`).join(' ');
  const full = (lines: number): ChapterInput => ({
    ...input,
    maxContextTokens: 2000,
    chapterNumber: 9,
    plotEssentials: 'The pumps were sabotaged from inside the station.',
    summary: Array.from({ length: 30 }, (_, k) => `Ayla learned secret ${k} of the reef.`).join(' '),
    recentChapters: Array.from({ length: 8 }, (_, i) => ({ text: chapter(i + 1, lines), playerChoice: `Search deck ${i + 1}` })),
    memories: Array.from({ length: 24 }, (_, i) => ({
      kind: 'event',
      text: `In chapter ${i + 1} a hatch on deck ${i} was found open.`,
      chapterNumber: i + 1,
      pinned: false,
    })),
    castList: Array.from({ length: 10 }, (_, i) => ({ name: `Diver ${i}`, role: 'diver' })),
  });

  // Chapters of every length from a few lines to more than the history's share: the plan's items
  // land at different places against the budget, and the wrapping around them must still fit.
  it.each(Array.from({ length: 16 }, (_, i) => i + 2))(
    'on the Free tier, chapters of %i lines: the prompt, counted as sent, fits with the answer’s room',
    (lines) => {
      const p = chapterMessages(full(lines));
      const sent = p.messages.reduce((n, m) => n + estimateTokens(text(m.content)) + 4, 0);
      expect(text(p.messages[0]?.content)).toContain(WORLD_MATERIAL_HEADING);
      expect(sent).toBe(p.report.promptTokens);
      expect(sent + p.maxTokens).toBeLessThanOrEqual(2000);
      // …and the room is used, not given away.
      expect(sent + p.maxTokens).toBeGreaterThan(1850);
    },
  );

  it('the engine’s fixed part counts the world block with its heading', () => {
    const without = fixedChapterTokens({ ...full(8), world: undefined });
    const material = worldMaterialText(world, true);
    expect(fixedChapterTokens(full(8)) - without).toBe(estimateTokens(`${WORLD_MATERIAL_HEADING}\n<<<\n${material}\n>>>`));
    expect(fixedChapterTokens(full(8)) - without).toBeGreaterThan(estimateTokens(material));
  });
});

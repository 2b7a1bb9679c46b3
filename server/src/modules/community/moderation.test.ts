import { FakeOpenAIServer } from '../../ai/openai/fake-openai-server';
import { createLogger } from '../../common/logger';
import { batches, createModeration, localCheck } from './moderation';

/**
 * The local check runs when no moderation endpoint can decide. It must catch what no story platform
 * publishes, through the usual disguises, and let dark fiction through: a storyteller's villains,
 * wars and plagues are not abuse.
 */
describe('the local moderation check', () => {
  it.each([
    ['sexual content with a minor', 'The lessons include sexual acts with the 12-year-old pupils.', 'sexual/minors'],
    ['the same with an age in words', 'an erotic tale about a schoolgirl', 'sexual/minors'],
    ['touching a child', 'he fondled the child', 'sexual/minors'],
    ['a slur spelled out with spaces', 'N i g g e r town', 'hate'],
    ['a slur with digits for letters', 'those f4gg0ts in the capital', 'hate'],
    ['a slur behind accents and zero-width spaces', 'K\u200bíkes run the bank', 'hate'],
  ])('flags %s', (_what, text, category) => {
    expect(localCheck([text])).toMatchObject({ flagged: true, categories: [category], source: 'local' });
  });

  it.each([
    'Warlords burn villages, the dead rise and children hide from the plague.',
    'The assassin slits the tyrant’s throat and flees across the rooftops.',
    'A romance between two sailors, told with a fade to black.',
    'Kids race paper boats down the gutters of Harbour Street.',
    'The Spice Road runs past Chinkara Hill and the town of Scunthorpe.',
    // The offline storyteller's kind speakers say both (a published story was refused for it).
    '“Child, sit a moment,” the nurse murmured, almost fondly.',
  ])('lets dark or innocent fiction through: %s', (text) => {
    expect(localCheck([text, 'Who are you?'])).toEqual({ flagged: false, categories: [], source: 'local' });
  });

  it('reads every text together: a name and a description can make the case between them', () => {
    expect(localCheck(['Nursery of the Damned', 'nude portraits of the children of the court']).categories).toEqual(['sexual/minors']);
  });
});

describe('the moderation endpoint', () => {
  it('sends a long story in parts under the input limit, in order, and stops at the first flagged part', async () => {
    const fake = new FakeOpenAIServer();
    const baseUrl = await fake.start();
    try {
      const verdict = (flagged: boolean) => ({
        kind: 'raw' as const,
        handler: (_req: unknown, res: import('node:http').ServerResponse) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 'modr', model: 'm', results: [{ flagged, categories: { violence: flagged }, category_scores: {} }] }));
        },
      });
      fake.push(verdict(false), verdict(true), verdict(false));
      const moderation = createModeration(
        { apiKey: 'sk-test', baseUrl, model: 'omni-moderation-latest', timeoutMs: 5000 },
        createLogger({ logLevel: 'silent' }),
      );
      const chapter = (n: number) => `Chapter ${n}. ${'The tide rose over the harbour. '.repeat(800)}`; // ~25k characters each
      const verdictOf = await moderation.check(['Mira Vale', ...[1, 2, 3, 4, 5].map(chapter)]);
      expect(verdictOf).toEqual({ flagged: true, categories: ['violence'], source: 'openai' });
      expect(fake.requests).toHaveLength(2);
      for (const r of fake.requests) expect((r.body.input as string[]).join('').length).toBeLessThanOrEqual(40_000);
      expect((fake.requests[0]!.body.input as string[])[0]).toBe('Mira Vale');
    } finally {
      await fake.stop();
    }
  });

  it('groups texts into parts without losing or reordering a character', () => {
    const texts = ['a'.repeat(7), 'b'.repeat(3), 'c'.repeat(12)];
    const parts = batches(texts, 10);
    expect(parts.every((p) => p.join('').length <= 10)).toBe(true);
    expect(parts.flat().join('')).toBe(texts.join(''));
  });
});

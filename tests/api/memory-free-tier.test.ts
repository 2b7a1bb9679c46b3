import { estimateTokens } from '../../server/src/ai/context-budget';
import type { FakeOpenAIServer, RecordedRequest } from '../../server/src/ai/openai/fake-openai-server';
import { chapterAnswer } from '../../server/src/ai/openai/fake-openai-server';
import { createLogger } from '../../server/src/common/logger';
import { StoryService } from '../../server/src/modules/stories/story.service';
import { makeCharacter } from '../support/story-fixtures';
import { signUp, startWithFakeModel, type TestApp } from '../support/test-app';

/**
 * Sixteen chapters on the Free tier (a 2,000-token context) against an OpenAI-compatible server,
 * judged by what the server received (issue 30, "done when"): from chapter 4 on every chapter prompt
 * holds the plot essentials, every pinned card with its description, a summary and the previous
 * chapter's tail; a fact the player wrote in chapter 3 reaches the prompt of chapter 16, whose action
 * asks for it; every summary folded is sent; every call says how long its answer may be; no prompt
 * outgrows the tier.
 */
jest.setTimeout(120_000);

const ESSENTIALS = 'ESSENTIALS-MARKER: the tide under Harrowgate is alive and keeps a ledger of debts.';
const PINNED = 'PINNED-DESCRIPTION Ilse keeps the lighthouse logbook, lies about the tides and owes the hero her life.';
const HIDE = 'I hide the brass key under the blue stone by the old well';
const FETCH = 'I go back to the old well and lift the blue stone to take the brass key';
const ACTIONS = [
  '',
  'Follow the lamplighter down to the pier',
  HIDE,
  'Ask the ferryman about the drowned bells',
  'Climb the lighthouse stairs',
  'Read the logbook by candlelight',
  'Bargain with the tide-priest',
  'Search the net-mender’s shed',
  'Row out to the sunken chapel',
  'Listen at the chapel door',
  'Light a signal fire on the rocks',
  'Warn the harbourmaster about the flood',
  'Follow the gulls to the salt flats',
  'Dig where the gulls circle',
  'Return to the village square',
  FETCH,
];

/** A chapter of ~190 words whose last line names it, so its tail can be found in the next prompt. */
function prose(n: number): string {
  const p = (k: number) =>
    `The wind came off the water in long grey sheets and chapter ${n} went on, passage ${k}, past the tarred huts and the upturned boats where the net-menders sat without speaking.`;
  return `${p(1)} ${p(2)}\n\n${p(3)} ${p(4)}\n\n${p(5)} TAIL-${n}: the lamp swung once toward the harbour and went still.`;
}

function respond(fake: FakeOpenAIServer, summaries: string[]) {
  fake.respond = (body) => {
    const messages = body.messages as Array<{ role: string; content: string }>;
    const last = messages[messages.length - 1]!.content;
    if (body.stream) {
      const n = Number(/CHAPTER (\d+):/.exec(last)?.[1] ?? 0);
      return {
        kind: 'sse',
        pieces: [
          chapterAnswer({
            text: prose(n),
            choices: ['Go on', 'Turn back', 'Wait'],
            memories: [{ kind: 'event', text: `In chapter ${n} the bells of Harrowgate rang ${n} times under the water.` }],
          }),
        ],
      };
    }
    if (/Update the running summary/.test(last)) {
      const summary = `SUMMARY-MARKER-${summaries.length + 1}: the hero came to Harrowgate, met Ilse, and the tide began to rise against the village.`;
      summaries.push(summary);
      return { kind: 'json', content: JSON.stringify({ summary }) };
    }
    return null;
  };
}

const chapterNumberOf = (r: RecordedRequest) => {
  const messages = r.body.messages as Array<{ content: string }>;
  return Number(/CHAPTER (\d+):/.exec(messages[messages.length - 1]!.content)?.[1]);
};

let t: TestApp;
let fake: FakeOpenAIServer;
/** What the story service logged (info and up). */
const logged: Array<Record<string, unknown>> = [];
beforeAll(async () => {
  ({ t, fake } = await startWithFakeModel());
  // The app's story service, with a logger that keeps its lines.
  const s = t.app.services;
  const sink = { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) };
  s.stories = new StoryService(s.dataSource, {
    config: s.config,
    ai: s.ai,
    limiter: s.limiter,
    logger: createLogger({ logLevel: 'info' }, sink),
    onPromptReport: s.metrics.observePrompt,
  });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

it('plays 16 Free-tier chapters: memory reaches every prompt within 2,000 tokens, and the fact of chapter 3 comes back in chapter 16', async () => {
  const summaries: string[] = [];
  respond(fake, summaries);
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  expect((await t.gql('{ subscriptionStatus { maxContextTokens } }', {}, p.accessToken)).data!.subscriptionStatus.maxContextTokens).toBe(2000);
  const card = await t.gql(
    'mutation($c: ID!, $i: StoryCardInput!) { createStoryCard(characterId: $c, input: $i) { id } }',
    { c: c.id, i: { name: 'Ilse Varn', role: 'lighthouse keeper', description: PINNED, pinned: true } },
    p.accessToken,
  );
  expect(card.errors).toBeUndefined();
  expect(
    (
      await t.gql(
        'mutation($c: ID!, $i: StoryMemoryInput!) { updateStoryMemory(characterId: $c, input: $i) { plotEssentials } }',
        { c: c.id, i: { plotEssentials: ESSENTIALS } },
        p.accessToken,
      )
    ).errors,
  ).toBeUndefined();

  for (const [i, userChoice] of ACTIONS.entries()) {
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice }, p.accessToken);
    expect([i, r.status]).toEqual([i, 200]);
    // Folds run after a commit, in the background: let each land before the next chapter starts.
    await t.app.services.stories.idle();
  }

  const chapters = fake.requests.filter((r) => r.body.stream === true);
  expect(chapters.map(chapterNumberOf)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  for (const r of chapters) {
    const n = chapterNumberOf(r);
    const messages = r.body.messages as Array<{ content: string }>;
    const text = messages.map((m) => m.content).join('\n');
    // Within the tier: the prompt and the answer's room together.
    const promptTokens = messages.reduce((sum, m) => sum + estimateTokens(m.content) + 4, 0);
    expect([n, promptTokens + Number(r.body.max_tokens)]).toEqual([n, expect.any(Number)]);
    expect(promptTokens + Number(r.body.max_tokens)).toBeLessThanOrEqual(2000);
    if (n < 4) continue;
    expect([n, text.includes(ESSENTIALS)]).toEqual([n, true]);
    expect([n, text.includes(PINNED)]).toEqual([n, true]);
    expect([n, /STORY SO FAR[\s\S]*SUMMARY-MARKER-\d+/.test(text)]).toEqual([n, true]);
    expect([n, text.includes(`TAIL-${n - 1}: the lamp swung once toward the harbour and went still.`)]).toEqual([n, true]);
  }
  // The fact the player wrote in chapter 3 reaches chapter 16, whose action asks for it.
  const sixteen = chapters[15]!;
  expect(JSON.stringify(sixteen.body.messages)).toContain(HIDE);
  // Every summary the server was asked for was sent with a later chapter (none paid for and dropped).
  expect(summaries.length).toBeGreaterThan(0);
  for (const s of summaries.slice(0, -1)) expect(chapters.some((r) => JSON.stringify(r.body.messages).includes(s))).toBe(true);
  // Every call says how long its answer may be.
  for (const r of fake.requests) expect([r.url, r.body.max_tokens ?? r.body.max_completion_tokens]).toEqual([r.url, expect.any(Number)]);
  // What the storyteller remembered for the latest chapter, as the player opens it: every section is
  // in the request chapter 16 was written from, exactly as sent, and the omissions say why.
  const remembered = await t.gql(
    `query($id: ID!) { character(id: $id) { remembered { chapterIndex provider model maxContextTokens reservedTokens promptTokens
       sections { key title tokens text } omitted { section what tokens reason } } } }`,
    { id: c.id },
    p.accessToken,
  );
  expect(remembered.errors).toBeUndefined();
  const report = remembered.data!.character.remembered as {
    chapterIndex: number;
    provider: string;
    maxContextTokens: number;
    reservedTokens: number;
    promptTokens: number;
    sections: Array<{ key: string; title: string; tokens: number; text: string }>;
    omitted: Array<{ section: string; what: string; reason: string }>;
  };
  expect(report).toMatchObject({ chapterIndex: 15, provider: 'openai', maxContextTokens: 2000, reservedTokens: Number(sixteen.body.max_tokens) });
  expect(report.sections.map((s) => s.key)).toEqual(
    expect.arrayContaining(['rules', 'world', 'essentials', 'pinned_cards', 'summary', 'memories', 'history', 'action']),
  );
  const sent = (sixteen.body.messages as Array<{ content: string }>).map((m) => m.content).join('\n');
  for (const s of report.sections) {
    expect([s.key, sent.includes(s.text)]).toEqual([s.key, true]);
    expect(s.tokens).toBeGreaterThan(0);
  }
  expect(report.sections.find((s) => s.key === 'pinned_cards')!.text).toContain(PINNED);
  expect(report.sections.find((s) => s.key === 'memories')!.text).toContain(HIDE);
  expect(report.promptTokens).toBeGreaterThanOrEqual(report.sections.reduce((n, s) => n + s.tokens, 0) * 0.9);
  expect(report.omitted.length).toBeGreaterThan(0);
  for (const o of report.omitted) expect(o.reason).toMatch(/\w{3}/);
  // The same on REST; an older chapter keeps none (only the latest three do).
  const rest = await t.rest('GET', `/api/stories/remembered/${c.id}`, undefined, p.accessToken);
  expect(rest.status).toBe(200);
  expect(rest.body.remembered).toEqual(expect.objectContaining({ chapterIndex: 15, sections: report.sections, omitted: report.omitted }));
  const [old] = (await t.app.db.dataSource.query(`SELECT id FROM chapters WHERE character_id = $1 AND "index" = 5`, [c.id])) as Array<{ id: string }>;
  expect((await t.rest('GET', `/api/stories/remembered/${c.id}?chapterId=${old!.id}`, undefined, p.accessToken)).body).toEqual({ remembered: null });
  // A stranger sees nothing of it.
  const stranger = await signUp(t);
  expect((await t.rest('GET', `/api/stories/remembered/${c.id}`, undefined, stranger.accessToken)).status).toBe(404);
  // The same data for operators: a log line per chapter and the metrics.
  const lines = logged.filter((l) => l.msg === 'chapter prompt');
  expect(lines).toHaveLength(16);
  expect(lines.at(-1)).toMatchObject({ promptTokens: report.promptTokens, maxContextTokens: 2000 });
  expect((lines.at(-1)!.sections as Record<string, number>).pinned_cards).toBe(report.sections.find((s) => s.key === 'pinned_cards')!.tokens);
  expect(JSON.stringify(lines)).not.toContain('PINNED-DESCRIPTION'); // counts and reasons, never the story's words
  const metrics = await (await fetch(`${t.url}/metrics`)).text();
  expect(metrics).toMatch(/taleforge_prompt_section_tokens_count\{provider="openai",section="pinned_cards"\} 16/);
  expect(metrics).toMatch(/taleforge_prompt_fill_ratio_count\{provider="openai"\} 16/);
  expect(metrics).toMatch(/taleforge_prompt_omissions_total\{provider="openai",section="[a-z_]+"\} [1-9]/);
});

/**
 * The OpenAI-compatible provider against a scripted server (fake-openai-server.ts), no network:
 * structured outputs with repair and retries, transport errors and time limits, streamed chapters and
 * what their prompts hold, images and styles, and choosing the provider.
 */
import sharp from 'sharp';
import { AppError } from '../../common/app-error';
import { createStoryAI } from '../index';
import { OfflineStoryAI } from '../offline/offline-story-ai';
import { collectChapter, type ChapterEvent, type ChapterInput, type Usage } from '../story-ai';
import { DEFAULT_STYLES } from '../style-guard';
import { chapterProfile } from '../prompt-plan';
import { chapterAnswer, FakeOpenAIServer, splitInto } from './fake-openai-server';
import { JsonTextFieldStream } from './json-text-stream';
import { OpenAIStoryAI, type OpenAIProviderOptions } from './openai-story-ai';

const server = new FakeOpenAIServer();
let baseUrl = '';
beforeAll(async () => {
  baseUrl = await server.start();
});
afterAll(() => server.stop());
beforeEach(() => server.reset());

function provider(extra: Partial<OpenAIProviderOptions> = {}, usage: Usage[] = []): OpenAIStoryAI {
  return new OpenAIStoryAI({ apiKey: 'sk-test', baseUrl, model: 'test-model', timeoutMs: 2000, retryBaseDelayMs: 5, onUsage: (u) => usage.push(u), ...extra });
}

type Msg = { role: string; content: string };
const messagesOf = (i: number) => server.requests[i]?.body.messages as Msg[];

const chapterText =
  'Mara pushed the heavy door open and stepped into the drowned archive of Varnholt. Water dripped from the vaulted ceiling, and somewhere below, the tide breathed in and out like a sleeping animal. She followed the line of lanterns to the reading room, where Queen Maelis waited with her hands folded.\n\n"You came," the queen said. "Then the key is still within reach." Mara told her what she had found in the flooded stacks: a map, a name, and a warning scratched into the shelf by someone who had not made it out. The queen listened without interrupting, and when Mara finished she was quiet for a long moment.\n\n"Then we go tonight," she said at last. Mara nodded. The key to the sea gate lay somewhere beneath them, and every hour the water rose a little higher. Café lights flickered \u00e9 on the far shore.';
const validChapter = {
  text: chapterText,
  choices: ['Descend into the flooded stacks', 'Ask Maelis about the warning', 'Wait for low tide'],
  statIncreases: [{ stat: 'wisdom', amount: 1 }],
  newSetting: null,
  missionCompleted: false,
  newMission: null,
};

const chapterInput = (over: Partial<ChapterInput> = {}): ChapterInput => ({
  worldDescription: 'WORLD-MARKER: In the drowned city of Varnholt, Queen Maelis bargains with the tide.',
  character: {
    name: 'Mara',
    description: 'A diver with a grudge.',
    stats: { strength: 10, agility: 12, endurance: 9, intellect: 11, wisdom: 10, charisma: 8 },
    traits: ['Brave'],
    special: { name: 'Deep Breath', description: 'Holds breath for minutes.' },
  },
  mission: 'Find the key to the sea gate',
  setting: null,
  summary: 'Mara arrived in Varnholt.',
  recentChapters: [{ text: 'The boat reached the harbour at dusk.', playerChoice: 'Row to the harbour' }],
  chapterNumber: 3,
  action: 'ACTION-MARKER: open the archive door',
  readingLevel: 8,
  seed: 1,
  maxContextTokens: 8000,
  ...over,
});

describe('OpenAI provider: structured outputs', () => {
  it('sends the model and a strict json_schema derived from zod, and validates the answer', async () => {
    const usage: Usage[] = [];
    server.push({ kind: 'json', content: JSON.stringify({ questions: ['Who are you?', 'What do you seek', 'Whom do you trust?'] }) });
    const r = await provider({}, usage).generateWorldQuestions({ worldDescription: 'A world of tides.' });
    expect(r.questions).toEqual(['Who are you?', 'What do you seek?', 'Whom do you trust?']);
    const req = server.requests[0];
    expect(req?.url).toBe('/v1/chat/completions');
    expect(req?.headers.authorization).toBe('Bearer sk-test');
    expect(req?.body.model).toBe('test-model');
    const rf = req?.body.response_format as {
      type: string;
      json_schema: {
        name: string;
        strict: boolean;
        schema: { properties: Record<string, { minItems?: number; maxItems?: number }>; required: string[]; additionalProperties: boolean };
      };
    };
    expect(rf.type).toBe('json_schema');
    expect(rf.json_schema.strict).toBe(true);
    expect(rf.json_schema.schema.required).toEqual(['questions']);
    expect(rf.json_schema.schema.additionalProperties).toBe(false);
    // The strict subset: no numeric or length limits anywhere (strict mode has rejected them)…
    expect(JSON.stringify(rf.json_schema)).not.toMatch(/"(minimum|maximum|minLength|maxLength|minItems|maxItems)"/);
    expect(rf.json_schema.schema.properties.questions).not.toHaveProperty('minItems');
    expect(usage).toEqual([
      expect.objectContaining({ provider: 'openai', operation: 'worldQuestions', promptTokens: 120, completionTokens: 80, cachedPromptTokens: 64, attempt: 1 }),
    ]);
  });

  it('repairs malformed JSON with one follow-up request carrying the bad reply and the issues', async () => {
    server.push({ kind: 'json', content: '{"objective": "Find the key' }, { kind: 'json', content: '{"objective":"Find the key to the sea gate"}' });
    const r = await provider().generateMission({ worldDescription: 'W', character: { name: 'Mara' } });
    expect(r.objective).toBe('Find the key to the sea gate');
    expect(server.requests).toHaveLength(2);
    const repair = messagesOf(1);
    expect(repair[repair.length - 2]).toEqual({ role: 'assistant', content: '{"objective": "Find the key' });
    expect(repair[repair.length - 1]?.content).toMatch(/not valid JSON/);
  });

  it('repairs schema violations, then retries fresh, then fails with GENERATION_FAILED after 4 requests', async () => {
    const bad = JSON.stringify({ questions: ['only one?'] });
    server.push({ kind: 'json', content: bad }, { kind: 'json', content: bad }, { kind: 'json', content: 'nope' }, { kind: 'json', content: bad });
    const err = await provider()
      .generateWorldQuestions({ worldDescription: 'W' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('GENERATION_FAILED');
    expect((err as AppError).message).toMatch(/invalid worldQuestions/);
    expect(server.requests).toHaveLength(4);
    expect(messagesOf(1)[messagesOf(1).length - 1]?.content).toMatch(/questions/);
    // The fresh attempt starts from the original prompt again.
    expect(messagesOf(2)).toEqual(messagesOf(0));
  });

  it('…while the limits still hold locally: too few questions get a repair request', async () => {
    server.push(
      { kind: 'json', content: JSON.stringify({ questions: ['Who are you?'] }) },
      { kind: 'json', content: JSON.stringify({ questions: ['Who are you?', 'Where from?', 'Why now?'] }) },
    );
    expect((await provider().generateWorldQuestions({ worldDescription: 'A world of tides.' })).questions).toHaveLength(3);
    expect(server.requests).toHaveLength(2);
  });

  it('angle brackets in text fields become ‹ › (plain text, never markup) without another call', async () => {
    server.push({ kind: 'json', content: JSON.stringify({ summary: 'Mara <script>alert(1)</script> won, hearts <3.' }) });
    expect((await provider().summarize({ previousSummary: '', chapters: [{ text: 'x' }] })).summary).toBe('Mara ‹script›alert(1)‹/script› won, hearts ‹3.');
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the player-chosen username on generated characters', async () => {
    server.push({
      kind: 'json',
      content: JSON.stringify({
        username: 'SomeoneElse',
        stats: { strength: 12, agility: 9, endurance: 10, intellect: 14, wisdom: 11, charisma: 8 },
        description: 'A long description of the character that is more than eighty characters long, for sure, really.',
        traits: ['Brave', 'Curious', 'Stubborn'],
        strengths: ['Sharp', 'Patient'],
        weaknesses: ['Proud'],
        special: { name: 'Keen Eye', description: 'Spots what others miss.' },
      }),
    });
    const c = await provider().generateCharacter({ worldDescription: 'W', questions: ['Q?'], answers: ['A'], username: 'Mara' });
    expect(c.username).toBe('Mara');
    const content = messagesOf(0)
      .map((m) => m.content)
      .join('\n');
    expect(content).toContain('<<<\nA\n>>>');
  });
});

describe('OpenAI provider: transport', () => {
  it('retries 429 honouring retry-after-ms, then succeeds', async () => {
    server.push({ kind: 'status', status: 429, headers: { 'retry-after-ms': '150' } }, { kind: 'json', content: '{"objective":"Go north now"}' });
    const t0 = performance.now();
    const r = await provider().generateMission({ worldDescription: 'W', character: { name: 'M' } });
    expect(r.objective).toBe('Go north now');
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('does not wait for a Retry-After beyond the bound: fails fast with retryAfterSeconds', async () => {
    server.push({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    const err = (await provider({ maxRetryDelayMs: 1000 })
      .generateMission({ worldDescription: 'W', character: { name: 'M' } })
      .catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('GENERATION_FAILED');
    expect(err.details).toMatchObject({ status: 429, retryAfterSeconds: 120 });
    expect(server.requests).toHaveLength(1);
  });

  it('retries 500 a bounded number of times, then raises GENERATION_FAILED with the status', async () => {
    server.fallback = { kind: 'status', status: 500 };
    const err = (await provider({ maxRetries: 2 })
      .generateMission({ worldDescription: 'W', character: { name: 'M' } })
      .catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('GENERATION_FAILED');
    expect(err.message).toMatch(/HTTP 500/);
    expect(err.details).toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(3);
  });

  it('a whole non-streamed call has its own limit: a slow model still answers when the chunk limit is short', async () => {
    server.push({ kind: 'json', content: '{"objective":"Find the key to the sea gate"}', delayMs: 700 });
    const r = await provider({ timeoutMs: 300, callTimeoutMs: 3000 }).generateMission({ worldDescription: 'W', character: { name: 'M' } });
    expect(r.objective).toBe('Find the key to the sea gate');
  });

  it('times out a request that never answers, without retrying it', async () => {
    server.push({ kind: 'hang' });
    const t0 = performance.now();
    const err = (await provider({ timeoutMs: 300, callTimeoutMs: 300 })
      .generateMission({ worldDescription: 'W', character: { name: 'M' } })
      .catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('GENERATION_FAILED');
    expect(err.details).toMatchObject({ reason: 'timeout' });
    expect(err.message).toMatch(/did not answer/);
    expect(performance.now() - t0).toBeLessThan(1500);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry 401 and says what to check', async () => {
    server.fallback = { kind: 'status', status: 401, body: { error: { message: 'bad key' } } };
    const err = (await provider()
      .generateMission({ worldDescription: 'W', character: { name: 'M' } })
      .catch((e: unknown) => e)) as AppError;
    expect(err.message).toMatch(/OPENAI_API_KEY/);
    expect(server.requests).toHaveLength(1);
  });

  it('reports an unreachable server as GENERATION_FAILED', async () => {
    const ai = new OpenAIStoryAI({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2000, maxRetries: 1, retryBaseDelayMs: 5 });
    const err = (await ai.generateMission({ worldDescription: 'W', character: { name: 'M' } }).catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.message).toMatch(/Could not reach/);
  });
});

describe('OpenAI provider: streamed chapters', () => {
  const answer = chapterAnswer(validChapter);

  it('streams the prose as it arrives, shows the next actions before the record is written, and validates the record', async () => {
    server.push({ kind: 'sse', pieces: splitInto(answer, 7), gapMs: 0 });
    const usage: Usage[] = [];
    const events: ChapterEvent[] = [];
    for await (const ev of provider({}, usage).streamChapter(chapterInput())) events.push(ev);
    const deltas = events.filter((e): e is Extract<ChapterEvent, { type: 'delta' }> => e.type === 'delta');
    const final = events[events.length - 1] as Extract<ChapterEvent, { type: 'final' }>;
    expect(deltas.length).toBeGreaterThan(20);
    expect(deltas.map((d) => d.text).join('')).toBe(chapterText);
    // No marker, no list, no JSON ever reaches the reader.
    for (const d of deltas) expect(d.text).not.toMatch(/###|\{"/);
    // Each action as soon as its line is written: the list grows, and is whole before the record.
    const lists = events.filter((e) => e.type === 'choices').map((e) => (e as { choices: string[] }).choices);
    expect(lists).toEqual(validChapter.choices.map((_, i) => validChapter.choices.slice(0, i + 1)));
    expect(events.findLastIndex((e) => e.type === 'choices')).toBeLessThan(events.length - 1);
    expect(final.type).toBe('final');
    expect(final.result).toMatchObject({ text: chapterText, choices: validChapter.choices, statIncreases: { wisdom: 1 } });
    expect(final.usage[0]).toMatchObject({ operation: 'chapter', totalTokens: 200, cachedPromptTokens: 64 });
    const body = server.requests[0]?.body as { stream: boolean; stream_options: { include_usage: boolean }; response_format?: unknown };
    expect(body.stream).toBe(true);
    expect(body.stream_options.include_usage).toBe(true);
    // Prose is asked for as prose: no JSON mode for the chapter call.
    expect(body.response_format).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("the record's memories, items and health come through; a record that leaves the newer fields out is not wrong", async () => {
    server.push({
      kind: 'sse',
      pieces: [
        chapterAnswer({
          ...validChapter,
          memories: [{ kind: 'place', text: 'The key to the sea gate hangs in the drowned archive.' }, 'Maelis owes Mara a favour.'],
          itemsGained: [{ name: 'Brass lantern', description: 'A dented lantern from the reading room.' }],
          healthRestored: 2,
        }),
      ],
    });
    const { result } = await collectChapter(provider().streamChapter(chapterInput()));
    expect(result.memories).toEqual([
      { kind: 'place', text: 'The key to the sea gate hangs in the drowned archive.' },
      { kind: 'event', text: 'Maelis owes Mara a favour.' },
    ]);
    expect(result.itemsGained).toEqual([{ name: 'Brass lantern', description: 'A dented lantern from the reading room.' }]);
    expect(result.healthRestored).toBe(2);
    server.reset();
    const old = `${chapterText}\n\n### NEXT\n1. Go on\n2. Turn back\n3. Wait\n\n### RECORD\n${JSON.stringify({ statIncreases: [], newSetting: null, missionCompleted: false, newMission: null, cast: [] })}`;
    server.push({ kind: 'sse', pieces: [old] });
    expect((await collectChapter(provider().streamChapter(chapterInput()))).result).toMatchObject({ memories: [], itemsGained: [], healthRestored: 0 });
    expect(server.requests).toHaveLength(1);
  });

  it('a model that answers the old way, the whole chapter as one JSON object, still streams its text', async () => {
    const raw = JSON.stringify(validChapter);
    server.push({ kind: 'sse', pieces: splitInto(raw, 7), gapMs: 0 });
    const { result, deltas } = await collectChapter(provider().streamChapter(chapterInput()));
    expect(deltas.length).toBeGreaterThan(20);
    expect(deltas.join('')).toBe(chapterText);
    expect(result).toMatchObject({ text: chapterText, choices: validChapter.choices, statIncreases: { wisdom: 1 } });
    expect(server.requests).toHaveLength(1);
  });

  it('yields the first delta before the stream ends', async () => {
    server.push({ kind: 'sse', pieces: splitInto(answer, 40), gapMs: 15 });
    const t0 = performance.now();
    let first = 0;
    let end = 0;
    for await (const ev of provider().streamChapter(chapterInput())) {
      if (ev.type === 'delta' && !first) first = performance.now() - t0;
      if (ev.type === 'final') end = performance.now() - t0;
    }
    expect(first).toBeLessThan(end / 3);
  });

  it('puts the stable prefix (rules, world, character) first and the action last, identical across turns', async () => {
    server.push({ kind: 'sse', pieces: [answer] }, { kind: 'sse', pieces: [answer] });
    const ai = provider();
    await collectChapter(ai.streamChapter(chapterInput()));
    await collectChapter(
      ai.streamChapter(
        chapterInput({ chapterNumber: 4, action: 'ACTION-MARKER: swim down', recentChapters: [{ text: chapterText, playerChoice: 'open the archive door' }] }),
      ),
    );
    const a = messagesOf(0);
    const b = messagesOf(1);
    expect(a[0]?.role).toBe('system');
    expect(a[0]).toEqual(b[0]);
    expect(a[0]?.content).toContain('WORLD-MARKER');
    const flat = a.map((m) => m.content).join('\n');
    expect(flat.indexOf('WORLD-MARKER')).toBeLessThan(flat.indexOf('Mara'));
    expect(flat.lastIndexOf('ACTION-MARKER')).toBeGreaterThan(flat.indexOf('Find the key'));
    // The history as turns: the earlier action as the player's, the chapter as the storyteller's own prose.
    expect(b.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(b[1]?.content).toContain('open the archive door');
    expect(b[2]?.content).toBe(chapterText);
    expect(b[b.length - 1]?.content).toContain('ACTION-MARKER');
  });

  it("the craft, then after the story the chapter's rules (second person, length), then the turn; strengths, weaknesses and stat meanings are in", async () => {
    server.push({ kind: 'sse', pieces: [answer] });
    const input = chapterInput();
    input.character = { ...input.character, strengths: ['STRENGTH-MARKER'], weaknesses: ['WEAKNESS-MARKER'] };
    input.plotEssentials = 'ESSENTIALS-MARKER';
    input.authorsNote = 'NOTE-MARKER';
    await collectChapter(provider({ temperature: 0.8, topP: 0.95, presencePenalty: 0.3 }).streamChapter(input));
    const m = messagesOf(0);
    // Strictly alternating, one system message first: the chat templates of many open models refuse anything else.
    expect(m.map((x) => x.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const turn = m[m.length - 1]!.content as string;
    expect(turn).toMatch(/second person, present tense/);
    expect(turn).not.toMatch(/Name the character/);
    expect(m[0]!.content).toMatch(/Never speak, decide or feel for the player character/);
    expect(m[0]!.content).toMatch(/Actions can fail or cost something/);
    const flat = m.map((x) => x.content).join('\n');
    expect(flat).toContain('STRENGTH-MARKER');
    expect(flat).toContain('WEAKNESS-MARKER');
    expect(flat).toMatch(/agility speed and dexterity/);
    // Plot essentials open the story (before the earlier chapters); the author's note is in the turn after the rules, right before the action.
    expect(m[1]!.content).toContain('ESSENTIALS-MARKER');
    expect(turn.indexOf('second person')).toBeLessThan(turn.indexOf('NOTE-MARKER'));
    expect(turn.indexOf('NOTE-MARKER')).toBeLessThan(turn.indexOf('ACTION-MARKER'));
    // max_tokens sized to the tier's chapter (prose, actions and record); the prose's own sampling.
    expect(server.requests[0]!.body).toMatchObject({ max_tokens: chapterProfile(8000).outputTokens, temperature: 0.8, top_p: 0.95, presence_penalty: 0.3 });
  });

  it("pinned cards and the cards the chapter calls up go into the turn; the mission's wording fits its state; the point of view is the story's", async () => {
    server.push({ kind: 'sse', pieces: [answer] }, { kind: 'sse', pieces: [answer] });
    const input = chapterInput({
      pointOfView: 'third',
      missionAge: 3,
      storyCards: [
        {
          kind: 'character',
          name: 'Queen Maelis',
          aliases: ['the Tide Queen'],
          description: 'CARD-MARKER bargains in drowned coin.',
          role: 'ruler',
          status: 'watching',
          pinned: true,
        },
        { kind: 'place', name: 'Sea Gate', aliases: [], description: 'GATE-MARKER a rusted portcullis.', role: null, status: null, pinned: false },
      ],
      castList: [
        { name: 'Queen Maelis', role: 'ruler' },
        { name: 'Oskar Fenn', role: 'ferryman' },
      ],
    });
    await collectChapter(provider().streamChapter(input));
    const turn = messagesOf(0).at(-1)!.content as string;
    expect(turn).toMatch(/PINNED STORY CARDS/);
    expect(turn).toContain('- Queen Maelis (character; also called the Tide Queen) ruler — CARD-MARKER bargains in drowned coin. [now: watching]');
    expect(turn.indexOf('CARD-MARKER')).toBeLessThan(turn.indexOf('GATE-MARKER'));
    // People with a card in the prompt are not named twice.
    expect(turn).toMatch(/OTHER PEOPLE MET \(keep their names and roles\): <<<\nOskar Fenn \(ferryman\)\n>>>/);
    expect(turn).toMatch(/third person, past tense/);
    expect(turn).toContain('begun 3 chapters ago; a mission resolves within about 3–8 chapters');
    expect(turn).not.toMatch(/second person/);
    // No mission: nothing to advance; one may arise from the chapter.
    await collectChapter(provider().streamChapter(chapterInput({ mission: null })));
    const none = messagesOf(1).at(-1)!.content as string;
    expect(none).toMatch(/MISSION: none yet\. Let one arise from this chapter/);
    expect(none).not.toMatch(/CURRENT MISSION/);
  });

  it('a new take is asked to differ from the one it replaces, a little warmer', async () => {
    server.push({ kind: 'sse', pieces: [answer] });
    await collectChapter(provider({ temperature: 0.8 }).streamChapter(chapterInput({ differentFrom: 'Mara pushed the heavy door open' })));
    const turn = messagesOf(0).at(-1)!.content as string;
    expect(turn).toMatch(/This is a new take of chapter 3\. The take it replaces began: <<<\nMara pushed the heavy door open\n>>>\nWrite a different chapter/);
    expect(server.requests[0]!.body.temperature).toBeCloseTo(0.95);
  });

  it("a summary of a story shares the chapter prompts' system message (rules, world, character) and knows the mission", async () => {
    server.push({ kind: 'sse', pieces: [answer] }, { kind: 'json', content: JSON.stringify({ summary: 'Mara found the archive.' }) });
    const ai = provider();
    const input = chapterInput();
    await collectChapter(ai.streamChapter(input));
    await ai.summarize({
      previousSummary: '',
      chapters: [{ text: chapterText }],
      maxTokens: 300,
      story: { worldDescription: input.worldDescription, character: input.character, mission: input.mission, maxContextTokens: input.maxContextTokens },
    });
    const chapter = messagesOf(0);
    const summary = messagesOf(1);
    expect(summary[0]).toEqual(chapter[0]);
    expect(summary.map((x) => x.content).join('\n')).toContain('Find the key to the sea gate');
    expect(server.requests[0]!.body.temperature).toBeUndefined();
    // Structure is sampled cold, and every call says how long its answer may be.
    expect(server.requests[1]!.body).toMatchObject({ temperature: 0.2, max_tokens: Math.ceil(300 * 1.25) + 60 });
  });

  it('a record that does not validate is written again by a call of its own; the prose stays as the reader read it', async () => {
    const bad = `${chapterText}\n\n### NEXT\n1. Descend into the flooded stacks\n2. Ask Maelis about the warning\n3. Wait for low tide\n\n### RECORD\n{"statIncreases": "lots", "cast": 7}`;
    server.push(
      { kind: 'sse', pieces: splitInto(bad, 50) },
      {
        kind: 'json',
        content: JSON.stringify({
          statIncreases: [],
          newSetting: null,
          missionCompleted: true,
          newMission: 'Open the sea gate',
          cast: [],
          memories: [],
          itemsGained: [],
          itemsLost: [],
          healthRestored: 0,
        }),
      },
    );
    const { result, deltas } = await collectChapter(provider().streamChapter(chapterInput()));
    expect(deltas.join('')).toBe(chapterText);
    expect(result).toMatchObject({ text: chapterText, choices: validChapter.choices, missionCompleted: true, newMission: 'Open the sea gate' });
    expect(server.requests).toHaveLength(2);
    // The repair shares the chapter's prompt (cached by the server) and has the prose as written.
    const repair = messagesOf(1);
    expect(repair.slice(0, messagesOf(0).length)).toEqual(messagesOf(0));
    expect(repair.at(-2)).toMatchObject({ role: 'assistant', content: expect.stringContaining(chapterText) });
    expect(repair.at(-1)!.content).toMatch(/only the record/);
    expect(server.requests[1]!.body).toMatchObject({ response_format: { type: 'json_schema' }, temperature: 0.2 });
  });

  it('an answer with no actions gets them from the repair, which the reader sees before the chapter is stored', async () => {
    server.push(
      { kind: 'sse', pieces: [chapterText] },
      {
        kind: 'json',
        content: JSON.stringify({
          choices: ['Dive', 'Climb', 'Call out'],
          statIncreases: [],
          newSetting: null,
          missionCompleted: false,
          newMission: null,
          cast: [],
          memories: [],
          itemsGained: [],
          itemsLost: [],
          healthRestored: 0,
        }),
      },
    );
    const events: ChapterEvent[] = [];
    for await (const ev of provider().streamChapter(chapterInput())) events.push(ev);
    expect(events.filter((e) => e.type === 'choices')).toEqual([{ type: 'choices', choices: ['Dive', 'Climb', 'Call out'] }]);
    expect((events.at(-1) as Extract<ChapterEvent, { type: 'final' }>).result.choices).toEqual(['Dive', 'Climb', 'Call out']);
    expect(messagesOf(1).at(-1)!.content).toMatch(/"choices": 3 distinct next actions/);
  });

  it('think blocks, a heading and a fence around the prose never reach the reader', async () => {
    const wrapped = `<think>The player wants {"text": …} — let me plan.</think>\n\`\`\`\nChapter 3: The Archive\n\n${answer}`;
    server.push({ kind: 'sse', pieces: splitInto(wrapped, 5) });
    const { result, deltas } = await collectChapter(provider().streamChapter(chapterInput()));
    expect(deltas.join('')).toBe(chapterText);
    expect(result.text).toBe(chapterText);
  });

  it('streams markup as harmless text: angle brackets become ‹ › in the stream and the stored chapter alike, with no repair call', async () => {
    const hostile = chapterAnswer({ ...validChapter, text: `The night was cold. <img src=x onerror=alert(1)> ${chapterText}` });
    server.push({ kind: 'sse', pieces: splitInto(hostile, 9) });
    const { result, deltas } = await collectChapter(provider().streamChapter(chapterInput()));
    for (const d of deltas) expect(d).not.toMatch(/[<>]/);
    expect(deltas.join('')).toBe(result.text);
    expect(result.text).toBe(`The night was cold. ‹img src=x onerror=alert(1)› ${chapterText}`);
    expect(server.requests).toHaveLength(1);
  });

  it('falls back to one delta when a JSON answer does not put text first', async () => {
    const { text, ...rest } = validChapter;
    server.push({ kind: 'sse', pieces: splitInto(JSON.stringify({ ...rest, text }), 30) });
    const { result, deltas } = await collectChapter(provider().streamChapter(chapterInput()));
    expect(deltas).toEqual([chapterText]);
    expect(result.text).toBe(chapterText);
  });

  it('retries a 503 before the first delta', async () => {
    server.push({ kind: 'status', status: 503 }, { kind: 'sse', pieces: [answer] });
    const { result } = await collectChapter(provider().streamChapter(chapterInput()));
    expect(result.text).toBe(chapterText);
    expect(server.requests).toHaveLength(2);
  });

  it('a model that takes max_completion_tokens is asked that way from then on', async () => {
    server.push(
      {
        kind: 'status',
        status: 400,
        body: { error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead." } },
      },
      { kind: 'sse', pieces: [answer] },
      { kind: 'json', content: '{"objective":"Open the sea gate"}' },
    );
    const ai = provider({ model: 'reasoner-1' });
    await collectChapter(ai.streamChapter(chapterInput()));
    await ai.generateMission({ worldDescription: 'W', character: { name: 'M' } });
    expect(server.requests.map((r) => [r.body.max_tokens !== undefined, r.body.max_completion_tokens !== undefined])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
  });

  it('cancels the upstream request when the caller aborts mid-stream', async () => {
    server.push({ kind: 'sse', pieces: splitInto(answer, 20), gapMs: 30 });
    const ctl = new AbortController();
    const seen: string[] = [];
    const err = await (async () => {
      for await (const ev of provider().streamChapter(chapterInput(), { signal: ctl.signal })) {
        if (ev.type === 'delta') seen.push(ev.text);
        if (seen.length === 2) ctl.abort();
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).details).toMatchObject({ reason: 'aborted' });
    // The server sees its response closed (when depends on the machine's load: wait for it).
    for (let i = 0; i < 100 && !server.requests[0]?.closedEarly; i++) await new Promise((r) => setTimeout(r, 20));
    expect(server.requests[0]?.closedEarly).toBe(true);
  });

  it('times out a stream that stalls between chunks', async () => {
    server.push({
      kind: 'raw',
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content: 'Hello there, the night' }, finish_reason: null }] })}\n\n`,
        );
        // …and then nothing.
      },
    });
    const err = (await collectChapter(provider({ timeoutMs: 300 }).streamChapter(chapterInput())).catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.details).toMatchObject({ reason: 'timeout' });
  });
});

describe('OpenAI provider: images and styles', () => {
  it('uses the images API and normalises to a 1024×576 JPEG', async () => {
    const png = await sharp({ create: { width: 64, height: 36, channels: 3, background: { r: 200, g: 40, b: 40 } } })
      .png()
      .toBuffer();
    server.push({ kind: 'image', b64: png.toString('base64') });
    const img = await provider({ imageModel: 'gpt-image-1' }).generateWorldImage({ worldDescription: 'A red world' });
    expect(img.source).toBe('model');
    expect(server.requests[0]?.url).toBe('/v1/images/generations');
    expect(server.requests[0]?.body).toMatchObject({ model: 'gpt-image-1', n: 1 });
    const meta = await sharp(img.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1024, 576]);
  });

  it('falls back to procedural art when the images API fails or is disabled', async () => {
    server.fallback = { kind: 'status', status: 404 };
    const img = await provider({ imageModel: 'gpt-image-1' }).generateWorldImage({ worldDescription: 'Pirates and the kraken' });
    expect(img.source).toBe('procedural');
    expect(img.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    server.reset();
    const off = await provider().generateWorldImage({ worldDescription: 'Pirates' });
    expect(off.source).toBe('procedural');
    expect(server.requests).toHaveLength(0);
  });

  it('sanitizes model styles field by field', async () => {
    server.push({
      kind: 'json',
      content: JSON.stringify({
        ...DEFAULT_STYLES,
        containerBackground: 'url(javascript:alert(1))',
        contentTextColor: '#101d37',
        fontFamily: 'Comic Sans; } body { display:none',
        borderRadius: '6px',
        buttonBackground: '#223355',
      }),
    });
    const s = await provider().generateStyles({ settingDescription: 'A cave' });
    expect(s.containerBackground).toBe(DEFAULT_STYLES.containerBackground);
    expect(s.contentTextColor).toBe(DEFAULT_STYLES.contentTextColor);
    expect(s.fontFamily).toBe(DEFAULT_STYLES.fontFamily);
    expect(s.borderRadius).toBe('6px');
    expect(s.buttonBackground).toBe('#223355');
  });
});

describe('createStoryAI and the JSON text extractor', () => {
  it('picks offline without a key and the OpenAI provider with one', () => {
    expect(createStoryAI()).toBeInstanceOf(OfflineStoryAI);
    expect(createStoryAI({ openai: { model: 'gpt-4o-mini', timeoutMs: 1000 } }).kind).toBe('offline');
    expect(createStoryAI({ openai: { apiKey: 'k', model: 'gpt-4o-mini', timeoutMs: 1000 } }).kind).toBe('openai');
  });

  it('decodes escapes split at any point', () => {
    const text = 'Line one\nLine "two" \\ back \u00e9 \ud83d\ude00 end';
    const raw = JSON.stringify({ text, other: 1 });
    for (let size = 1; size < 12; size++) {
      const ex = new JsonTextFieldStream();
      expect(
        splitInto(raw, size)
          .map((p) => ex.push(p))
          .join(''),
      ).toBe(text);
    }
  });
});

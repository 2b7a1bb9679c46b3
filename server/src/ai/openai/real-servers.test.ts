import { collectChapter, type ChapterInput } from '../story-ai';
import { chapterAnswer, FakeOpenAIServer, splitInto } from './fake-openai-server';
import { OpenAIStoryAI, type OpenAIProviderOptions } from './openai-story-ai';

/**
 * What real OpenAI-compatible servers do that the well-behaved fake does not: reasoning models'
 * think blocks (with braces in them) and reasoning_content, JSON-mode-only servers that refuse
 * json_schema, fences and preambles, small deviations from the schema. Each ends in a streamed,
 * valid chapter (or character) — and without a second generation where none is needed.
 */
const server = new FakeOpenAIServer();
let baseUrl = '';
beforeAll(async () => {
  baseUrl = await server.start();
});
afterAll(() => server.stop());
beforeEach(() => server.reset());

let models = 0;
/** A fresh model name per provider: the JSON mode a server accepts is remembered per server and model. */
function provider(extra: Partial<OpenAIProviderOptions> = {}): OpenAIStoryAI {
  return new OpenAIStoryAI({ apiKey: 'sk-test', baseUrl, model: `model-${++models}`, timeoutMs: 2000, retryBaseDelayMs: 5, ...extra });
}

const prose =
  'Mara pushed the heavy door open and stepped into the drowned archive. Water dripped from the vaulted ceiling, and somewhere below the tide breathed like a sleeping animal. She followed the lanterns to the reading room, where the queen waited with folded hands. "You came," the queen said. "Then the key is still within reach."';
const chapter = {
  text: prose,
  choices: ['Descend into the stacks', 'Ask about the warning', 'Wait for low tide'],
  statIncreases: [{ stat: 'wisdom', amount: 1 }],
  newSetting: null,
  missionCompleted: false,
  newMission: null,
};
const character = {
  username: 'Mara',
  stats: { strength: 12, agility: 9, endurance: 10, intellect: 14, wisdom: 11, charisma: 8 },
  description: 'A diver with a grudge against the tide, who maps the drowned streets of Varnholt for anyone who pays.',
  traits: ['Brave', 'Curious', 'Stubborn'],
  strengths: ['Holds her breath for minutes', 'Reads old maps'],
  weaknesses: ['Proud'],
  special: { name: 'Deep Breath', description: 'Holds her breath for minutes.' },
};
const input: ChapterInput = {
  worldDescription: 'In the drowned city of Varnholt, Queen Maelis bargains with the tide.',
  character: {
    name: 'Mara',
    description: 'A diver.',
    stats: { strength: 10, agility: 12, endurance: 9, intellect: 11, wisdom: 10, charisma: 8 },
    traits: ['Brave'],
    special: null,
  },
  mission: 'Find the key',
  setting: null,
  summary: '',
  recentChapters: [],
  chapterNumber: 1,
  action: null,
  readingLevel: 8,
  seed: 1,
  maxContextTokens: 8000,
};
const CHARACTER_INPUT = { worldDescription: 'Varnholt', questions: ['Who are you?'], answers: ['A diver'], username: 'Mara' };
const THINK = '<think>The user wants JSON like {"text": "..."} — let me plan: { scene, choices }. Braces everywhere {}.</think>\n';

const answer = chapterAnswer(chapter);
const RECORD = {
  statIncreases: [],
  newSetting: null,
  missionCompleted: false,
  newMission: null,
  cast: [],
  memories: [],
  itemsGained: [],
  itemsLost: [],
  healthRestored: 0,
};
const formats = () => server.requests.map((r) => (r.body.response_format as { type?: string } | undefined)?.type);

describe('reasoning models', () => {
  it('a think block with braces in the content: the chapter streams live and parses, in one request', async () => {
    server.push({ kind: 'sse', pieces: splitInto(THINK + answer, 12) });
    const { result, deltas } = await collectChapter(provider().streamChapter(input));
    expect(result.text).toBe(prose);
    expect(deltas.length).toBeGreaterThan(5); // streamed piece by piece, not at the end
    expect(deltas.join('')).toBe(prose);
    expect(deltas.join('')).not.toContain('think');
    expect(server.requests).toHaveLength(1);
  });

  it('a think block before a character (non-streamed): parsed, no repair', async () => {
    server.push({ kind: 'json', content: THINK + JSON.stringify(character) });
    const r = await provider().generateCharacter(CHARACTER_INPUT);
    expect(r.stats.intellect).toBe(14);
    expect(server.requests).toHaveLength(1);
  });

  it('reasoning_content chunks are never shown; the content streams', async () => {
    server.push({ kind: 'sse', reasoning: ['Thinking about {', 'the scene}…'], pieces: splitInto(answer, 20) });
    const { result, deltas } = await collectChapter(provider().streamChapter(input));
    expect(deltas.join('')).toBe(result.text);
    expect(deltas.join('')).not.toContain('Thinking');
    expect(server.requests).toHaveLength(1);
  });
});

describe('local models: fences and preambles', () => {
  it('"Sure! Here is…" and a fence around the answer: the prose still streams live, without them', async () => {
    const reply = 'Sure! Here is the next chapter {as requested}:\n```\n' + answer + '\n```\nEnjoy!';
    server.push({ kind: 'sse', pieces: splitInto(reply, 10) });
    const { result, deltas } = await collectChapter(provider().streamChapter(input));
    expect(result.text).toBe(prose);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(prose);
    expect(server.requests).toHaveLength(1);
  });

  it('the old way, "Sure! Here is…" and a ```json fence around one object: the text still streams live', async () => {
    const reply = 'Sure! Here is the next chapter {as requested}:\n```json\n' + JSON.stringify(chapter, null, 2) + '\n```\nEnjoy!';
    server.push({ kind: 'sse', pieces: splitInto(reply, 10) });
    const { result, deltas } = await collectChapter(provider().streamChapter(input));
    expect(result.text).toBe(prose);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(prose);
    expect(server.requests).toHaveLength(1);
  });
});

describe('JSON-mode-only servers', () => {
  it('the chapter needs no JSON mode; a record repair that meets a 400 to json_schema goes on in json_object, remembered, and the server’s words are logged', async () => {
    server.rejectJsonSchema = true;
    const warnings: string[] = [];
    const ai = provider({ log: { warn: (msg: string, fields?: Record<string, unknown>) => void warnings.push(`${msg} ${JSON.stringify(fields ?? {})}`) } });
    server.push(
      { kind: 'sse', pieces: splitInto(`${prose}\n\n### NEXT\n1. Dive\n2. Climb\n3. Wait\n\n### RECORD\nnot json at all`, 15) },
      { kind: 'json', content: JSON.stringify(RECORD) },
      { kind: 'json', content: JSON.stringify(character) },
    );
    const { result } = await collectChapter(ai.streamChapter(input));
    expect(result).toMatchObject({ text: prose, choices: ['Dive', 'Climb', 'Wait'] });
    expect(formats()).toEqual([undefined, 'json_schema', 'json_object']);
    const prompt = JSON.stringify(server.requests[2]!.body.messages);
    expect(prompt).toContain('JSON schema');
    expect(prompt).toContain('statIncreases');
    expect(warnings.join('\n')).toContain("'json_schema' is not supported");
    // Remembered: the next call goes straight to json_object.
    await ai.generateCharacter(CHARACTER_INPUT);
    expect(formats()).toEqual([undefined, 'json_schema', 'json_object', 'json_object']);
  });

  it('a fixed OPENAI_RESPONSE_FORMAT is used as is (none: plain instructions, no response_format)', async () => {
    server.push({ kind: 'json', content: JSON.stringify(character) });
    await provider({ responseFormat: 'none' }).generateCharacter(CHARACTER_INPUT);
    expect(server.requests[0]!.body.response_format).toBeUndefined();
    expect(JSON.stringify(server.requests[0]!.body.messages)).toContain('JSON schema');
  });

  it('with the schema in the prompt, the messages still alternate (one system message first, the schema in the last user turn)', async () => {
    server.push({ kind: 'sse', pieces: [prose] }, { kind: 'json', content: JSON.stringify({ ...RECORD, choices: ['Dive', 'Climb', 'Wait'] }) });
    const withHistory = {
      ...input,
      chapterNumber: 3,
      recentChapters: [
        { text: prose, playerChoice: null },
        { text: prose, playerChoice: 'Follow the gull' },
      ],
    };
    await collectChapter(provider({ responseFormat: 'json_object' }).streamChapter(withHistory));
    for (const r of server.requests) {
      const messages = r.body.messages as Array<{ role: string; content: string }>;
      // Mistral's and Gemma's chat templates refuse a second system message or two user turns in a row.
      expect(messages.map((m) => m.role).join(' ')).toMatch(/^system( user assistant)+ user$/);
      expect(messages[1]!.content).toContain('Begin the story.');
    }
    const repair = server.requests[1]!.body.messages as Array<{ role: string; content: string }>;
    expect(repair[repair.length - 1]!.content).toContain('JSON schema');
  });
});

describe('world help against each behaviour', () => {
  const description = 'A drowned empire of lighthouses, where the tide keeps its own ledger and every keeper owes it a debt of light and salt.';
  const questions = ['Which lighthouse raised you?', 'What do you owe the tide?', 'Who taught you to swim?'];
  const cases: Array<[string, (json: string) => Parameters<FakeOpenAIServer['push']>[0][], Partial<OpenAIProviderOptions>?]> = [
    ['a think block with braces', (json) => [{ kind: 'json', content: THINK + json }]],
    ['reasoning_content beside the answer', (json) => [{ kind: 'json', content: json, reasoning: 'Plan {a, b}' }]],
    ['a preamble and a fence', (json) => [{ kind: 'json', content: 'Sure! {here}\n```json\n' + json + '\n```' }]],
    [
      'a rate limit with a short Retry-After',
      (json) => [
        { kind: 'status', status: 429, headers: { 'retry-after': '0' } },
        { kind: 'json', content: json },
      ],
    ],
  ];
  it.each(cases)('%s: a description and questions, one generation each', async (_name, scripts) => {
    server.push(
      ...scripts(JSON.stringify({ description })),
      ...scripts(JSON.stringify({ questions: [...questions, questions[0], 'Extra one?', 'Extra two?'] })),
    );
    const ai = provider();
    expect((await ai.generateWorldDescription({ idea: 'lighthouses' })).description).toBe(description);
    expect((await ai.generateWorldQuestions({ worldDescription: description })).questions).toEqual([...questions, 'Extra one?', 'Extra two?']);
  });

  it('a server that refuses json_schema: world help goes on in json_object mode', async () => {
    server.rejectJsonSchema = true;
    server.push({ kind: 'json', content: JSON.stringify({ description }) });
    expect((await provider().generateWorldDescription({ idea: 'lighthouses' })).description).toBe(description);
  });
});

describe('the cast a chapter reports', () => {
  it('is read however the model shapes it (a map of name → description, a bare name), without a repair call', async () => {
    server.push({
      kind: 'sse',
      pieces: [chapterAnswer({ ...chapter, cast: { 'Queen Maelis': 'The tide-queen, smiling too widely.', Oren: { role: 'ferryman', status: 'afraid' } } })],
    });
    const { result } = await collectChapter(provider().streamChapter(input));
    expect(result.cast).toEqual([
      { name: 'Queen Maelis', role: null, description: 'The tide-queen, smiling too widely.', status: null },
      { name: 'Oren', role: 'ferryman', description: null, status: 'afraid' },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it('a model that leaves the cast out still gives a chapter (an empty cast)', async () => {
    const { cast: _cast, ...noCast } = RECORD;
    server.push({ kind: 'sse', pieces: [`${prose}\n\n### NEXT\n1. Dive\n2. Climb\n3. Wait\n\n### RECORD\n${JSON.stringify(noCast)}`] });
    const { result } = await collectChapter(provider().streamChapter(input));
    expect(result.cast).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('small deviations are repaired locally', () => {
  it('"Strength", "2", six actions, a repeated one, "" for none, a fenced record and "hearts <3": one request, a valid chapter', async () => {
    const sloppy = {
      ...RECORD,
      statIncreases: [
        { stat: 'Strength', amount: '2' },
        { stat: 'LUCK', amount: 1 },
      ],
      newSetting: '',
      missionCompleted: 'false',
    };
    const reply = `${prose} Her heart went <3 at the sight.\n\n**Next:**\n1. Climb\n2. climb\n- Swim\n3) Run.\n4. Hide\n5. Sing\n6. Wait\n\n### Record\n\`\`\`json\n${JSON.stringify(sloppy)}\n\`\`\``;
    server.push({ kind: 'sse', pieces: splitInto(reply, 25) });
    const { result, deltas } = await collectChapter(provider().streamChapter(input));
    expect(server.requests).toHaveLength(1);
    expect(result.choices).toEqual(['Climb', 'Swim', 'Run', 'Hide']);
    expect(result.statIncreases).toEqual({ strength: 2 });
    expect(result.newSetting).toBeNull();
    expect(result.missionCompleted).toBe(false);
    expect(result.text).toContain('went ‹3 at');
    expect(deltas.join('')).toBe(result.text);
  });

  it('when a repair call is unavoidable, the player keeps the prose they read; only the fields are taken from the repair', async () => {
    server.push(
      { kind: 'sse', pieces: splitInto(`${prose}\n\n### NEXT\n1. Only one\n\n### RECORD\n${JSON.stringify(RECORD)}`, 20) },
      { kind: 'json', content: JSON.stringify({ ...RECORD, choices: ['Go left', 'Go right', 'Stay'] }) },
    );
    const { result, deltas } = await collectChapter(provider().streamChapter(input));
    expect(server.requests).toHaveLength(2);
    expect(result.text).toBe(prose);
    expect(deltas.join('')).toBe(prose);
    expect(result.choices).toEqual(['Go left', 'Go right', 'Stay']);
  });
});

describe('small tiers', () => {
  it('a chapter prompt whose fixed part had to be cut is counted and logged (older chapters left to the summary are not a cut)', async () => {
    const trims: string[] = [];
    const warnings: string[] = [];
    const ai = provider({ onTrim: (p) => void trims.push(p), log: { warn: (msg: string) => void warnings.push(msg) } });
    server.push({ kind: 'sse', pieces: [answer] }, { kind: 'sse', pieces: [answer] }, { kind: 'sse', pieces: [answer] });
    const long = Array.from({ length: 8 }, (_, i) => ({ text: `${prose} `.repeat(6) + `Chapter ${i}.`, playerChoice: 'Go on' }));
    await collectChapter(ai.streamChapter({ ...input, recentChapters: long, chapterNumber: 9, maxContextTokens: 2000 }));
    expect(trims).toEqual([]);
    const huge = { ...input.character, description: `${prose} `.repeat(12) };
    await collectChapter(ai.streamChapter({ ...input, character: huge, recentChapters: long, chapterNumber: 9, maxContextTokens: 2000 }));
    expect(trims).toEqual(['openai']);
    expect(warnings.join('\n')).toContain("cut to fit the tier's context");
  });
});

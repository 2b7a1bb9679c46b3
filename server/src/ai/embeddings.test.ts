import { OpenAIEmbedder, similarity, vectorBytes, vectorOf } from './embeddings';
import { FakeOpenAIServer } from './openai/fake-openai-server';

/** The embeddings client against an OpenAI-compatible server: what it sends, and answers it refuses. */
let fake: FakeOpenAIServer;
let baseUrl: string;
beforeAll(async () => {
  fake = new FakeOpenAIServer();
  baseUrl = await fake.start();
});
afterAll(() => fake.stop());
beforeEach(() => fake.reset());

const answer = (data: unknown[]) => ({
  kind: 'raw' as const,
  handler: (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data, model: 'm', usage: { prompt_tokens: 1, total_tokens: 1 } }));
  },
});

it('sends the texts in batches, keeps their order by index (whatever order the server answers in) and returns unit vectors', async () => {
  const texts = Array.from({ length: 70 }, (_, i) => `memory ${i}`);
  fake.embed = (t) => [Number(t.split(' ')[1]) + 1, 0, 0];
  const e = new OpenAIEmbedder({ model: 'nomic-embed-text', baseUrl, timeoutMs: 2000 });
  const v = await e.embed(texts);
  expect(v).toHaveLength(70);
  // Two requests (64 + 6), each naming the model and asking for floats; no key needed for a local server.
  const calls = fake.requests.filter((r) => r.url.endsWith('/embeddings'));
  expect(calls.map((r) => (r.body.input as string[]).length)).toEqual([64, 6]);
  expect(calls.every((r) => r.body.model === 'nomic-embed-text' && r.body.encoding_format === 'float')).toBe(true);
  expect(v.every((x) => Math.abs(similarity(x, x) - 1) < 1e-6)).toBe(true);

  fake.embed = null;
  fake.push(
    answer([
      { object: 'embedding', index: 1, embedding: [0, 1] },
      { object: 'embedding', index: 0, embedding: [1, 0] },
    ]),
  );
  const [a, b] = await e.embed(['first', 'second']);
  expect(Array.from(a!)).toEqual([1, 0]);
  expect(Array.from(b!)).toEqual([0, 1]);
});

it('refuses an answer with too few vectors, vectors of different sizes, or non-numbers', async () => {
  const e = new OpenAIEmbedder({ model: 'm', baseUrl, timeoutMs: 2000 });
  fake.push(answer([{ object: 'embedding', index: 0, embedding: [1, 0] }]));
  await expect(e.embed(['a', 'b'])).rejects.toMatchObject({ code: 'GENERATION_FAILED' });
  fake.push(
    answer([
      { object: 'embedding', index: 0, embedding: [1, 0] },
      { object: 'embedding', index: 1, embedding: [1, 0, 0] },
    ]),
  );
  await expect(e.embed(['a', 'b'])).rejects.toMatchObject({ code: 'GENERATION_FAILED' });
  fake.push(answer([{ object: 'embedding', index: 0, embedding: [1, null] }]));
  await expect(e.embed(['a'])).rejects.toMatchObject({ code: 'GENERATION_FAILED' });
});

it('stores a vector as bytes and reads it back exactly, whatever the buffer it comes in', () => {
  const v = Float32Array.from([0.25, -0.5, 0.125, 1e-7]);
  const bytes = vectorBytes(v);
  const shifted = new Uint8Array(bytes.length + 3);
  shifted.set(bytes, 3);
  expect(Array.from(vectorOf(shifted.subarray(3)))).toEqual(Array.from(v));
  expect(similarity(Float32Array.from([1, 0]), Float32Array.from([1, 0, 0]))).toBe(0);
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../config/env';
import { apiBase, chooseModelServer, probeLocalServers } from './local-servers';

/**
 * Local model servers as players run them, each answering only what it really answers: Ollama,
 * KoboldCpp and llama.cpp's server (told apart by their own endpoints), a server that is not a
 * model server, and a closed port.
 */
type Routes = Record<string, unknown>;
const servers: http.Server[] = [];
async function serve(routes: Routes): Promise<number> {
  const server = http.createServer((req, res) => {
    const body = routes[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return (server.address() as AddressInfo).port;
}
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

const models = (...ids: string[]) => ({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) });
let ollama: number;
let kobold: number;
let llama: number;
let notModel: number;
let lmStudio: number;
let closed: number;
beforeAll(async () => {
  ollama = await serve({ '/v1/models': models('nomic-embed-text:latest', 'llama3.2:3b', 'qwen2.5:14b'), '/api/version': { version: '0.5.7' } });
  kobold = await serve({ '/v1/models': models('koboldcpp/Mistral-7B'), '/api/extra/version': { result: 'KoboldCpp', version: '1.80' } });
  llama = await serve({ '/v1/models': models('model.gguf'), '/props': { default_generation_settings: {} } });
  notModel = await serve({ '/': { hello: 'world' } });
  lmStudio = await serve({
    '/v1/models': models('qwen2.5-7b-instruct'),
    '/api/v0/models': { data: [{ id: 'qwen2.5-7b-instruct', type: 'llm', compatibility_type: 'gguf', state: 'loaded' }] },
  });
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  closed = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
});

const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });

it('finds the servers that answer like model servers, in the order of the ports, and names each', async () => {
  // What is judged is the naming; the boot's 600 ms per probe ran out at load average 10 (CI beside
  // other work), so the test gives each probe all the time it needs (every server here answers).
  const found = await probeLocalServers([closed, notModel, kobold, ollama, llama, lmStudio], 30_000);
  expect(found.map((f) => [f.name, f.baseUrl])).toEqual([
    ['KoboldCpp', `http://127.0.0.1:${kobold}/v1`],
    ['Ollama', `http://127.0.0.1:${ollama}/v1`],
    ["llama.cpp's server", `http://127.0.0.1:${llama}/v1`],
    ['LM Studio', `http://127.0.0.1:${lmStudio}/v1`],
  ]);
  expect(found[1]!.models).toEqual(['nomic-embed-text:latest', 'llama3.2:3b', 'qwen2.5:14b']);
});

it('without MODEL_SERVER or a key, says what it found and how to use it, and changes nothing', async () => {
  const c = config({ MODEL_SERVER_PORTS: `${closed},${ollama}` });
  const { config: after, message } = await chooseModelServer(c);
  expect(after).toBe(c);
  expect(message).toContain(`Ollama at http://127.0.0.1:${ollama}/v1 (nomic-embed-text:latest, llama3.2:3b, qwen2.5:14b)`);
  expect(message).toContain('MODEL_SERVER=auto');
  expect((await chooseModelServer(config({ MODEL_SERVER_PORTS: String(closed) }))).message).toBeNull();
  // With a key (OpenAI) nothing is looked for.
  const probe = jest.fn(probeLocalServers);
  expect(await chooseModelServer(config({ OPENAI_API_KEY: 'sk-x', MODEL_SERVER_PORTS: String(ollama) }), probe)).toMatchObject({ message: null });
  expect(probe).not.toHaveBeenCalled();
});

it('MODEL_SERVER=auto writes with the first server found: its first chat model, its embeddings model for memories', async () => {
  const { config: c, message } = await chooseModelServer(config({ MODEL_SERVER: 'auto', MODEL_SERVER_PORTS: `${closed},${ollama},${kobold}` }));
  expect(c.openai).toMatchObject({ baseUrl: `http://127.0.0.1:${ollama}/v1`, model: 'llama3.2:3b', apiKey: 'local' });
  expect(c.embeddings).toMatchObject({ model: 'nomic-embed-text:latest', baseUrl: `http://127.0.0.1:${ollama}/v1` });
  expect(message).toBe(
    `Stories are written by Ollama at http://127.0.0.1:${ollama}/v1 with llama3.2:3b; memories are found by meaning with nomic-embed-text:latest.`,
  );
  // A model named by OPENAI_MODEL wins; tiers' models are said.
  const named = await chooseModelServer(
    config({ MODEL_SERVER: 'auto', MODEL_SERVER_PORTS: String(ollama), OPENAI_MODEL: 'qwen2.5:14b', TIER_MODELS: 'free=llama3.2:3b,legend=qwen2.5:14b' }),
  );
  expect(named.config.openai.model).toBe('qwen2.5:14b');
  expect(named.message).toContain('(tiers: free: llama3.2:3b, legend: qwen2.5:14b)');
  // Nothing found: the offline storyteller, said so.
  const none = await chooseModelServer(config({ MODEL_SERVER: 'auto', MODEL_SERVER_PORTS: String(closed) }));
  expect(none.config.openai.apiKey).toBeUndefined();
  expect(none.message).toContain('no model server answered');
});

it('MODEL_SERVER=<url> uses that server (its /v1 when the URL has no path); one that does not answer needs OPENAI_MODEL', async () => {
  expect(apiBase('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434/v1');
  expect(apiBase('http://box:8000/v1/')).toBe('http://box:8000/v1');
  const { config: c } = await chooseModelServer(config({ MODEL_SERVER: `http://127.0.0.1:${kobold}` }));
  expect(c.openai).toMatchObject({ baseUrl: `http://127.0.0.1:${kobold}/v1`, model: 'koboldcpp/Mistral-7B' });
  const silent = await chooseModelServer(config({ MODEL_SERVER: `http://127.0.0.1:${closed}` }));
  expect(silent.config.openai.apiKey).toBeUndefined();
  expect(silent.message).toContain('did not answer; name the model with OPENAI_MODEL');
  const later = await chooseModelServer(config({ MODEL_SERVER: `http://127.0.0.1:${closed}/v1`, OPENAI_MODEL: 'mistral' }));
  expect(later.config.openai).toMatchObject({ baseUrl: `http://127.0.0.1:${closed}/v1`, model: 'mistral' });
});

it('refuses malformed settings with a clear message', () => {
  expect(() => config({ MODEL_SERVER: 'ollama' })).toThrow(/MODEL_SERVER is not a valid URL/);
  expect(() => config({ MODEL_SERVER_PORTS: '11434,abc' })).toThrow(/MODEL_SERVER_PORTS must be a comma-separated list of ports/);
  expect(() => config({ TIER_MODELS: 'free:llama3' })).toThrow(/TIER_MODELS must be tier=model pairs/);
  expect(config({ TIER_MODELS: 'Free=llama3.2:3b, legend = qwen2.5:32b' }).tierModels).toEqual({ free: 'llama3.2:3b', legend: 'qwen2.5:32b' });
});

/**
 * Local model servers one step away (issue 30, item 6). With no API key, boot looks on loopback for
 * the servers players run at home — Ollama (11434), LM Studio (1234), llama.cpp's server (8080),
 * KoboldCpp (5001) — all of which speak the OpenAI API under /v1, and says what it found and how to
 * use it. MODEL_SERVER=auto uses the first one found; MODEL_SERVER=<url> uses that server. The model
 * is OPENAI_MODEL when named, else the server's first chat model; a model whose name says "embed"
 * becomes the memory bank's embeddings model when none is named.
 */
import type { Config } from '../config/env';

export interface FoundServer {
  /** Ollama, LM Studio, llama.cpp's server, KoboldCpp — or "an OpenAI-compatible server". */
  name: string;
  /** The OpenAI API's base, e.g. http://127.0.0.1:11434/v1 */
  baseUrl: string;
  models: string[];
}

const BY_PORT: Record<number, string> = { 11434: 'Ollama', 1234: 'LM Studio', 8080: "llama.cpp's server", 5001: 'KoboldCpp' };
const PROBE_TIMEOUT_MS = 600;

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

/** The models a server lists at /v1/models; null when it does not answer like an OpenAI server. */
async function listModels(baseUrl: string, timeoutMs: number): Promise<string[] | null> {
  try {
    const body = (await getJson(`${baseUrl}/models`, timeoutMs)) as { data?: Array<{ id?: unknown }> };
    if (!Array.isArray(body?.data)) return null;
    return body.data.map((m) => (typeof m?.id === 'string' ? m.id : '')).filter(Boolean);
  } catch {
    return null;
  }
}

/** Which server it is, by what only it answers; else by its port. */
async function nameOf(origin: string, port: number, timeoutMs: number): Promise<string> {
  const probes: Array<[string, (b: unknown) => boolean, string]> = [
    ['/api/version', (b) => typeof (b as { version?: unknown })?.version === 'string', 'Ollama'],
    ['/api/extra/version', (b) => /kobold/i.test(String((b as { result?: unknown })?.result ?? '')), 'KoboldCpp'],
    ['/props', (b) => typeof b === 'object' && b !== null && 'default_generation_settings' in b, "llama.cpp's server"],
    // LM Studio's own API describes its models' state and file format, which no OpenAI list does.
    [
      '/api/v0/models',
      (b) => ((b as { data?: unknown[] })?.data ?? []).some((m) => typeof m === 'object' && m !== null && 'compatibility_type' in m),
      'LM Studio',
    ],
  ];
  const answers = await Promise.all(probes.map(([path, test]) => getJson(`${origin}${path}`, timeoutMs).then(test, () => false)));
  const i = answers.indexOf(true);
  return i >= 0 ? probes[i]![2] : (BY_PORT[port] ?? 'an OpenAI-compatible server');
}

/** The servers answering on loopback at `ports`, in the order of the ports. */
export async function probeLocalServers(ports: number[], timeoutMs = PROBE_TIMEOUT_MS): Promise<FoundServer[]> {
  const found = await Promise.all(
    ports.map(async (port) => {
      const origin = `http://127.0.0.1:${port}`;
      const models = await listModels(`${origin}/v1`, timeoutMs);
      if (models === null) return null;
      return { name: await nameOf(origin, port, timeoutMs), baseUrl: `${origin}/v1`, models };
    }),
  );
  return found.filter((f): f is FoundServer => f !== null);
}

const isEmbedding = (model: string) => /embed/i.test(model);

/** The OpenAI API base of a URL a player gives ("http://127.0.0.1:11434" → ".../v1"). */
export function apiBase(url: string): string {
  const u = new URL(url);
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.origin}${path === '' ? '/v1' : path}`;
}

export interface ModelServerChoice {
  config: Config;
  /** What boot says (null: nothing to say). */
  message: string | null;
}

/**
 * Applies MODEL_SERVER to the configuration (see the header). `probe` is injectable for tests. With
 * an API key and no MODEL_SERVER nothing is probed.
 */
export async function chooseModelServer(config: Config, probe = probeLocalServers): Promise<ModelServerChoice> {
  const setting = config.modelServer;
  if (!setting && config.openai.apiKey) return { config, message: null };
  if (!setting) {
    const found = await probe(config.modelServerPorts);
    if (found.length === 0) return { config, message: null };
    const list = found.map((f) => `${f.name} at ${f.baseUrl}${f.models.length ? ` (${f.models.slice(0, 5).join(', ')})` : ''}`).join('; ');
    return {
      config,
      message: `Found a local model server: ${list}. The offline storyteller is writing; to write with it, start with MODEL_SERVER=auto (or MODEL_SERVER=${found[0]!.baseUrl}).`,
    };
  }
  const found =
    setting === 'auto'
      ? (await probe(config.modelServerPorts)).find((f) => config.openai.modelNamed || f.models.some((m) => !isEmbedding(m)))
      : await (async () => {
          const baseUrl = apiBase(setting);
          const models = await listModels(baseUrl, PROBE_TIMEOUT_MS * 3);
          return { name: 'the model server', baseUrl, models: models ?? [], answered: models !== null };
        })();
  if (!found) {
    return {
      config,
      message: `MODEL_SERVER=auto: no model server answered on 127.0.0.1 ports ${config.modelServerPorts.join(', ')}; the offline storyteller is writing.`,
    };
  }
  const model = config.openai.modelNamed ? config.openai.model : found.models.find((m) => !isEmbedding(m));
  if (!model) {
    const why = 'answered' in found && !found.answered ? 'did not answer' : 'lists no chat model';
    return { config, message: `MODEL_SERVER: ${found.baseUrl} ${why}; name the model with OPENAI_MODEL. The offline storyteller is writing.` };
  }
  const embeddingModel = config.embeddings.model ?? found.models.find(isEmbedding);
  const next: Config = {
    ...config,
    openai: { ...config.openai, baseUrl: found.baseUrl, apiKey: config.openai.apiKey ?? 'local', model },
    embeddings:
      embeddingModel && !config.embeddings.model
        ? { ...config.embeddings, model: embeddingModel, baseUrl: found.baseUrl, apiKey: config.embeddings.apiKey ?? 'local' }
        : config.embeddings,
  };
  const tiers = Object.entries(config.tierModels)
    .map(([tier, m]) => `${tier}: ${m}`)
    .join(', ');
  return {
    config: next,
    message:
      `Stories are written by ${found.name} at ${found.baseUrl} with ${model}` +
      (tiers ? ` (tiers: ${tiers})` : '') +
      (next.embeddings.model && next.embeddings.model !== config.embeddings.model ? `; memories are found by meaning with ${next.embeddings.model}` : '') +
      '.',
  };
}

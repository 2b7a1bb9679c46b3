/**
 * Text embeddings for the memory bank (issue 30, item 2): an OpenAI-compatible `/embeddings`
 * endpoint (OpenAI, or a local server: Ollama, LM Studio, llama.cpp with --embeddings), used only
 * when EMBEDDINGS_MODEL names a model. Vectors come back unit length, so similarity is a dot product.
 * Nothing here is required: without a model, or when the endpoint fails, memories are found by
 * full-text search alone.
 */
import type OpenAI from 'openai';
import { openAI } from '../common/lazy-modules';
import { AppError } from '../common/app-error';

export interface Embedder {
  readonly model: string;
  /** One unit vector per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface EmbedderOptions {
  model: string;
  /** Unset: OpenAI. */
  baseUrl?: string;
  /** A local server takes any key. */
  apiKey?: string;
  timeoutMs: number;
}

/** Inputs per request (OpenAI takes 2,048; local servers are slower with large batches). */
const BATCH = 64;

export class OpenAIEmbedder implements Embedder {
  readonly model: string;
  private readonly client: OpenAI;

  constructor(opts: EmbedderOptions) {
    this.model = opts.model;
    this.client = new (openAI())({ apiKey: opts.apiKey || 'local', baseURL: opts.baseUrl, maxRetries: 1, timeout: opts.timeoutMs });
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const input = texts.slice(i, i + BATCH);
      const res = await this.client.embeddings.create({ model: this.model, input, encoding_format: 'float' }, { signal });
      // Servers answer in input order with an index each; trust the index, check the count.
      const byIndex = [...res.data].sort((a, b) => a.index - b.index);
      if (byIndex.length !== input.length || byIndex.some((d) => !Array.isArray(d.embedding) || d.embedding.length === 0)) {
        throw new AppError('GENERATION_FAILED', `The embeddings server answered ${byIndex.length} vectors for ${input.length} texts.`, {
          reason: 'invalid_output',
          operation: 'embeddings',
        });
      }
      const dims = byIndex[0]!.embedding.length;
      for (const d of byIndex) {
        if (d.embedding.length !== dims || d.embedding.some((x) => !Number.isFinite(x))) {
          throw new AppError('GENERATION_FAILED', 'The embeddings server answered vectors of different sizes or with non-numbers.', {
            reason: 'invalid_output',
            operation: 'embeddings',
          });
        }
        out.push(unit(Float32Array.from(d.embedding)));
      }
    }
    return out;
  }
}

/** The vector scaled to length 1 (a zero vector stays zero: it matches nothing). */
function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

/** Cosine similarity of two unit vectors of the same model (0 when their sizes differ). */
export function similarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** A vector as stored (bytea, little-endian float32) and back. */
export function vectorBytes(v: Float32Array): Buffer {
  const b = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) b.writeFloatLE(v[i]!, i * 4);
  return b;
}
export function vectorOf(bytes: Uint8Array): Float32Array {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const v = new Float32Array(Math.floor(b.length / 4));
  for (let i = 0; i < v.length; i++) v[i] = b.readFloatLE(i * 4);
  return v;
}

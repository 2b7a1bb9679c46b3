/**
 * Read-aloud's server voice (issue "The player's screen", item 5): an OpenAI-compatible
 * `POST {base}/audio/speech` (OpenAI, or a local speech server: Kokoro-FastAPI, LocalAI) answering
 * MP3. Used only when a key is configured (config.tts.apiKey); the browser's own voice needs none of it.
 */
import type OpenAI from 'openai';
import { openAI } from '../common/lazy-modules';
import { AppError } from '../common/app-error';

export interface SpeechOptions {
  model: string;
  /** Unset: OpenAI. */
  baseUrl?: string;
  apiKey: string;
  timeoutMs: number;
}

export interface Speaker {
  readonly model: string;
  /** The text read by `voice`, as one MP3. */
  speak(text: string, voice: string, signal?: AbortSignal): Promise<Buffer>;
}

/** OpenAI's limit on one call's input; longer chapters are read in parts joined end to end. */
const SPEECH_INPUT_MAX = 4096;

/**
 * The text in parts of at most `max` characters, cut after a sentence where one ends in time (else
 * after a word, else anywhere): each part is read as one call, so a cut mid-sentence would be heard.
 */
export function speechParts(text: string, max = SPEECH_INPUT_MAX): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = -1;
    for (const m of window.matchAll(/[.!?…]["'”’)\]]*\s+/g)) cut = m.index + m[0].length;
    if (cut <= 0) cut = window.lastIndexOf(' ') + 1;
    if (cut <= 0) cut = max;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}

export class OpenAISpeaker implements Speaker {
  readonly model: string;
  private readonly client: OpenAI;

  constructor(opts: SpeechOptions) {
    this.model = opts.model;
    // One retry: a 5xx or a dropped connection is often gone a moment later, and the player waits anyway.
    this.client = new (openAI())({ apiKey: opts.apiKey, baseURL: opts.baseUrl, maxRetries: 1, timeout: opts.timeoutMs });
  }

  async speak(text: string, voice: string, signal?: AbortSignal): Promise<Buffer> {
    const out: Buffer[] = [];
    // MP3 is a stream of self-contained frames: parts joined end to end play as one file.
    for (const input of speechParts(text)) {
      const res = await this.client.audio.speech.create({ model: this.model, voice, input, response_format: 'mp3' }, { signal });
      const type = res.headers.get('content-type') ?? '';
      const bytes = Buffer.from(await res.arrayBuffer());
      // A server that answers 200 with an error page or JSON has not spoken.
      if (bytes.length === 0 || /json|text|html/i.test(type)) {
        throw new AppError('GENERATION_FAILED', `The speech server answered ${bytes.length} bytes of ${type || 'unknown type'} instead of audio.`, {
          reason: 'invalid_output',
          operation: 'speech',
        });
      }
      out.push(bytes);
    }
    return Buffer.concat(out);
  }
}

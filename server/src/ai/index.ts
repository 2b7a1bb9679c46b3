/**
 * Entry point for services: `createStoryAI(config)` returns the one StoryAI the app uses.
 * No API key → the offline storyteller (no network, deterministic). An API key → the OpenAI SDK
 * against OpenAI, or against any OpenAI-compatible server when baseUrl is set. Configuration comes
 * from server/src/config/env.ts (`config.openai`); nothing here reads the environment.
 */
import { useTokenizer, type TokenizerName } from './context-budget';
import { OfflineStoryAI } from './offline/offline-story-ai';
import { OpenAIStoryAI, type OpenAIProviderOptions } from './openai/openai-story-ai';
import type { StoryAI, Usage } from './story-ai';

export interface StoryAIOptions {
  /** The provider's own options; without an API key, the offline storyteller. */
  openai?: Omit<OpenAIProviderOptions, 'apiKey' | 'onUsage' | 'onTrim'> & { apiKey?: string; tokenizer?: TokenizerName };
  /** Called once per provider request with its token usage (for metering and logs). */
  onUsage?: (usage: Usage) => void;
  /** Called when a chapter prompt had to be cut to fit the tier's context. */
  onTrim?: (provider: 'openai') => void;
}

export function createStoryAI(options: StoryAIOptions = {}): StoryAI {
  const o = options.openai;
  if (o?.apiKey) {
    // Prompts for a remote model are counted with a real tokenizer (see context-budget.ts).
    useTokenizer(o.tokenizer ?? 'o200k_base');
    const { tokenizer: _tokenizer, ...provider } = o;
    return new OpenAIStoryAI({ ...provider, apiKey: o.apiKey, onUsage: options.onUsage, onTrim: options.onTrim });
  }
  return new OfflineStoryAI({ onUsage: options.onUsage });
}

export * from './story-ai';
export { OfflineStoryAI } from './offline/offline-story-ai';

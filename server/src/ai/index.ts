/**
 * Entry point for services: `createStoryAI(config)` returns the one StoryAI the app uses.
 * No API key → the offline storyteller (no network, deterministic). An API key → the OpenAI SDK
 * against OpenAI, or against any OpenAI-compatible server when baseUrl is set. Configuration comes
 * from server/src/config/env.ts (`config.openai`); nothing here reads the environment.
 */
import { useTokenizer, type TokenizerName } from './context-budget';
import { OfflineStoryAI } from './offline/offline-story-ai';
import { OpenAIStoryAI, type OpenAIProviderOptions } from './openai/openai-story-ai';
import type { CallOptions, StoryAI, Usage } from './story-ai';

export interface StoryAIOptions {
  /** The provider's own options; without an API key, the offline storyteller. */
  openai?: Omit<OpenAIProviderOptions, 'apiKey' | 'onUsage' | 'onTrim'> & { apiKey?: string; tokenizer?: TokenizerName };
  /** Called once per provider request with its token usage (for metering and logs). */
  onUsage?: (usage: Usage) => void;
  /** Called when a chapter prompt had to be cut to fit the tier's context. */
  onTrim?: (provider: 'openai') => void;
  /** Tier id → the model that tier's calls use (TIER_MODELS); others use openai.model. */
  tierModels?: Record<string, string>;
}

export function createStoryAI(options: StoryAIOptions = {}): StoryAI {
  const o = options.openai;
  if (o?.apiKey) {
    // Prompts for a remote model are counted with a real tokenizer (see context-budget.ts).
    useTokenizer(o.tokenizer ?? 'o200k_base');
    const { tokenizer: _tokenizer, ...provider } = o;
    const make = (model: string) => new OpenAIStoryAI({ ...provider, model, apiKey: o.apiKey!, onUsage: options.onUsage, onTrim: options.onTrim });
    const base = make(provider.model);
    const tiers = Object.entries(options.tierModels ?? {}).filter(([, model]) => model !== provider.model);
    return tiers.length ? byTier(base, new Map(tiers.map(([tier, model]) => [tier, make(model)]))) : base;
  }
  return new OfflineStoryAI({ onUsage: options.onUsage });
}

/** One StoryAI that sends each call to its tier's model (CallOptions.tier), else to `base`. */
function byTier(base: StoryAI, tiers: Map<string, StoryAI>): StoryAI {
  const pick = (opts?: CallOptions) => (opts?.tier ? (tiers.get(opts.tier) ?? base) : base);
  return {
    kind: base.kind,
    missionInChapter: base.missionInChapter,
    generateWorldDescription: (i, opts) => pick(opts).generateWorldDescription(i, opts),
    generateWorldQuestions: (i, opts) => pick(opts).generateWorldQuestions(i, opts),
    generateWorldImage: (i, opts) => pick(opts).generateWorldImage(i, opts),
    generateCharacter: (i, opts) => pick(opts).generateCharacter(i, opts),
    streamChapter: (i, opts) => pick(opts).streamChapter(i, opts),
    generateMission: (i, opts) => pick(opts).generateMission(i, opts),
    generateStyles: (i, opts) => pick(opts).generateStyles(i, opts),
    summarize: (i, opts) => pick(opts).summarize(i, opts),
  };
}

export * from './story-ai';
export { OfflineStoryAI } from './offline/offline-story-ai';

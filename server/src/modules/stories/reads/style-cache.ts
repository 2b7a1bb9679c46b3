import { createHash } from 'node:crypto';
import type { StoryAI, StyleSet } from '../../../ai/story-ai';
import { DEFAULT_STYLES, sanitizeStyles } from '../../../ai/style-guard';

/**
 * Immersive style sets per setting text, cached in memory (per instance, LRU-bounded).
 *
 * Why memory, not the database: a style set is a pure function of the setting text with the offline
 * storyteller, and a cheap, harmless-to-repeat call with a model; a cold cache on another instance
 * costs one generation, never a wrong answer. Concurrent misses for the same text share one call.
 * Failures are not cached (the next request tries again) and answer the default set (SPEC §8).
 */
export class StyleCache {
  private readonly entries = new Map<string, Promise<StyleSet | null>>();

  constructor(
    private readonly ai: StoryAI,
    private readonly maxEntries = 1000,
  ) {}

  async get(settingDescription: string, onMiss?: () => Promise<void>): Promise<StyleSet> {
    const key = createHash('sha256').update(settingDescription).digest('hex');
    let entry = this.entries.get(key);
    if (entry) {
      // Refresh recency: Map iteration order is insertion order, so re-insert.
      this.entries.delete(key);
      this.entries.set(key, entry);
    } else {
      entry = this.generate(settingDescription, onMiss);
      this.entries.set(key, entry);
      while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      void entry.then((s) => {
        if (s === null && this.entries.get(key) === entry) this.entries.delete(key);
      });
    }
    return (await entry) ?? { ...DEFAULT_STYLES };
  }

  private async generate(settingDescription: string, onMiss?: () => Promise<void>): Promise<StyleSet | null> {
    try {
      await onMiss?.();
      // The provider sanitises already; validating again here means no provider bug can ever
      // put raw CSS in front of a player.
      return sanitizeStyles(await this.ai.generateStyles({ settingDescription }));
    } catch {
      return null;
    }
  }
}

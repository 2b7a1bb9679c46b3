import { openAI } from '../../common/lazy-modules';
import type { Logger } from '../../common/logger';

interface ModerationVerdict {
  flagged: boolean;
  /** What it was flagged for (OpenAI's category names; the local check uses the same ones). */
  categories: string[];
  /** Which check decided: the OpenAI moderation endpoint, or the local one. */
  source: 'openai' | 'local';
}

export interface Moderation {
  check(texts: string[]): Promise<ModerationVerdict>;
}

/**
 * Shared content passes this before it becomes public (sharing a world, publishing a story).
 * With an OpenAI key the moderation endpoint decides; without one, or when the configured server has
 * no such endpoint (most OpenAI-compatible local servers do not) or it fails, the local check does:
 * a server that cannot moderate must not let everything through.
 */
export function createModeration(opts: { apiKey?: string; baseUrl?: string; model: string; timeoutMs: number }, logger: Logger): Moderation {
  if (!opts.apiKey) return { check: (texts) => Promise.resolve(localCheck(texts)) };
  const client = new (openAI())({ apiKey: opts.apiKey, baseURL: opts.baseUrl, maxRetries: 1, timeout: opts.timeoutMs });
  return {
    async check(texts) {
      const input = texts.filter((t) => t.trim() !== '');
      if (input.length === 0) return { flagged: false, categories: [], source: 'local' };
      try {
        const categories = new Set<string>();
        let flagged = false;
        // A long story is sent in parts the endpoint accepts; the first flagged part decides.
        for (const part of batches(input, BATCH_CHARS)) {
          const r = await client.moderations.create({ model: opts.model, input: part });
          for (const result of r.results) {
            if (!result.flagged) continue;
            flagged = true;
            for (const [name, on] of Object.entries(result.categories ?? {})) if (on) categories.add(name);
            if (categories.size === 0) categories.add('flagged');
          }
          if (flagged) break;
        }
        return { flagged, categories: [...categories], source: 'openai' };
      } catch (err) {
        logger.warn('moderation endpoint failed; the local check decides', { err });
        return localCheck(texts);
      }
    },
  };
}

/** Characters per moderation request: well inside the endpoint's input limit (~32k tokens). */
const BATCH_CHARS = 40_000;

/** Texts in order, grouped so each group stays under `max` characters (a longer text is split). */
export function batches(texts: string[], max: number): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const text of texts) {
    for (let i = 0; i < text.length; i += max) {
      const piece = text.slice(i, i + max);
      if (size + piece.length > max && current.length > 0) {
        out.push(current);
        current = [];
        size = 0;
      }
      current.push(piece);
      size += piece.length;
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

// --- the local check -----------------------------------------------------------------------------
// Conservative on purpose: it flags only what no story platform publishes (sexual content involving
// minors, slurs used against groups of people), so fantasy violence, villains and dark themes pass.

// "fondle" and its forms, not "fondly": a kind speaker says "fondly" to a "child" in any story.
const SEXUAL = /\b(sex|sexual(?:ly)?|nude|naked|erotic|porn\w*|rape[ds]?|raping|molest\w*|fondl(?:e[ds]?|ing)|lewd|nsfw|intercourse|orgasm\w*)\b/;
const MINOR =
  /\b(child|children|kid|kids|minor|minors|underage|under-age|preteen|pre-teen|toddler|infant|loli|lolicon|shota|schoolgirl|schoolboy|(?:[1-9]|1[0-7])[- ]?(?:years?|yrs?)[- ]?old)\b/;
// Stems of slurs against groups of people; matched as whole words after de-obfuscation.
const SLURS =
  /\b(n[i1]gg(?:er|a|ers|as|ah)|f[a4]gg?ots?|k[i1]kes?|sp[i1]cs?|ch[i1]nks?|tr[a4]nn(?:y|ies)|r[e3]t[a4]rds?|wetbacks?|gooks?|sandn[i1]gg\w*|towelheads?)\b/;

/** Lower case, accents and zero-width tricks removed, common digit-for-letter swaps undone, spaced letters joined. */
function normalise(s: string): string {
  return (
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f\u200b-\u200f\u2060\ufeff]/g, '')
      .toLowerCase()
      .replace(/[0@4$5!|]/g, (c) => ({ '0': 'o', '@': 'a', '4': 'a', $: 's', '5': 's', '!': 'i', '|': 'i' })[c] ?? c)
      // "n i g g e r", "n.i.g.g.e.r": single letters joined by separators become one word
      .replace(/\b(?:[a-z][\s._*-]){3,}[a-z]\b/g, (m) => m.replace(/[\s._*-]/g, ''))
  );
}

export function localCheck(texts: string[]): ModerationVerdict {
  const categories: string[] = [];
  const all = texts.join('\n');
  const plain = all.toLowerCase();
  const folded = normalise(all);
  // Ages are read before digits are folded into letters.
  if ((SEXUAL.test(plain) || SEXUAL.test(folded)) && (MINOR.test(plain) || MINOR.test(folded))) categories.push('sexual/minors');
  if (SLURS.test(folded)) categories.push('hate');
  return { flagged: categories.length > 0, categories, source: 'local' };
}

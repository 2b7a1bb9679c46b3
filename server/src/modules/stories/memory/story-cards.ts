/**
 * Story cards: the story's people, places, items, factions and lore, kept per story (story-card.entity.ts).
 *
 * - Into the prompt (promptCards): pinned cards always; others when their name or an alias appears in
 *   the action, the mission or the latest chapters, or when a chapter's cast showed them within the
 *   last few chapters (so they stay a while) — AI Dungeon's triggers, SillyTavern's world info. The
 *   prompt keeps them by priority within the tier's budget (context-budget.ts).
 * - From each chapter (castEffects): the model reports its cast; a person with a card gets its status
 *   updated (role and description stay as first written, so people do not drift), a new person gets
 *   a card.
 *   Places and factions never become people. The effects are decided once, written by the database
 *   function apply_card_state with the chapter (commit_chapter), recorded on the take, and taken back
 *   exactly on undo (applyCardEffects backwards).
 * - From an imported character card (importCards): its lore book entries, as the player's cards.
 * - By the player: story-card.service.ts (list, add, edit, pin, delete), through applyCardEffects.
 */
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { STORY_CARD_KINDS, type CastMember, type PromptCard, type StoryCardKind } from '../../../ai/story-ai';
import { STORY_CARD_ALIASES_MAX, STORY_CARD_NAME_MAX, STORY_CARDS_MAX } from '../../shared/limits';
import type { CardEffect, CardSnapshot } from '../chapter.entity';
import { StoryCard } from './story-card.entity';

/** A card stays in the prompt this many chapters after a chapter's cast last showed it. */
const STAYS_FOR_CHAPTERS = 3;
/** Most cards one prompt gets (the budget may keep fewer). */
const PROMPT_CARDS_MAX = 24;
/** Most new cards one chapter may add (a crowd scene does not flood the story's cards). */
const NEW_CARDS_PER_CHAPTER = 4;

function snapshotOf(c: StoryCard): CardSnapshot {
  return {
    id: c.id,
    kind: c.kind,
    name: c.name,
    aliases: c.aliases,
    description: c.description,
    role: c.role,
    status: c.status,
    pinned: c.pinned,
    source: c.source,
    edited: c.edited,
    lastSeenIndex: c.lastSeenIndex,
    held: c.held,
    revision: c.revision,
  };
}

/** Whether a value is one of the kinds (STORY_CARD_KINDS, the GraphQL enum StoryCardKind). */
export function isStoryCardKind(value: unknown): value is StoryCardKind {
  return (STORY_CARD_KINDS as readonly unknown[]).includes(value);
}

const key = (s: string) => s.trim().toLowerCase();

/** Whether a card is called `name` (its name or an alias, without case). */
export function calls(card: CardSnapshot, name: string): boolean {
  const k = key(name);
  return key(card.name) === k || card.aliases.some((a) => key(a) === k);
}

/** Whether `name` (a whole word or phrase) occurs in `text`, without case. */
function mentions(text: string, name: string): boolean {
  const n = name.trim();
  if (n.length < 2) return false;
  const escaped = n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

export interface CardTriggers {
  /** The player's action for this chapter. */
  action: string | null;
  mission: string | null;
  /** The latest chapters' text, newest last. */
  recentTexts: string[];
  /** Index of the chapter being written. */
  index: number;
}

/** The cards this chapter's prompt gets, most important first (see the header). */
export function promptCards(cards: readonly CardSnapshot[], t: CardTriggers): PromptCard[] {
  const scored: Array<{ card: CardSnapshot; score: number }> = [];
  const latest = t.recentTexts.slice(-STAYS_FOR_CHAPTERS);
  for (const card of cards) {
    const names = [card.name, ...card.aliases];
    const hit = (s: string | null | undefined) => Boolean(s) && names.some((n) => mentions(s as string, n));
    let score = 0;
    if (card.pinned) score += 100;
    if (hit(t.action)) score += 8;
    if (hit(t.mission)) score += 6;
    latest.forEach((s, i) => {
      if (hit(s)) score += 2 + i;
    });
    if (card.lastSeenIndex !== null && card.lastSeenIndex >= t.index - STAYS_FOR_CHAPTERS && card.lastSeenIndex < t.index)
      score += 1 + (card.lastSeenIndex - t.index + STAYS_FOR_CHAPTERS);
    if (score > 0) scored.push({ card, score });
  }
  scored.sort((a, b) => b.score - a.score || a.card.name.localeCompare(b.card.name));
  return scored.slice(0, PROMPT_CARDS_MAX).map(({ card }) => ({
    kind: card.kind,
    name: card.name,
    aliases: card.aliases,
    description: card.description,
    role: card.role,
    status: card.status,
    pinned: card.pinned,
  }));
}

/**
 * What a chapter's cast does to the story's cards (pure; the take records the result). The player
 * character is never a card of their own story, and a name that is a place, item, faction or lore
 * card is never made a person.
 */
export function castEffects(cards: readonly CardSnapshot[], cast: readonly CastMember[], index: number, heroName: string): CardEffect[] {
  const hero = key(heroName);
  const heroFirst = hero.split(/\s+/)[0] ?? hero;
  const effects: CardEffect[] = [];
  let count = cards.length;
  let added = 0;
  const made = new Set<string>();
  for (const m of cast) {
    const name = m.name.trim();
    const k = key(name);
    if (!k || k === hero || k === heroFirst || k === 'you' || made.has(k)) continue;
    made.add(k);
    const card = findCard(cards, name);
    if (card && card.kind !== 'character') continue;
    if (card) {
      const after: CardSnapshot = {
        ...card,
        // Who someone is stays as first written (a model redescribing people every chapter makes
        // them drift); a card that has none gets one. Where they stand now is the status.
        role: card.role ?? m.role,
        description: card.description || m.description || '',
        status: m.status ?? card.status,
        lastSeenIndex: index,
        aliases: withAlias(card, name),
        revision: randomUUID(),
      };
      effects.push({ before: card, after });
    } else if (count < STORY_CARDS_MAX && added < NEW_CARDS_PER_CHAPTER) {
      count++;
      added++;
      effects.push({
        before: null,
        after: {
          id: randomUUID(),
          kind: 'character',
          name: name.slice(0, STORY_CARD_NAME_MAX),
          aliases: [],
          description: m.description ?? (m.role ? `${m.role[0]?.toUpperCase()}${m.role.slice(1)}.` : ''),
          role: m.role,
          status: m.status,
          pinned: false,
          source: 'model',
          edited: false,
          lastSeenIndex: index,
          held: false,
          revision: randomUUID(),
        },
      });
    }
  }
  return effects;
}

/**
 * The card a name refers to: its name or an alias (any case), or — for people — the same person by a
 * longer or shorter form of the name ("Dorian" and "Dorian Vale", "Captain Ilse" and "Ilse").
 */
function findCard(cards: readonly CardSnapshot[], name: string): CardSnapshot | undefined {
  const k = key(name);
  const exact = cards.find((c) => calls(c, name));
  if (exact) return exact;
  const words = k.split(/\s+/);
  return cards.find((c) => {
    if (c.kind !== 'character') return false;
    const cw = key(c.name).split(/\s+/);
    const [short, long] = cw.length < words.length ? [cw, words] : [words, cw];
    if (short.length === long.length || short.join(' ').length < 3) return false;
    const s = short.join(' ');
    return long.join(' ').startsWith(`${s} `) || long.join(' ').endsWith(` ${s}`);
  });
}

function withAlias(card: CardSnapshot, name: string): string[] {
  if (calls(card, name) || card.aliases.length >= STORY_CARD_ALIASES_MAX) return card.aliases;
  return [...card.aliases, name.slice(0, STORY_CARD_NAME_MAX)];
}

/**
 * Writes a take's card effects (forward: as the take makes them) or takes them back (backward, in
 * reverse order), each only over the exact state it expects. In the caller's transaction, with the
 * character locked.
 */
export async function applyCardEffects(
  m: EntityManager,
  characterId: string,
  effects: readonly CardEffect[],
  direction: 'forward' | 'backward',
): Promise<void> {
  const list = direction === 'forward' ? effects : [...effects].reverse();
  for (const e of list) {
    const [from, to] = direction === 'forward' ? [e.before, e.after] : [e.after, e.before];
    await m.query(`SELECT apply_card_state($1, $2::jsonb, $3::jsonb)`, [characterId, JSON.stringify(from), JSON.stringify(to)]);
  }
}

/** Every card of a story, as snapshots (name order). */
export async function cardsOf(m: EntityManager | DataSource, characterId: string): Promise<CardSnapshot[]> {
  const rows = await m.getRepository(StoryCard).find({ where: { characterId }, order: { name: 'ASC' } });
  return rows.map(snapshotOf);
}

/** Cards imported with a character (Character Card V3 character_book entries), written as the player's. */
export async function importCards(m: EntityManager, characterId: string, entries: Array<Partial<CardSnapshot> & { name: string }>): Promise<number> {
  const cards = await cardsOf(m, characterId);
  const effects: CardEffect[] = [];
  for (const e of entries) {
    if (cards.length + effects.length >= STORY_CARDS_MAX) break;
    if ([...cards, ...effects.map((x) => x.after)].some((c) => calls(c, e.name))) continue;
    effects.push({
      before: null,
      after: {
        id: randomUUID(),
        kind: isStoryCardKind(e.kind) ? e.kind : 'lore',
        name: e.name,
        aliases: e.aliases ?? [],
        description: e.description ?? '',
        role: e.role ?? null,
        status: e.status ?? null,
        pinned: e.pinned ?? false,
        source: 'import',
        edited: true,
        lastSeenIndex: null,
        held: false,
        revision: randomUUID(),
      },
    });
  }
  await applyCardEffects(m, characterId, effects, 'forward');
  return effects.length;
}

/** The cards as they were before a take (its applied effects taken back), for a new take of it. */
export function cardsBeforeTake(cards: readonly CardSnapshot[], effects: readonly CardEffect[]): CardSnapshot[] {
  const byId = new Map(cards.map((c) => [c.id, c]));
  for (const e of [...effects].reverse()) {
    if (byId.get(e.after.id)?.revision !== e.after.revision) continue; // changed since: it stays
    if (e.before) byId.set(e.before.id, e.before);
    else byId.delete(e.after.id);
  }
  return [...byId.values()];
}

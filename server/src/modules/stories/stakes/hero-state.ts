/**
 * What a chapter does to the hero beyond the prose (issue 31): health, the defeat and its lasting
 * cost, the items the hero carries (story cards of kind item, held), and growth. Pure functions: the
 * engine decides with them before the chapter and the commit plan records their result on the take
 * (chapters.stakes, chapters.check, the cards' effects), so undo, takes, rewind and restore put the
 * hero back exactly.
 *
 * - Health: 10 to start. A check's outcome costs what DIFFICULTY_RULES say (decided with the roll);
 *   rest or help the storyteller reports gives back up to 10, but never in a chapter that cost
 *   health, and never above the maximum.
 * - Defeat: health at 0 makes the chapter a defeat (never a death). The player then chooses:
 *   rewind (the story's branches) or go on, and going on costs 2 of the maximum for good (never
 *   below 4) and starts again at half of what is left.
 * - Items: the storyteller reports what the hero came to carry and what they lost; the engine keeps
 *   only losses of things the hero has, and a consumable the check used is gone.
 * - Growth: a stat grows by 1 when a check on it succeeded against a difficulty above the stat (the
 *   hero learned something), and one stat grows by 1 when a mission is completed (the one the
 *   storyteller proposes, else the check's); at most 2 points a chapter, 1 per stat. The
 *   storyteller's own proposals count for nothing else.
 */
import { randomUUID } from 'node:crypto';
import { STAT_MAX, type ChapterResult, type CheckOutcome, type HeroItem } from '../../../ai/story-ai';
import { STORY_CARD_NAME_MAX, STORY_CARDS_MAX } from '../../shared/limits';
import type { CardEffect, CardSnapshot, Chapter } from '../chapter.entity';
import { calls } from '../memory/story-cards';
import { succeeded } from './checks';

const DEFEAT_MAX_COST = 2;
const HEALTH_MAX_FLOOR = 4;
const GROWTH_PER_CHAPTER = 2;

/** The hero's health as a take records it: before and after, and whether it was a defeat. */
export interface TakeStakes {
  healthBefore: number;
  healthMaxBefore: number;
  healthAfter: number;
  healthMaxAfter: number;
  /** Health reached 0 in this chapter. */
  defeat: boolean;
  /** The hero went on after the previous chapter's defeat: the maximum this cost. */
  lastingCost: number;
  /** Health given back by rest or help in this chapter. */
  healthRestored: number;
  itemsGained: string[];
  itemsLost: string[];
}

export interface Health {
  current: number;
  max: number;
}

/**
 * The health a chapter starts from: after a defeat, going on costs part of the maximum for good and
 * starts at half of what is left.
 */
export function healthGoingOn(before: Health): Health & { lastingCost: number } {
  if (before.current > 0) return { ...before, lastingCost: 0 };
  const max = Math.max(HEALTH_MAX_FLOOR, before.max - DEFEAT_MAX_COST);
  return { current: Math.ceil(max / 2), max, lastingCost: before.max - max };
}

/** The health after the check's cost (what the storyteller is told) and whether it is a defeat. */
export function healthAfterCheck(start: Health, check: CheckOutcome | null): { current: number; max: number; defeat: boolean } {
  const lost = check?.healthLost ?? 0;
  const current = Math.max(0, start.current - lost);
  return { current, max: start.max, defeat: lost > 0 && current === 0 };
}

/** The take's health record from the state before it, its check and what the storyteller reported. */
export function planHealth(before: Health, check: CheckOutcome | null, restored: number): Omit<TakeStakes, 'itemsGained' | 'itemsLost'> {
  const start = healthGoingOn(before);
  const hit = healthAfterCheck(start, check);
  const back = (check?.healthLost ?? 0) > 0 || hit.defeat ? 0 : Math.max(0, Math.min(10, Math.floor(restored)));
  const after = Math.min(start.max, hit.current + back);
  return {
    healthBefore: before.current,
    healthMaxBefore: before.max,
    healthAfter: after,
    healthMaxAfter: start.max,
    defeat: hit.defeat,
    lastingCost: start.lastingCost,
    healthRestored: after - hit.current,
  };
}

/** What the hero carries: the story's item cards held by the hero. */
export function inventoryOf(cards: readonly CardSnapshot[]): HeroItem[] {
  return cards.filter((c) => c.kind === 'item' && c.held).map((c) => ({ name: c.name, description: c.description }));
}

/**
 * The item cards a chapter changes: a gained thing becomes (or is again) a held item card; a lost
 * one, or a consumable the check used up, is no longer held (its card stays, as something the story
 * knows). Losses of things the hero does not carry are ignored. Returns the effects and the names.
 */
export function itemEffects(
  cards: readonly CardSnapshot[],
  gained: ChapterResult['itemsGained'],
  lost: ChapterResult['itemsLost'],
  check: CheckOutcome | null,
  index: number,
): { effects: CardEffect[]; gained: string[]; lost: string[] } {
  const effects: CardEffect[] = [];
  const names = { gained: [] as string[], lost: [] as string[] };
  const current = new Map(cards.map((c) => [c.id, c]));
  const set = (card: CardSnapshot, changes: Partial<CardSnapshot>) => {
    const after = { ...card, ...changes, revision: randomUUID() };
    effects.push({ before: card, after });
    current.set(card.id, after);
  };
  const heldItem = (name: string) => [...current.values()].find((c) => c.kind === 'item' && c.held && calls(c, name));
  const losses = [...lost];
  if (check?.itemUsedUp && check.item) losses.push(check.item);
  for (const name of losses) {
    const card = heldItem(name);
    if (!card || names.lost.includes(card.name)) continue;
    set(card, { held: false, status: check?.itemUsedUp && check.item === name ? 'used up' : 'no longer carried', lastSeenIndex: index });
    names.lost.push(card.name);
  }
  for (const g of gained) {
    const name = g.name.trim().slice(0, STORY_CARD_NAME_MAX);
    if (!name || names.lost.some((n) => n.toLowerCase() === name.toLowerCase())) continue;
    const known = [...current.values()].find((c) => calls(c, name));
    if (known) {
      // A person or place of that name is not something to carry; a held item is already carried.
      if (known.kind !== 'item' || known.held) continue;
      set(known, { held: true, status: 'carried', lastSeenIndex: index });
    } else {
      if (current.size >= STORY_CARDS_MAX) continue;
      const card: CardSnapshot = {
        id: randomUUID(),
        kind: 'item',
        name,
        aliases: [],
        description: g.description.trim(),
        role: null,
        status: 'carried',
        pinned: false,
        source: 'model',
        edited: false,
        lastSeenIndex: index,
        held: true,
        revision: randomUUID(),
      };
      effects.push({ before: null, after: card });
      current.set(card.id, card);
    }
    names.gained.push(name);
  }
  return { effects, gained: names.gained, lost: names.lost };
}

/**
 * The stat gains a chapter earned (see the header), from the stats before it: a success against a
 * difficulty above the stat, and a completed mission.
 */
export function earnedGrowth(
  stats: Record<string, number>,
  check: CheckOutcome | null,
  missionCompleted: boolean,
  proposed: Record<string, number | undefined>,
): Record<string, number> {
  const gains: Record<string, number> = {};
  const keyOf = (name: string) => Object.keys(stats).find((k) => k.toLowerCase() === name.toLowerCase());
  const add = (name: string | undefined) => {
    const key = name ? keyOf(name) : undefined;
    if (!key || gains[key] || (stats[key] ?? 0) >= STAT_MAX) return false;
    if (Object.keys(gains).length >= GROWTH_PER_CHAPTER) return false;
    gains[key] = 1;
    return true;
  };
  if (check && succeeded(check.outcome) && check.difficulty > (stats[keyOf(check.stat) ?? ''] ?? 0)) add(check.stat);
  if (missionCompleted) {
    const wanted = Object.entries(proposed)
      .filter(([, v]) => (v ?? 0) > 0)
      .map(([k]) => k);
    if (!wanted.some((k) => add(k))) add(check?.stat);
  }
  return gains;
}

/**
 * A continuation's belongings and rest: what the take it continues gained, lost and got back, then
 * the continuation's (the continued take is planned again from the state before it).
 */
export function continuedStakes(
  prev: Chapter,
  more: Pick<ChapterResult, 'itemsGained' | 'itemsLost' | 'healthRestored'>,
): Pick<ChapterResult, 'itemsGained' | 'itemsLost' | 'healthRestored'> {
  const gained = (prev.cardEffects ?? [])
    .filter((e) => e.after.kind === 'item' && e.after.held && !e.before?.held)
    .map((e) => ({ name: e.after.name, description: e.after.description }));
  return {
    itemsGained: [...gained, ...more.itemsGained],
    itemsLost: [...(prev.stakes?.itemsLost ?? []), ...more.itemsLost],
    healthRestored: Math.min(10, (prev.stakes?.healthRestored ?? 0) + more.healthRestored),
  };
}

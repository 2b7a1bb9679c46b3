/**
 * Limits and prices the web client must agree with, defined once. `npm run schema:emit` (and the CI
 * freshness check) writes them to client/src/lib/limits.generated.ts, so the client never retypes one.
 */
const SHARED_LIMITS = {
  /** Credits a new world costs (SPEC §9). */
  WORLD_CREATION_COST: 3,
  /** Credits a generated character costs (SPEC §9). */
  CHARACTER_GENERATION_COST: 3,
  /** Characters in a world description (SPEC §5's 1200 rule). */
  WORLD_DESCRIPTION_MAX: 1200,
  /** Characters in a player's typed action. */
  ACTION_MAX: 500,
  /** Characters in a mission objective the player edits. */
  OBJECTIVE_MAX: 240,
  /** Characters of a story's plot essentials (always in the chapter prompt). */
  PLOT_ESSENTIALS_MAX: 2000,
  /** Characters of a story's author's note (placed right before the action). */
  AUTHORS_NOTE_MAX: 500,
  /** Characters of the rolling summary the player may edit. */
  STORY_SUMMARY_MAX: 4000,
  /** Characters of one chapter's text (the storyteller's or the player's rewrite). */
  CHAPTER_TEXT_MAX: 6000,
  /** Story cards per story (the player's and those chapters add). */
  STORY_CARDS_MAX: 100,
  /** A story card's name and each alias. */
  STORY_CARD_NAME_MAX: 60,
  /** Aliases per story card. */
  STORY_CARD_ALIASES_MAX: 8,
  /** A story card's description. */
  STORY_CARD_DESCRIPTION_MAX: 1000,
  /** A story card's role and status. */
  STORY_CARD_LINE_MAX: 80,
  /** A memory of the memory bank: one line. */
  MEMORY_TEXT_MAX: 200,
  /** Reading level of a new player's settings. */
  DEFAULT_READING_LEVEL: 8,
} as const;

export const {
  WORLD_CREATION_COST,
  CHARACTER_GENERATION_COST,
  WORLD_DESCRIPTION_MAX,
  ACTION_MAX,
  OBJECTIVE_MAX,
  DEFAULT_READING_LEVEL,
  PLOT_ESSENTIALS_MAX,
  AUTHORS_NOTE_MAX,
  STORY_SUMMARY_MAX,
  CHAPTER_TEXT_MAX,
  STORY_CARDS_MAX,
  STORY_CARD_NAME_MAX,
  STORY_CARD_ALIASES_MAX,
  STORY_CARD_DESCRIPTION_MAX,
  STORY_CARD_LINE_MAX,
  MEMORY_TEXT_MAX,
} = SHARED_LIMITS;

/** The client's copy of SHARED_LIMITS, as TypeScript source. */
export function clientLimitsSource(): string {
  const lines = Object.entries(SHARED_LIMITS).map(([k, v]) => `export const ${k} = ${JSON.stringify(v)};`);
  return `// Generated from server/src/modules/shared/limits.ts by \`npm run schema:emit\`. Do not edit.\n${lines.join('\n')}\n`;
}

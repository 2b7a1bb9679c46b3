// Generated from server/src/modules/shared/limits.ts by `npm run schema:emit`. Do not edit.
export const WORLD_CREATION_COST = 3;
export const CHARACTER_GENERATION_COST = 3;
export const WORLD_DESCRIPTION_MAX = 1200;
export const ACTION_MAX = 500;
export const OBJECTIVE_MAX = 240;
export const PLOT_ESSENTIALS_MAX = 2000;
export const AUTHORS_NOTE_MAX = 500;
export const STORY_SUMMARY_MAX = 4000;
export const CHAPTER_TEXT_MAX = 6000;
export const STORY_CARDS_MAX = 100;
export const STORY_CARD_NAME_MAX = 60;
export const STORY_CARD_ALIASES_MAX = 8;
export const STORY_CARD_DESCRIPTION_MAX = 1000;
export const STORY_CARD_LINE_MAX = 80;
export const MEMORY_TEXT_MAX = 200;
export const DEFAULT_READING_LEVEL = 8;

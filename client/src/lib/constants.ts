/** SPEC §9 business constants. */
export const WORLD_CREATION_COST = 3;
export const CHARACTER_GENERATION_COST = 3;
export const WORLD_DESCRIPTION_MAX = 1200;
export const SWIPE_THRESHOLD_PX = 50;
export const CAROUSEL_BREAKPOINTS = { one: 768, two: 1024 } as const;
export const MISSION_COMPLETE_HIGHLIGHT_MS = 3000;
export const SUPPORT_SUBMITTED_MS = 3000;
export const DEFAULT_READING_LEVEL = 8;
export const SUPPORT_TYPES = ['contact', 'feedback', 'bug'] as const;
export type SupportType = (typeof SUPPORT_TYPES)[number];
/** Window event that makes every subscription status display reload (SPEC §4). */
export const REFRESH_SUBSCRIPTION_EVENT = 'refreshSubscription';

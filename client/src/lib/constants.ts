/** SPEC §9 business constants. Those the server enforces come from it (limits.generated.ts). */
export { ACTION_MAX, CHARACTER_GENERATION_COST, OBJECTIVE_MAX, WORLD_CREATION_COST, WORLD_DESCRIPTION_MAX } from './limits.generated';
export const SWIPE_THRESHOLD_PX = 50;
export const CAROUSEL_BREAKPOINTS = { one: 768, two: 1024 } as const;
export const MISSION_COMPLETE_HIGHLIGHT_MS = 3000;
export const SUPPORT_SUBMITTED_MS = 3000;
/** SPEC §9's 5 s is the default toast; one the player is asked to act on (click to go and fix something)
 * stays twice as long, so reading it and reaching for it fit in its time (WCAG 2.2.1, timing adjustable). */
export const TOAST_MS = 5000;
export const ACTIONABLE_TOAST_MS = 10_000;
export { DEFAULT_READING_LEVEL } from './limits.generated';
export const SUPPORT_TYPES = ['contact', 'feedback', 'bug'] as const;
export type SupportType = (typeof SUPPORT_TYPES)[number];
/** Window event that makes every subscription status display reload (SPEC §4). */
export const REFRESH_SUBSCRIPTION_EVENT = 'refreshSubscription';

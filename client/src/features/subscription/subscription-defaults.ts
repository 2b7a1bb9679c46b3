/** SPEC §9: shown while the subscription status is unknown (and until the billing API exists). */
export const DEFAULT_SUBSCRIPTION = {
  tierName: 'Free',
  credits: 0,
  maxContextTokens: 2000,
} as const;

/** SPEC §9: context tokens are shown as tokens / 1000 followed by k. */
export function formatContextTokens(tokens: number): string {
  return `${Math.round(tokens / 1000)}k`;
}

/** SPEC §9: shown while the subscription status is unknown. */
export const DEFAULT_SUBSCRIPTION = {
  tierName: 'Free',
  credits: 0,
  maxContextTokens: 2000,
} as const;

/** SPEC §9: context tokens are shown as tokens / 1000 followed by k. */
export function formatContextTokens(tokens: number): string {
  return `${Number((tokens / 1000).toFixed(1))}k`;
}

/** SPEC §9: prices per month in USD. */
export function formatPrice(price: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: price % 1 === 0 ? 0 : 2 }).format(price);
}

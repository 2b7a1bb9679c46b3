/**
 * Broadcast after every write that an instance may hold in memory: a world (cached public lists), a
 * revoked session (session checks), a credit change (balances). Every instance forgets at once.
 * The operator CLI publishes on the same channel, so its actions reach running instances too.
 */
export const INVALIDATE_TOPIC = 'taleforge:cache:invalidate';

export type Invalidation = { kind: 'worlds'; id: string } | { kind: 'session'; id: string } | { kind: 'credits'; id: string };

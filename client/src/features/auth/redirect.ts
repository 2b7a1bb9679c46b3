import type { Location } from 'react-router-dom';

/** Router state carried to /auth so the user returns where they were going (SPEC §2). */
export interface AuthRedirectState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

const DEFAULT_AFTER_LOGIN = '/worlds';

export function returnPath(state: unknown): string {
  const from = (state as AuthRedirectState | null)?.from;
  if (!from?.pathname || from.pathname === '/auth') return DEFAULT_AFTER_LOGIN;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

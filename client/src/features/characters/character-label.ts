export const UNKNOWN_WORLD = 'Unknown World';

/** 'name - world name' (SPEC §2), with 'Unknown World' when the world is gone or unknown. */
export function characterOptionLabel(c: { name: string; worldName: string | null }): string {
  return `${c.name} - ${c.worldName ?? UNKNOWN_WORLD}`;
}

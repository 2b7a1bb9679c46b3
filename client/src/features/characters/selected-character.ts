/** The currently selected character (SPEC §2), remembered across reloads. */
const KEY = 'taleforge.selectedCharacter';

export function rememberSelectedCharacter(id: string | null): void {
  try {
    if (id) window.localStorage.setItem(KEY, id);
    else window.localStorage.removeItem(KEY);
  } catch {
    /* storage unavailable */
  }
}

export function selectedCharacterId(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

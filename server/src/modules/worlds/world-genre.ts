/**
 * The genre we store on a world, in the vocabulary of the seeded worlds and the `genre` filter
 * (kebab-case), detected by the offline storyteller's keyword model. Detection is local and instant,
 * so it runs for every world whichever story AI is configured.
 */
import type { GenreId } from '../../ai/offline/genres';
import { detectGenre } from '../../ai/offline/world-model';

const STORED: Record<GenreId, string> = {
  highFantasy: 'high-fantasy',
  darkFantasy: 'dark-fantasy',
  sciFi: 'science-fiction',
  spaceOpera: 'space-opera',
  cyberpunk: 'cyberpunk',
  horror: 'horror',
  postApocalyptic: 'post-apocalyptic',
  western: 'western',
  noir: 'noir',
  pirate: 'pirate',
  steampunk: 'steampunk',
  mythic: 'mythic',
  urban: 'modern-urban',
};

export function genreOf(description: string): string | null {
  try {
    const lower = description.toLowerCase();
    const { genre } = detectGenre(description);
    // With no keyword at all the detector still picks a genre (by hash, for varied prose); a stored
    // genre is a claim third parties filter on, so there it stays null.
    if (!genre.keywords.some((k) => lower.includes(k))) return null;
    return STORED[genre.id] ?? null;
  } catch {
    return null;
  }
}

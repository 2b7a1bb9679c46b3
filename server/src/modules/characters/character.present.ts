import { isoDate } from '../shared/rest';
import type { Character } from './character.entity';

/** SPEC §3 saved character (list entry), with the world's name for 'name - world name'. */
export function savedCharacter(c: Character, worldName: string | null) {
  return {
    id: c.id,
    name: c.name,
    world_id: c.worldId,
    world_name: worldName,
    stats: c.stats,
    description: c.description,
    traits: c.traits,
    special: c.special,
    strengths: c.strengths,
    weaknesses: c.weaknesses,
    created_at: isoDate(c.createdAt),
  };
}

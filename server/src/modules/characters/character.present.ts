import { isoDate } from '../shared/rest';
import type { Character } from './character.entity';
import type { CharacterDraft } from './character-draft.entity';

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

/** An unsaved draft, in the saved character's shape (its `name` is the generated username). */
export function characterDraft(d: CharacterDraft, worldName: string | null) {
  return {
    id: d.id,
    name: d.name,
    world_id: d.worldId,
    world_name: worldName,
    stats: d.stats,
    description: d.description,
    traits: d.traits,
    special: d.special,
    strengths: d.strengths,
    weaknesses: d.weaknesses,
    created_at: isoDate(d.createdAt),
  };
}

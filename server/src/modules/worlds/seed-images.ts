import { OfflineStoryAI } from '../../ai';
import type { SeedWorld } from '../../db/seed-data';
import type { MediaBlob } from '../media/media.service';

const procedural = new OfflineStoryAI();

/**
 * Featured-world art: always the offline storyteller's procedural picture, whichever story AI is
 * configured — boot must not depend on (or pay for) an images API. Seeded by the world's fixed id,
 * so every installation draws the same picture for the same world.
 */
export async function proceduralSeedImage(world: SeedWorld): Promise<MediaBlob> {
  const img = await procedural.generateWorldImage({ worldDescription: world.description, seed: seedOf(world.id) });
  return { mime: img.mime, bytes: img.bytes };
}

function seedOf(id: string): number {
  let h = 2166136261;
  for (const ch of id) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

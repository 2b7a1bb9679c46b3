import { sharp } from '../../common/lazy-modules';
import { OfflineStoryAI } from '../../ai';
import { IMAGE_HEIGHT, IMAGE_WIDTH } from '../../ai/offline/image';
import type { Config } from '../../config/env';
import type { SeedWorld } from '../../db/seed-data';
import type { MediaBlob } from '../media/media.service';

const procedural = new OfflineStoryAI();

/**
 * Featured-world art: always the offline storyteller's procedural picture, whichever story AI is
 * configured — boot must not depend on (or pay for) an images API. Seeded by the world's fixed id,
 * so every installation draws the same picture for the same world.
 */
async function proceduralSeedImage(world: SeedWorld): Promise<MediaBlob> {
  const img = await procedural.generateWorldImage({ worldDescription: world.description, seed: seedOf(world.id) });
  return { mime: img.mime, bytes: img.bytes };
}

/**
 * SEED_IMAGES=placeholder (tests): a flat JPEG of the art's size in a colour of the world's own, so
 * every seeded database and spawned server has real, distinct, servable pictures without spending
 * ~0.2 s of CPU on each of the 14 paintings.
 */
async function placeholderSeedImage(world: SeedWorld): Promise<MediaBlob> {
  const h = seedOf(world.id);
  const background = { r: h & 0xff, g: (h >>> 8) & 0xff, b: (h >>> 16) & 0xff };
  const bytes = await sharp({ create: { width: IMAGE_WIDTH, height: IMAGE_HEIGHT, channels: 3, background } })
    .jpeg({ quality: 60 })
    .toBuffer();
  return { mime: 'image/jpeg', bytes };
}

/** The seeding's picture maker for this configuration (SEED_IMAGES). */
export function seedImageFor(config: Pick<Config, 'seedImages'>): (world: SeedWorld) => Promise<MediaBlob> {
  return config.seedImages === 'placeholder' ? placeholderSeedImage : proceduralSeedImage;
}

function seedOf(id: string): number {
  let h = 2166136261;
  for (const ch of id) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

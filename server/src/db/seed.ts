import type { DataSource } from 'typeorm';
import type { MediaBlob, MediaService } from '../modules/media/media.service';
import { Tier } from '../modules/billing/tier.entity';
import { World } from '../modules/worlds/world.entity';
import { FEATURED_WORLDS, TIERS, type SeedWorld } from './seed-data';

export interface SeedOptions {
  /** Produces a world's image (the offline storyteller's procedural art); omitted → no image. */
  imageFor?: (world: SeedWorld) => Promise<MediaBlob>;
}

/**
 * Idempotent: tiers are upserted (so price or feature edits reach existing databases), featured
 * worlds are inserted once by their fixed id and never overwritten (an operator may have edited them).
 */
export async function seed(dataSource: DataSource, media: MediaService, options: SeedOptions = {}): Promise<{ worldsAdded: number }> {
  await dataSource.getRepository(Tier).upsert(
    TIERS.map((t) => ({ ...t, features: [...t.features] })),
    ['id'],
  );
  const worlds = dataSource.getRepository(World);
  const existing = new Set((await worlds.find({ select: { id: true }, where: { featured: true } })).map((w) => w.id));
  let worldsAdded = 0;
  for (const w of FEATURED_WORLDS) {
    if (existing.has(w.id)) continue;
    // Images are made outside the transaction: generating them takes a while and needs no lock.
    const image = options.imageFor ? await options.imageFor(w) : undefined;
    await dataSource.transaction(async (m) => {
      const stored = image ? await media.store(m, image) : null;
      await m.getRepository(World).insert({
        id: w.id,
        ownerId: null,
        name: w.name,
        description: w.description,
        questions: [...w.questions],
        genre: w.genre,
        featured: true,
        sharedGlobally: true,
        imageMediaId: stored?.id ?? null,
      });
    });
    worldsAdded++;
  }
  return { worldsAdded };
}

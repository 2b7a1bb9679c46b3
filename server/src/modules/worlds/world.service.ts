import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import { World } from './world.entity';

export interface FeaturedQuery {
  limit?: number;
  offset?: number;
  search?: string | null;
  genre?: string | null;
}

export const FEATURED_PAGE_MAX = 100;

/** Worlds: reads for now; creation, sharing and images arrive with the worlds issue. */
export class WorldService {
  constructor(private readonly dataSource: DataSource) {}

  /** Public: featured worlds, newest first, optionally filtered by text (name/description) and genre. */
  async featured(q: FeaturedQuery = {}): Promise<World[]> {
    const limit = q.limit ?? 50;
    const offset = q.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > FEATURED_PAGE_MAX) {
      throw AppError.badInput(`limit must be between 1 and ${FEATURED_PAGE_MAX}.`, 'limit');
    }
    if (!Number.isInteger(offset) || offset < 0) throw AppError.badInput('offset must be 0 or more.', 'offset');
    const qb = this.dataSource.getRepository(World).createQueryBuilder('w').where('w.featured = true');
    const search = q.search?.trim();
    if (search) {
      if (search.length > 100) throw AppError.badInput('search must be at most 100 characters.', 'search');
      // ILIKE with the wildcards in the pattern escaped: the search text is data, never a pattern.
      const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere('(w.name ILIKE :pattern OR w.description ILIKE :pattern)', { pattern });
    }
    const genre = q.genre?.trim();
    if (genre) qb.andWhere('w.genre = :genre', { genre });
    return qb.orderBy('w.created_at', 'ASC').addOrderBy('w.id', 'ASC').limit(limit).offset(offset).getMany();
  }

  imageUrl(world: World): string | null {
    return world.imageMediaId ? `/media/${world.imageMediaId}` : null;
  }
}

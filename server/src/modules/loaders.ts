import DataLoader from 'dataloader';
import { In, IsNull, type DataSource } from 'typeorm';
import { User } from './auth/user.entity';
import { World } from './worlds/world.entity';
import { publicationView, type PublicationView } from './community/community.service';
import { StoryPublication } from './community/story-publication.entity';

/**
 * Per-request batch loaders for relation fields, so a page of N items costs one query per relation
 * rather than N. Built fresh for every request (and every WebSocket operation context): caches never
 * outlive the request, so they can never serve another user's or a stale row.
 */
export interface Loaders {
  worldById: DataLoader<string, World | null>;
  /** A user's public name (never the rest of the row: password hashes and emails stay in the database). */
  usernameById: DataLoader<string, string | null>;
  /** Whether the viewer likes each world (false for everyone when nobody is signed in). */
  likedByViewer: DataLoader<string, boolean>;
  /** The viewer's publication of each of their stories, by character id (null: not published). */
  publicationByCharacter: DataLoader<string, PublicationView | null>;
}

export function createLoaders(dataSource: DataSource, viewerId: string | null): Loaders {
  return {
    publicationByCharacter: new DataLoader(async (ids) => {
      if (viewerId === null) return ids.map(() => null);
      const rows = await dataSource.getRepository(StoryPublication).find({ where: { userId: viewerId, characterId: In([...ids]), withdrawnAt: IsNull() } });
      const byCharacter = new Map(rows.map((r) => [r.characterId, publicationView(r)]));
      return ids.map((id) => byCharacter.get(id) ?? null);
    }),
    likedByViewer: new DataLoader(async (ids) => {
      if (viewerId === null) return ids.map(() => false);
      const rows = (await dataSource.query('SELECT world_id FROM world_likes WHERE user_id = $1 AND world_id = ANY($2::uuid[])', [
        viewerId,
        [...ids],
      ])) as Array<{
        world_id: string;
      }>;
      const liked = new Set(rows.map((r) => r.world_id));
      return ids.map((id) => liked.has(id));
    }),
    worldById: new DataLoader(async (ids) => byId(await dataSource.getRepository(World).find({ where: { id: In([...ids]) } }), ids)),
    usernameById: new DataLoader(async (ids) => {
      const rows = await dataSource.getRepository(User).find({ select: { id: true, username: true }, where: { id: In([...ids]) } });
      const names = new Map(rows.map((r) => [r.id, r.username]));
      return ids.map((id) => names.get(id) ?? null);
    }),
  };
}

function byId<T extends { id: string }>(rows: T[], ids: readonly string[]): Array<T | null> {
  const map = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => map.get(id) ?? null);
}

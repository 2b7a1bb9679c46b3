import DataLoader from 'dataloader';
import { In, type DataSource } from 'typeorm';
import { User } from './auth/user.entity';
import { World } from './worlds/world.entity';

/**
 * Per-request batch loaders for relation fields, so a page of N items costs one query per relation
 * rather than N. Built fresh for every request (and every WebSocket operation context): caches never
 * outlive the request, so they can never serve another user's or a stale row.
 */
export interface Loaders {
  worldById: DataLoader<string, World | null>;
  userById: DataLoader<string, User | null>;
}

export function createLoaders(dataSource: DataSource): Loaders {
  return {
    worldById: new DataLoader(async (ids) => byId(await dataSource.getRepository(World).find({ where: { id: In([...ids]) } }), ids)),
    userById: new DataLoader(async (ids) => byId(await dataSource.getRepository(User).find({ where: { id: In([...ids]) } }), ids)),
  };
}

function byId<T extends { id: string }>(rows: T[], ids: readonly string[]): Array<T | null> {
  const map = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => map.get(id) ?? null);
}

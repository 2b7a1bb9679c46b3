import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/app-error';
import { isUuid } from '../shared/input';
import { Character } from './character.entity';

/**
 * The one owned-character rule: a player reaches only their own characters, and anyone else's id
 * answers exactly like an id that does not exist (NOT_FOUND, no probing). Every service that takes a
 * character id from a player looks it up here; GraphQL fields on an already-loaded Character check
 * it with assertOwnedBy.
 */
export async function findOwnedCharacter(db: DataSource | EntityManager, userId: string, characterId: unknown): Promise<Character> {
  if (!isUuid(characterId)) throw AppError.notFound('Character');
  const c = await db.getRepository(Character).findOne({ where: { id: characterId, userId } });
  if (!c) throw AppError.notFound('Character');
  return c;
}

export function assertOwnedBy(c: Pick<Character, 'userId'>, userId: string | null | undefined): void {
  if (!userId || userId !== c.userId) throw AppError.notFound('Character');
}

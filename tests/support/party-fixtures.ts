import { Character } from '../../server/src/modules/characters/character.entity';
import { BASE_STATS } from './story-fixtures';
import { signUp, type TestApp } from './test-app';

/** A new player with a saved character in `worldId` (what joining a party needs), on app `t`. */
export async function partyPlayer(t: TestApp, worldId: string, name: string, stats: Record<string, number> = BASE_STATS) {
  const u = await signUp(t);
  const repo = t.app.db.dataSource.getRepository(Character);
  const c = await repo.save(
    repo.create({
      userId: u.user.id,
      worldId,
      name,
      description: `${name}, a traveller who came to the valley looking for work and stayed for the stories.`,
      stats,
      traits: ['brave'],
      strengths: ['climbing'],
      weaknesses: ['impatience'],
      special: { name: 'Knack', description: 'Finds a way.' },
    }),
  );
  return { id: u.user.id, email: u.email, password: u.password, username: u.username, token: u.accessToken, characterId: c.id, name };
}

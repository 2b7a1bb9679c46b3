import { Character } from '../../server/src/modules/characters/character.entity';
import { BASE_STATS } from './story-fixtures';
import { signUp, type TestApp } from './test-app';

/** Saves a character called `name` for `userId` in `worldId` (what joining a party needs); its id. */
export async function saveCharacter(t: TestApp, userId: string, worldId: string, name: string, stats: Record<string, number> = BASE_STATS) {
  const repo = t.app.db.dataSource.getRepository(Character);
  const c = await repo.save(
    repo.create({
      userId,
      worldId,
      name,
      description: `${name}, who came to the valley looking for work and stayed for the stories.`,
      stats,
      traits: ['brave'],
      strengths: ['climbing'],
      weaknesses: ['impatience'],
      special: { name: 'Knack', description: 'Finds a way.' },
    }),
  );
  return c.id;
}

/** A character called `name` for the account signed up (in a browser) as `email`, in the first featured world. */
export async function characterOfEmail(t: TestApp, email: string, name: string): Promise<string> {
  const ds = t.app.db.dataSource;
  const [u] = (await ds.query(`SELECT id FROM users WHERE email = $1`, [email])) as Array<{ id: string }>;
  const [w] = (await ds.query(`SELECT id FROM worlds WHERE featured ORDER BY name LIMIT 1`)) as Array<{ id: string }>;
  return saveCharacter(t, u!.id, w!.id, name);
}

/** A new player with a saved character in `worldId`, on app `t`. */
export async function partyPlayer(t: TestApp, worldId: string, name: string, stats: Record<string, number> = BASE_STATS) {
  const u = await signUp(t);
  const characterId = await saveCharacter(t, u.user.id, worldId, name, stats);
  return { id: u.user.id, email: u.email, password: u.password, username: u.username, token: u.accessToken, characterId, name };
}

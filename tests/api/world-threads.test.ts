/**
 * The player's answers go with the story (issue 32): saved with the character's copy of its world
 * (GraphQL and REST), checked like any input, and the chapters are written from the world's own
 * material — Hollowmere's story happens at Ravenscar Hall, with Vicar Thorne, not in invented places.
 */
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { characterPayload } from './domain-helpers';

const HOLLOWMERE = '00000000-0000-4000-a000-000000000004';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const snapshotOf = async (id: string) =>
  ((await t.app.db.dataSource.query('SELECT world_snapshot FROM characters WHERE id = $1', [id])) as Array<{ world_snapshot: Record<string, unknown> }>)[0]!
    .world_snapshot;

describe("the player's answers are kept with the story's world", () => {
  it('REST insert-characters keeps them with the questions; a list that is not strings is a coded error', async () => {
    const me = await signUp(t);
    const answers = ['A letter from my dead sister Clara', 'My mother, drowned', '', 'That I am one of them'];
    const saved = await t.rest('POST', '/api/profile/insert-characters', { ...characterPayload(HOLLOWMERE, 'Edmund Hale'), answers }, me.accessToken);
    expect(saved.status).toBe(201);
    const snap = await snapshotOf(saved.body.id);
    expect(snap.name).toBe('Hollowmere');
    expect(snap.answers).toEqual(answers);
    expect((snap.questions as string[]).length).toBe(4);

    const bad = await t.rest('POST', '/api/profile/insert-characters', { ...characterPayload(HOLLOWMERE), answers: [42] }, me.accessToken);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('BAD_USER_INPUT');
  });

  it('GraphQL saveCharacter keeps them; without answers the snapshot has none', async () => {
    const me = await signUp(t);
    const p = characterPayload(HOLLOWMERE, 'Ada Moss');
    const input = {
      name: p.name,
      worldId: HOLLOWMERE,
      stats: p.stats,
      description: p.description,
      traits: p.traits,
      strengths: p.strengths,
      weaknesses: p.weaknesses,
      special: p.special,
    };
    const q = 'mutation($input: SaveCharacterInput!) { saveCharacter(input: $input) { id } }';
    const withAnswers = await t.gql(q, { input: { ...input, answers: ['An inheritance', 'My brother'] } }, me.accessToken);
    expect(await snapshotOf(withAnswers.data!.saveCharacter.id)).toMatchObject({ answers: ['An inheritance', 'My brother'] });
    const without = await t.gql(q, { input }, me.accessToken);
    expect((await snapshotOf(without.data!.saveCharacter.id)).answers).toBeUndefined();
  });

  it("Hollowmere's chapters happen among its own places and people", async () => {
    const me = await signUp(t);
    const saved = await t.rest(
      'POST',
      '/api/profile/insert-characters',
      { ...characterPayload(HOLLOWMERE, 'Edmund Hale'), answers: ['A letter from my dead sister'] },
      me.accessToken,
    );
    let text = '';
    let choice = '';
    for (let i = 0; i < 8; i++) {
      const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: saved.body.id, userChoice: choice, readingLevel: 8 }, me.accessToken);
      expect(r.status).toBe(200);
      text += `${r.body.newChapter.text}\n`;
      choice = r.body.newChapter.choices[i % r.body.newChapter.choices.length];
    }
    expect(text).toMatch(/Ravenscar Hall|the chapel of Saint Ebba/);
    expect(text).toMatch(/Thorne|Drowned Choir|Ashworth/);
    expect(text).not.toMatch(/Thorn Court|Mormoor|Skelbarrow|Kharfen/);
  });
});

import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { AETHERMOOR, WORLD_DESCRIPTION, balanceOf, countRows } from './domain-helpers';

// The issue: "A generated character that is not saved silently costs 3 of the 10 starting credits:
// credits went 7 -> 4, no character, no warning." A generated character is kept as a draft until the
// player saves or discards it.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const GENERATE = /* GraphQL */ `
  mutation ($input: GenerateCharacterInput!) {
    generateCharacter(input: $input) {
      username
      draftId
    }
  }
`;
const DRAFTS = /* GraphQL */ `
  {
    myCharacterDrafts {
      id
      name
      worldId
      worldName
      description
      answers
    }
  }
`;
const SAVE = /* GraphQL */ `
  mutation ($id: ID!) {
    saveCharacterDraft(id: $id) {
      id
      name
      worldName
    }
  }
`;
const DISCARD = /* GraphQL */ `
  mutation ($id: ID!) {
    discardCharacterDraft(id: $id)
  }
`;

function generateInput(username: string, worldId: string | null = AETHERMOOR) {
  return {
    worldDescription: WORLD_DESCRIPTION,
    questions: ['What brought you here?'],
    answers: ['A map that burns at dawn'],
    username,
    worldId,
  };
}

describe('character drafts', () => {
  it('a generated character that is not saved is still there as a draft, and saving it makes the character (once)', async () => {
    const me = await signUp(t);
    const before = await balanceOf(t, me.user.id);
    const gen = await t.gql(GENERATE, { input: generateInput('Ash Korrin') }, me.accessToken);
    expect(gen.errors).toBeUndefined();
    expect(await balanceOf(t, me.user.id)).toBe(before - 3);
    const draftId = gen.data!.generateCharacter.draftId as string;
    expect(draftId).toEqual(expect.any(String));

    // The player leaves the result screen; later the paid-for character is still theirs to find.
    const drafts = await t.gql(DRAFTS, {}, me.accessToken);
    expect(drafts.data!.myCharacterDrafts).toEqual([
      expect.objectContaining({ id: draftId, name: 'Ash Korrin', worldId: AETHERMOOR, worldName: 'Aethermoor', answers: ['A map that burns at dawn'] }),
    ]);
    expect((await t.gql(`{ myCharacters { id } }`, {}, me.accessToken)).data!.myCharacters).toEqual([]);

    const saved = await t.gql(SAVE, { id: draftId }, me.accessToken);
    expect(saved.errors).toBeUndefined();
    expect(saved.data!.saveCharacterDraft).toMatchObject({ name: 'Ash Korrin', worldName: 'Aethermoor' });
    expect((await t.gql(`{ myCharacters { name } }`, {}, me.accessToken)).data!.myCharacters).toEqual([{ name: 'Ash Korrin' }]);
    expect((await t.gql(DRAFTS, {}, me.accessToken)).data!.myCharacterDrafts).toEqual([]);
    // Saving costs nothing more, and a second save (a double click) does not make a second character.
    expect(await balanceOf(t, me.user.id)).toBe(before - 3);
    const again = await t.gql(SAVE, { id: draftId }, me.accessToken);
    expect(again.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(await countRows(t, 'characters', 'user_id = $1', [me.user.id])).toBe(1);
  });

  it('discarding removes the draft; nobody else can list, save or discard it', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    const gen = await t.gql(GENERATE, { input: generateInput('Tamsin Reed') }, me.accessToken);
    const draftId = gen.data!.generateCharacter.draftId as string;

    expect((await t.gql(DRAFTS, {}, other.accessToken)).data!.myCharacterDrafts).toEqual([]);
    expect((await t.gql(SAVE, { id: draftId }, other.accessToken)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await t.gql(DISCARD, { id: draftId }, other.accessToken)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect((await t.gql(DISCARD, { id: 'not-an-id' }, me.accessToken)).errors?.[0].extensions?.code).toBe('NOT_FOUND');

    const discarded = await t.gql(DISCARD, { id: draftId }, me.accessToken);
    expect(discarded.data!.discardCharacterDraft).toBe(true);
    expect((await t.gql(DRAFTS, {}, me.accessToken)).data!.myCharacterDrafts).toEqual([]);
    expect(await countRows(t, 'characters', 'user_id = $1', [me.user.id])).toBe(0);
  });

  it('a world the player cannot see is refused before any charge', async () => {
    const me = await signUp(t);
    const before = await balanceOf(t, me.user.id);
    const r = await t.gql(GENERATE, { input: generateInput('Nobody', '00000000-0000-4000-a000-0000000000ff') }, me.accessToken);
    expect(r.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    expect(await balanceOf(t, me.user.id)).toBe(before);
  });

  it('REST: generate with world_id keeps a draft; list, save and discard', async () => {
    const me = await signUp(t);
    const token = me.accessToken;
    const q = (username: string) =>
      new URLSearchParams({
        worldDescription: WORLD_DESCRIPTION,
        questions: JSON.stringify(['What brought you here?']),
        answers: JSON.stringify(['A debt']),
        username,
        world_id: AETHERMOOR,
      });
    const first = await t.rest('GET', `/api/characters/generate?${q('Orrin Vale')}`, undefined, token);
    expect(first.status).toBe(200);
    const second = await t.rest('GET', `/api/characters/generate?${q('Pell Dunmore')}`, undefined, token);
    const list = await t.rest('GET', '/api/characters/drafts', undefined, token);
    expect(list.status).toBe(200);
    expect(list.body.map((d: { name: string }) => d.name)).toEqual(['Pell Dunmore', 'Orrin Vale']);
    expect(list.body[0]).toMatchObject({ id: second.body.draftId, world_id: AETHERMOOR, world_name: 'Aethermoor' });

    const saved = await t.rest('POST', `/api/characters/drafts/${first.body.draftId}/save`, {}, token);
    expect(saved.status).toBe(201);
    const chars = await t.rest('GET', '/api/profile/fetch-saved-characters', undefined, token);
    expect(chars.body.map((c: { name: string }) => c.name)).toEqual(['Orrin Vale']);

    expect((await t.rest('DELETE', `/api/characters/drafts/${second.body.draftId}`, undefined, token)).body).toEqual({ success: true });
    expect((await t.rest('DELETE', `/api/characters/drafts/${second.body.draftId}`, undefined, token)).status).toBe(404);
    expect((await t.rest('GET', '/api/characters/drafts', undefined, token)).body).toEqual([]);
  });
});

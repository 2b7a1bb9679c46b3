import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { AETHERMOOR, WORLD_DESCRIPTION, balanceOf, characterPayload, countRows } from './domain-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const GENERATED = ['username', 'stats', 'description', 'traits', 'special', 'strengths', 'weaknesses'];
const SAVED = ['id', 'name', 'world_id', 'stats', 'description', 'traits', 'special', 'strengths', 'weaknesses'];

function generatePath(over: Record<string, string> = {}) {
  const q = new URLSearchParams({
    worldDescription: WORLD_DESCRIPTION,
    questions: JSON.stringify(['What brought you here?', 'What do you fear?']),
    answers: JSON.stringify(['I read every book about sword fighting', 'Storms, and being forgotten']),
    username: 'Mira Vale',
    ...over,
  });
  return `/api/characters/generate?${q}`;
}

describe('characters over REST', () => {
  it('GET /api/characters/generate answers the generated character and charges 3 credits', async () => {
    const me = await signUp(t);
    const before = await balanceOf(t, me.user.id);
    const r = await t.rest('GET', generatePath(), undefined, me.accessToken);
    expect(r.status).toBe(200);
    for (const f of GENERATED) expect(r.body).toHaveProperty(f);
    expect(r.body.username).toBe('Mira Vale');
    expect(r.body.special).toEqual({ name: expect.any(String), description: expect.any(String) });
    expect(Object.values(r.body.stats).every((v) => Number.isInteger(v))).toBe(true);
    expect(await balanceOf(t, me.user.id)).toBe(before - 3);
    const ledger = await t.gql(`{ creditLedger(limit: 5) { delta balanceAfter reason } }`, {}, me.accessToken);
    expect(ledger.data!.creditLedger[0]).toEqual({ delta: -3, balanceAfter: before - 3, reason: 'character_generate' });
  });

  it('short of credits → 403 with nothing charged (SPEC §6)', async () => {
    const me = await signUp(t);
    await t.app.db.dataSource.query('UPDATE subscriptions SET credits = 2 WHERE user_id = $1', [me.user.id]);
    const r = await t.rest('GET', generatePath(), undefined, me.accessToken);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('INSUFFICIENT_CREDITS');
    expect(await balanceOf(t, me.user.id)).toBe(2);
  });

  it('save → list (with world name) → delete; the SPEC payload and fields', async () => {
    const me = await signUp(t);
    const token = me.accessToken;
    const saved = await t.rest('POST', '/api/profile/insert-characters', characterPayload(AETHERMOOR), token);
    expect(saved.status).toBe(201);
    expect(saved.body.success).toBe(true);
    const list = await t.rest('GET', '/api/profile/fetch-saved-characters', undefined, token);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    for (const f of SAVED) expect(list.body[0]).toHaveProperty(f);
    expect(list.body[0]).toMatchObject({
      id: saved.body.id,
      name: 'Mira Vale',
      world_id: AETHERMOOR,
      world_name: 'Aethermoor',
      traits: ['Bold', 'Curious', 'Loyal'],
    });
    expect(list.body[0].description).toContain('\n\n'); // line breaks are kept
    const del = await t.rest('DELETE', `/api/profile/characters/${saved.body.id}`, undefined, token);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect((await t.rest('GET', '/api/profile/fetch-saved-characters', undefined, token)).body).toEqual([]);
    expect((await t.rest('DELETE', `/api/profile/characters/${saved.body.id}`, undefined, token)).status).toBe(404);
  });

  it('spawn from profile: refused while the profile is empty (error field), then 3 credits once filled in', async () => {
    const me = await signUp(t);
    const token = me.accessToken;
    const before = await balanceOf(t, me.user.id);
    const refused = await t.rest('POST', '/api/characters/spawn-from-profile', { worldDescription: WORLD_DESCRIPTION }, token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('Please complete your character profile first!');
    expect(await balanceOf(t, me.user.id)).toBe(before);

    // SPEC: all three required on save.
    const partial = await t.rest('POST', '/api/profile/', { skills: 'Fencing', personalityTraits: '', freeTime: 'Reading' }, token);
    expect(partial.status).toBe(400);
    expect(partial.body.error).toBe('Please fill in all required fields');
    const ok = await t.rest(
      'POST',
      '/api/profile/',
      { skills: 'Fencing and climbing', personalityTraits: 'stubborn, curious', freeTime: 'Reading maps', pastTimes: 'Chess' },
      token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.success).toBe(true);
    const profile = await t.rest('GET', '/api/profile/character-profile', undefined, token);
    expect(profile.body).toEqual({ skills: 'Fencing and climbing', personalityTraits: 'stubborn, curious', freeTime: 'Reading maps', pastTimes: 'Chess' });

    const spawned = await t.rest('POST', '/api/characters/spawn-from-profile', { worldDescription: WORLD_DESCRIPTION }, token);
    expect(spawned.status).toBe(200);
    for (const f of GENERATED) expect(spawned.body).toHaveProperty(f);
    expect(spawned.body.username).toBe(me.username);
    // Any account username works as a character name (they allow "_", for one).
    const underscored = await t.rest('POST', '/api/characters/spawn-from-profile', { worldDescription: WORLD_DESCRIPTION, username: "o'hara_the-2nd" }, token);
    expect(underscored.status).toBe(200);
    expect(await balanceOf(t, me.user.id)).toBe(before - 6);
  });
});

describe('profile, settings, support over REST', () => {
  it('GET /api/profile/ answers username, email, created_at', async () => {
    const me = await signUp(t);
    const r = await t.rest('GET', '/api/profile/', undefined, me.accessToken);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ username: me.username, email: me.email, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect((await t.rest('GET', '/api/profile/')).status).toBe(401);
  });

  it('settings: immersiveui read (default false, reading level 8), immersiveUI written', async () => {
    // Read-aloud's choices come along, untouched here (tests/api/read-aloud.test.ts changes them).
    const readAloud = { readAloudEngine: 'browser', readAloudVoice: '', readAloudServerVoice: '', readAloudRate: 1, readAloudAuto: false };
    const me = await signUp(t);
    const token = me.accessToken;
    expect((await t.rest('GET', '/api/profile/fetch-settings', undefined, token)).body).toEqual({ immersiveui: false, readingLevel: 8, ...readAloud });
    const s = await t.rest('POST', '/api/profile/save-settings', { immersiveUI: true }, token);
    expect(s.status).toBe(200);
    expect((await t.rest('GET', '/api/profile/fetch-settings', undefined, token)).body).toEqual({ immersiveui: true, readingLevel: 8, ...readAloud });
    await t.rest('POST', '/api/profile/save-settings', { readingLevel: 11 }, token);
    expect((await t.rest('GET', '/api/profile/fetch-settings', undefined, token)).body).toEqual({ immersiveui: true, readingLevel: 11, ...readAloud });
    for (const bad of [{ immersiveUI: 'yes' }, { readingLevel: 0 }, { readingLevel: 13 }, { readingLevel: 5.5 }]) {
      expect((await t.rest('POST', '/api/profile/save-settings', bad, token)).status).toBe(400);
    }
    expect((await t.rest('GET', '/api/profile/fetch-settings', undefined, token)).body).toEqual({ immersiveui: true, readingLevel: 11, ...readAloud });
  });

  it('POST /api/support/insert stores contact, feedback and bug messages', async () => {
    const me = await signUp(t);
    for (const type of ['contact', 'feedback', 'bug']) {
      const r = await t.rest('POST', '/api/support/insert', { type, message: `A ${type} message.` }, me.accessToken);
      expect(r.status).toBe(201);
      expect(r.body.success).toBe(true);
    }
    expect(await countRows(t, 'support_messages', 'user_id = $1', [me.user.id])).toBe(3);
    expect((await t.rest('POST', '/api/support/insert', { type: 'bug', message: 'x' })).status).toBe(401);
  });
});

describe('the same over GraphQL', () => {
  const CHARACTER = 'id name worldId worldName world { id name } stats description traits strengths weaknesses special { name description } createdAt';

  it('generateCharacter, saveCharacter, myCharacters, character, deleteCharacter', async () => {
    const me = await signUp(t);
    const token = me.accessToken;
    const g = await t.gql(
      `mutation($input: GenerateCharacterInput!) { generateCharacter(input: $input) { username stats description traits strengths weaknesses special { name description } } }`,
      { input: { worldDescription: WORLD_DESCRIPTION, questions: ['Why?'], answers: ['For the treasure'], username: 'Kade' } },
      token,
    );
    expect(g.errors).toBeUndefined();
    const c = g.data!.generateCharacter;
    expect(c.username).toBe('Kade');
    const s = await t.gql(
      `mutation($input: SaveCharacterInput!) { saveCharacter(input: $input) { ${CHARACTER} } }`,
      {
        input: {
          name: c.username,
          worldId: AETHERMOOR,
          stats: c.stats,
          description: c.description,
          traits: c.traits,
          strengths: c.strengths,
          weaknesses: c.weaknesses,
          special: c.special,
        },
      },
      token,
    );
    expect(s.errors).toBeUndefined();
    expect(s.data!.saveCharacter).toMatchObject({ name: 'Kade', worldId: AETHERMOOR, worldName: 'Aethermoor', world: { id: AETHERMOOR, name: 'Aethermoor' } });
    const id = s.data!.saveCharacter.id;
    const list = await t.gql(`{ myCharacters { id worldName } }`, {}, token);
    expect(list.data!.myCharacters).toEqual([{ id, worldName: 'Aethermoor' }]);
    const one = await t.gql(`query($id: ID!) { character(id: $id) { name } }`, { id }, token);
    expect(one.data!.character.name).toBe('Kade');
    const del = await t.gql(`mutation($id: ID!) { deleteCharacter(id: $id) }`, { id }, token);
    expect(del.data!.deleteCharacter).toBe(true);
    expect((await t.gql(`query($id: ID!) { character(id: $id) { name } }`, { id }, token)).errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('generateCharacter short of credits → INSUFFICIENT_CREDITS', async () => {
    const me = await signUp(t);
    await t.app.db.dataSource.query('UPDATE subscriptions SET credits = 0 WHERE user_id = $1', [me.user.id]);
    const r = await t.gql(
      `mutation { generateCharacter(input: { worldDescription: "A desert of glass.", questions: [], answers: [], username: "Kade" }) { username } }`,
      {},
      me.accessToken,
    );
    expect(r.errors?.[0].extensions?.code).toBe('INSUFFICIENT_CREDITS');
  });

  it('characterProfile, saveCharacterProfile, spawnCharacterFromProfile, settings, saveSettings, submitSupportMessage, creditLedger', async () => {
    const me = await signUp(t);
    const token = me.accessToken;
    expect((await t.gql(`{ characterProfile { skills personalityTraits freeTime pastTimes } }`, {}, token)).data!.characterProfile).toEqual({
      skills: '',
      personalityTraits: '',
      freeTime: '',
      pastTimes: '',
    });
    const spawnEmpty = await t.gql(`mutation { spawnCharacterFromProfile(input: { worldDescription: "A desert of glass." }) { username } }`, {}, token);
    expect(spawnEmpty.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const saved = await t.gql(
      `mutation { saveCharacterProfile(input: { skills: "Archery", personalityTraits: "Calm", freeTime: "Gardening" }) { skills pastTimes } }`,
      {},
      token,
    );
    expect(saved.data!.saveCharacterProfile).toEqual({ skills: 'Archery', pastTimes: '' });
    const spawned = await t.gql(
      `mutation { spawnCharacterFromProfile(input: { worldDescription: "A desert of glass.", username: "Sol" }) { username stats } }`,
      {},
      token,
    );
    expect(spawned.data!.spawnCharacterFromProfile.username).toBe('Sol');

    expect((await t.gql(`{ settings { immersiveUi readingLevel } }`, {}, token)).data!.settings).toEqual({ immersiveUi: false, readingLevel: 8 });
    const st = await t.gql(`mutation { saveSettings(input: { immersiveUi: true, readingLevel: 3 }) { immersiveUi readingLevel } }`, {}, token);
    expect(st.data!.saveSettings).toEqual({ immersiveUi: true, readingLevel: 3 });
    const bad = await t.gql(`mutation { saveSettings(input: { readingLevel: 40 }) { readingLevel } }`, {}, token);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'readingLevel' });

    const sup = await t.gql(`mutation { submitSupportMessage(type: "feedback", message: "Love it") }`, {}, token);
    expect(sup.data!.submitSupportMessage).toBe(true);

    const ledger = await t.gql(`{ creditLedger { delta balanceAfter reason referenceId createdAt } }`, {}, token);
    expect(ledger.data!.creditLedger.map((l: { reason: string }) => l.reason)).toEqual(['character_generate', 'signup_grant']);
    const bal = await balanceOf(t, me.user.id);
    expect(ledger.data!.creditLedger[0].balanceAfter).toBe(bal);
  });

  it('anonymous callers get UNAUTHENTICATED', async () => {
    for (const op of [
      `{ myCharacters { id } }`,
      `{ characterProfile { skills } }`,
      `{ settings { readingLevel } }`,
      `{ creditLedger { id } }`,
      `mutation { submitSupportMessage(type: "bug", message: "x") }`,
      `mutation { deleteCharacter(id: "${AETHERMOOR}") }`,
    ]) {
      expect((await t.gql(op)).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    }
  });
});

import type { FakeOpenAIServer } from '../../server/src/ai/openai/fake-openai-server';
import { makeCharacter } from '../support/story-fixtures';
import { signUp, startTestApp, startWithFakeModel, type TestApp } from '../support/test-app';

/**
 * Story cards end to end: the player's (GraphQL), the ones chapters add from their cast (offline and
 * with a remote model), what reaches the model's prompt, undo, and the Character Card round trip.
 */
const CARD_FIELDS = 'id kind name aliases description role status pinned source edited lastSeenChapter';
const CREATE = `mutation($characterId: ID!, $input: StoryCardInput!) { createStoryCard(characterId: $characterId, input: $input) { ${CARD_FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $input: StoryCardInput!) { updateStoryCard(id: $id, input: $input) { ${CARD_FIELDS} } }`;
const DELETE = 'mutation($id: ID!) { deleteStoryCard(id: $id) }';
const CARDS = `query($id: ID!) { character(id: $id) { storyCards { ${CARD_FIELDS} } } }`;

describe('story cards (offline storyteller)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('the player adds, edits, pins and deletes cards; names are unique per story; strangers see nothing', async () => {
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    const made = await t.gql(
      CREATE,
      { characterId: c.id, input: { name: 'Ilse Varn', aliases: ['the Harbour Witch'], role: 'smuggler', description: 'Owes Ayla a favour.' } },
      p.accessToken,
    );
    expect(made.errors).toBeUndefined();
    const card = made.data!.createStoryCard;
    expect(card).toMatchObject({ kind: 'character', name: 'Ilse Varn', aliases: ['the Harbour Witch'], source: 'player', edited: true, pinned: false });

    const dup = await t.gql(CREATE, { characterId: c.id, input: { name: 'the harbour witch' } }, p.accessToken);
    expect(dup.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(dup.errors![0]!.message).toBe('Another story card is already called "the harbour witch".');
    const badKind = await t.gql(CREATE, { characterId: c.id, input: { name: 'Gate', kind: 'city' } }, p.accessToken);
    expect(badKind.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(badKind.errors![0]!.message).toContain('Value "city" does not exist in "StoryCardKind" enum');
    const markup = await t.gql(CREATE, { characterId: c.id, input: { name: 'Gate', description: '<img src=x onerror=alert(1)>' } }, p.accessToken);
    expect(markup.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');

    const pinned = await t.gql(UPDATE, { id: card.id, input: { pinned: true, status: 'in hiding' } }, p.accessToken);
    expect(pinned.data!.updateStoryCard).toMatchObject({ pinned: true, status: 'in hiding' });

    const stranger = await signUp(t);
    expect((await t.gql(UPDATE, { id: card.id, input: { name: 'Mine' } }, stranger.accessToken)).errors![0]!.extensions!.code).toBe('NOT_FOUND');
    expect((await t.gql(DELETE, { id: card.id }, stranger.accessToken)).errors![0]!.extensions!.code).toBe('NOT_FOUND');
    expect((await t.gql(CREATE, { characterId: c.id, input: { name: 'Spy' } }, stranger.accessToken)).errors![0]!.extensions!.code).toBe('NOT_FOUND');

    expect((await t.gql(DELETE, { id: card.id }, p.accessToken)).data!.deleteStoryCard).toBe(true);
    expect((await t.gql(CARDS, { id: c.id }, p.accessToken)).data!.character.storyCards).toEqual([]);
  });

  it('chapters keep a card per person they show (REST updatedCurrentCharacters), and undo takes a chapter’s new cards back', async () => {
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    const casts: unknown[][] = [];
    for (let i = 0; i < 8; i++) {
      const r = await t.rest(
        'POST',
        '/api/stories/generate-chapter',
        { characterId: c.id, userChoice: i === 0 ? '' : `Look around, step ${i}` },
        p.accessToken,
      );
      expect(r.status).toBe(200);
      casts.push((r.body as { updatedCurrentCharacters: unknown[] }).updatedCurrentCharacters);
    }
    const reported = casts.flat() as Array<{ name: string; role: string | null; status: string | null }>;
    expect(reported.length).toBeGreaterThan(0);
    for (const m of reported) expect(m.name).not.toMatch(/Ayla/);
    const cards = (await t.gql(CARDS, { id: c.id }, p.accessToken)).data!.character.storyCards as Array<{
      name: string;
      source: string;
      lastSeenChapter: number;
    }>;
    // Every person reported has a card (by name or as an alias), made by the storyteller.
    for (const m of reported) expect(cards.some((k) => k.name === m.name)).toBe(true);
    expect(cards.every((k) => k.source === 'model')).toBe(true);

    // Undo the latest chapter: a card it created goes, one it updated is as it was.
    const before = (await t.app.db.dataSource.query(`SELECT name, status, last_seen_index FROM story_cards WHERE character_id = $1 ORDER BY name`, [
      c.id,
    ])) as unknown[];
    const [latest] = (await t.app.db.dataSource.query(
      `SELECT card_effects FROM chapters WHERE character_id = $1 AND is_selected ORDER BY "index" DESC LIMIT 1`,
      [c.id],
    )) as Array<{ card_effects: Array<{ before: { name: string } | null; after: { name: string } }> }>;
    const r = await t.rest('POST', '/api/stories/undo-chapter', { characterId: c.id }, p.accessToken);
    expect(r.status).toBe(200);
    const after = (await t.app.db.dataSource.query(`SELECT name, status, last_seen_index FROM story_cards WHERE character_id = $1 ORDER BY name`, [
      c.id,
    ])) as Array<{
      name: string;
    }>;
    for (const e of latest!.card_effects) {
      if (!e.before) expect(after.map((x) => x.name)).not.toContain(e.after.name);
    }
    if (latest!.card_effects.length === 0) expect(after).toEqual(before);
  });

  it('the point of view is a story setting (second person by default)', async () => {
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    const q = `query($id: ID!) { character(id: $id) { storyMemory { pointOfView } } }`;
    expect((await t.gql(q, { id: c.id }, p.accessToken)).data!.character.storyMemory.pointOfView).toBe('second');
    const m = `mutation($id: ID!) { updateStoryMemory(characterId: $id, input: { pointOfView: third }) { pointOfView } }`;
    expect((await t.gql(m, { id: c.id }, p.accessToken)).data!.updateStoryMemory.pointOfView).toBe('third');
  });

  it('a Character Card V3 character_book imports as story cards, and the export carries them back', async () => {
    const p = await signUp(t);
    const [w] = (await t.app.db.dataSource.query(`SELECT id FROM worlds WHERE featured ORDER BY name LIMIT 1`)) as Array<{ id: string }>;
    const card = {
      spec: 'chara_card_v3',
      spec_version: '3.0',
      data: {
        name: 'Seraphine',
        description: 'A lighthouse keeper who hears the drowned.',
        personality: 'calm, stubborn',
        character_book: {
          entries: [
            {
              keys: ['Gull Rock', 'the Rock'],
              content: 'A lighthouse on a reef. {{char}} keeps it.',
              enabled: true,
              insertion_order: 0,
              use_regex: false,
              constant: true,
            },
            {
              keys: ['Captain Mott'],
              content: '<b>Smuggler</b> who owes {{user}} money.',
              enabled: true,
              insertion_order: 1,
              use_regex: false,
              name: 'Captain Mott',
            },
            { keys: ['/drown(ed)?/i'], content: 'A regex entry.', enabled: true, insertion_order: 2, use_regex: true },
            { keys: ['Secret'], content: 'Disabled.', enabled: false, insertion_order: 3, use_regex: false },
          ],
        },
      },
    };
    const IMPORT = `mutation($worldId: ID!, $card: String!) { importCharacterCard(worldId: $worldId, card: $card) { id storyCards { ${CARD_FIELDS} } } }`;
    const r = await t.gql(IMPORT, { worldId: w!.id, card: JSON.stringify(card) }, p.accessToken);
    expect(r.errors).toBeUndefined();
    const cards = r.data!.importCharacterCard.storyCards as Array<Record<string, unknown>>;
    expect(cards).toEqual([
      expect.objectContaining({
        name: 'Gull Rock',
        aliases: ['the Rock'],
        description: 'A lighthouse on a reef. Seraphine keeps it.',
        pinned: true,
        kind: 'lore',
        source: 'import',
      }),
      expect.objectContaining({ name: 'Captain Mott', aliases: [], description: 'Smuggler who owes the traveller money.', pinned: false, source: 'import' }),
    ]);
    const exported = await t.rest('GET', `/api/characters/${r.data!.importCharacterCard.id}/card.json`, undefined, p.accessToken);
    expect(exported.status).toBe(200);
    const book = (exported.body as { data: { character_book: { entries: Array<{ keys: string[]; constant: boolean }> } } }).data!.character_book;
    expect(book.entries.map((e) => [e.keys, e.constant])).toEqual([
      [['Captain Mott'], false],
      [['Gull Rock', 'the Rock'], true],
    ]);
  });
});

describe('story cards with a remote model', () => {
  let fake: FakeOpenAIServer;
  let t: TestApp;
  beforeAll(async () => {
    ({ t, fake } = await startWithFakeModel({ model: 'cards-model' }));
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  it('a pinned card and a card named in the action reach the prompt; the cast the model reports becomes cards', async () => {
    const p = await signUp(t);
    const c = await makeCharacter(t, p.user.id);
    await t.gql(CREATE, { characterId: c.id, input: { name: 'Ilse Varn', pinned: true, description: 'PINNED-MARKER smuggler queen.' } }, p.accessToken);
    await t.gql(CREATE, { characterId: c.id, input: { name: 'Sea Gate', kind: 'place', description: 'TRIGGER-MARKER rusted portcullis.' } }, p.accessToken);
    await t.gql(CREATE, { characterId: c.id, input: { name: 'Old Mill', kind: 'place', description: 'UNUSED-MARKER' } }, p.accessToken);
    const text = 'You push through the crowd at the harbour while gulls wheel overhead. '.repeat(5);
    const chapter = (cast: unknown[]) =>
      JSON.stringify({
        text,
        choices: ['Follow Oren', 'Ask about the gate', 'Wait'],
        statIncreases: [],
        newSetting: null,
        missionCompleted: false,
        newMission: 'Open the Sea Gate',
        cast,
      });
    fake.push(
      { kind: 'sse', pieces: [chapter([{ name: 'Oren', role: 'ferryman', description: 'A nervous ferryman.', status: 'waiting' }])] },
      {
        kind: 'sse',
        pieces: [
          chapter([
            { name: 'Oren', role: 'ferryman', description: null, status: 'fled' },
            { name: 'Sea Gate', role: null, description: 'A gate.', status: null },
          ]),
        ],
      },
    );
    const first = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: '' }, p.accessToken);
    expect(first.status).toBe(200);
    expect((first.body as { updatedCurrentCharacters: unknown[] }).updatedCurrentCharacters).toEqual([
      { name: 'Oren', role: 'ferryman', description: 'A nervous ferryman.', status: 'waiting' },
    ]);
    const second = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: 'Walk to the Sea Gate' }, p.accessToken);
    expect(second.status).toBe(200);
    const chapterCalls = fake.requests.filter((r) => r.body.stream === true);
    const turnOf = (i: number) => {
      const messages = chapterCalls[i]!.body.messages as Array<{ content: string }>;
      return messages[messages.length - 1]!.content;
    };
    expect(turnOf(0)).toContain('PINNED-MARKER');
    expect(turnOf(0)).not.toContain('TRIGGER-MARKER');
    // The action names the gate; Oren was in the last chapter's cast: both come to mind.
    expect(turnOf(1)).toContain('TRIGGER-MARKER');
    expect(turnOf(1)).toContain('A nervous ferryman.');
    expect(turnOf(1)).not.toContain('UNUSED-MARKER');
    const cards = (await t.gql(CARDS, { id: c.id }, p.accessToken)).data!.character.storyCards as Array<Record<string, unknown>>;
    // The model's place is not made a person; its person keeps a card with the latest status.
    expect(cards.find((k) => k.name === 'Sea Gate')).toMatchObject({ kind: 'place', description: 'TRIGGER-MARKER rusted portcullis.' });
    expect(cards.find((k) => k.name === 'Oren')).toMatchObject({
      kind: 'character',
      role: 'ferryman',
      description: 'A nervous ferryman.',
      status: 'fled',
      lastSeenChapter: 2,
    });
  });
});

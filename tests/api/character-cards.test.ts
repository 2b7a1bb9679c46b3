import zlib from 'node:zlib';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { AETHERMOOR, characterPayload, countRows, pngBytes, submitWorldMultipart, validWorldFields } from './domain-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Reads the tEXt chunks of a PNG, checking every chunk's CRC like a strict reader would. */
function textChunks(png: Buffer): Map<string, string> {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const out = new Map<string, string>();
  let at = 8;
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const crc = png.readUInt32BE(at + 8 + len);
    expect(crc).toBe(zlib.crc32(png.subarray(at + 4, at + 8 + len)) >>> 0);
    if (type === 'tEXt') {
      const data = png.subarray(at + 8, at + 8 + len);
      const nul = data.indexOf(0);
      out.set(data.toString('latin1', 0, nul), data.toString('latin1', nul + 1));
    }
    at += 12 + len;
    if (type === 'IEND') break;
  }
  expect(at).toBe(png.length);
  return out;
}

function pngWithCard(base: Buffer, keyword: string, card: unknown): Buffer {
  const data = Buffer.concat([Buffer.from(keyword), Buffer.from([0]), Buffer.from(Buffer.from(JSON.stringify(card)).toString('base64'))]);
  const type = Buffer.from('tEXt');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([type, data])) >>> 0);
  return Buffer.concat([base.subarray(0, base.length - 12), len, type, data, crc, base.subarray(base.length - 12)]);
}

async function importMultipart(token: string, worldId: string, bytes: Buffer, name = 'card.png') {
  const form = new FormData();
  form.append('world_id', worldId);
  form.append('card', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const res = await fetch(`${t.url}/api/characters/import-card`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

describe('Character Card V3 export and V2/V3 import', () => {
  it('exports a card PNG with ccv3 (V3) and chara (V2) chunks, our fields under extensions, and imports it back', async () => {
    const me = await signUp(t);
    const w = await submitWorldMultipart(t, me.accessToken, validWorldFields('Card Isle'), { bytes: await pngBytes(64, 64), name: 'w.png', type: 'image/png' });
    const saved = await t.rest('POST', '/api/profile/insert-characters', characterPayload(w.body.world.id), me.accessToken);
    const res = await fetch(`${t.url}/api/characters/${saved.body.id}/card.png`, { headers: { authorization: `Bearer ${me.accessToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    const chunks = textChunks(png);
    const v3 = JSON.parse(Buffer.from(chunks.get('ccv3')!, 'base64').toString('utf8'));
    const v2 = JSON.parse(Buffer.from(chunks.get('chara')!, 'base64').toString('utf8'));
    expect(v3).toMatchObject({ spec: 'chara_card_v3', spec_version: '3.0', data: { name: 'Mira Vale', group_only_greetings: [] } });
    expect(v2).toMatchObject({ spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Mira Vale' } });
    const ext = characterPayload(w.body.world.id);
    expect(v3.data.extensions.taleforge).toEqual({
      stats: ext.stats,
      traits: ext.traits,
      strengths: ext.strengths,
      weaknesses: ext.weaknesses,
      special: ext.special,
    });

    const json = await t.rest('GET', `/api/characters/${saved.body.id}/card.json`, undefined, me.accessToken);
    expect(json.body.spec).toBe('chara_card_v3');
    const g = await t.gql(`query($id: ID!) { characterCard(id: $id) }`, { id: saved.body.id }, me.accessToken);
    expect(g.data!.characterCard.data.name).toBe('Mira Vale');

    // Round trip into a featured world, as another player.
    const other = await signUp(t);
    const imported = await importMultipart(other.accessToken, AETHERMOOR, png);
    expect(imported.status).toBe(201);
    expect(imported.body.character).toMatchObject({
      name: 'Mira Vale',
      world_id: AETHERMOOR,
      stats: ext.stats,
      traits: ext.traits,
      strengths: ext.strengths,
      special: ext.special,
    });
    expect(imported.body.character.description).toBe(ext.description);
  });

  it('imports a foreign V2 JSON card: markup and macros stripped, personality becomes traits, default stats', async () => {
    const me = await signUp(t);
    const card = {
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: {
        name: 'Seraphina <b>the Bright</b>',
        description: '<script>alert(1)</script>{{char}} is a <i>forest guardian</i> who protects {{user}}.',
        personality: 'gentle, protective; <img src=x onerror=alert(1)>wise',
        scenario: '',
        first_mes: '*She smiles.*',
        mes_example: '<START>',
        creator_notes: '<a href="javascript:alert(1)">notes</a>',
        system_prompt: '',
        post_history_instructions: '',
        alternate_greetings: [],
        tags: ['fantasy'],
        creator: 'someone',
        character_version: '1',
        extensions: {},
      },
    };
    const r = await t.gql(
      `mutation($w: ID!, $card: String!) { importCharacterCard(worldId: $w, card: $card) { name description traits stats worldName } }`,
      { w: AETHERMOOR, card: JSON.stringify(card) },
      me.accessToken,
    );
    expect(r.errors).toBeUndefined();
    const c = r.data!.importCharacterCard;
    expect(c.name).toBe('Seraphina the Bright');
    expect(c.description).not.toMatch(/[<>]|\{\{/);
    expect(c.description).toBe('Seraphina the Bright is a forest guardian who protects the traveller.');
    expect(c.traits).toEqual(['gentle', 'protective', 'wise']);
    expect(c.stats).toEqual({ strength: 10, agility: 10, endurance: 10, intellect: 10, wisdom: 10, charisma: 10 });
    expect(c.worldName).toBe('Aethermoor');
    // A V3 card inside a PNG chunk, sent over GraphQL as a data URL.
    const v3png = pngWithCard(await pngBytes(), 'ccv3', { ...card, spec: 'chara_card_v3', spec_version: '3.0' });
    const p = await t.gql(
      `mutation($w: ID!, $card: String!) { importCharacterCard(worldId: $w, card: $card) { name } }`,
      { w: AETHERMOOR, card: `data:image/png;base64,${v3png.toString('base64')}` },
      me.accessToken,
    );
    expect(p.data!.importCharacterCard.name).toBe('Seraphina the Bright');
  });

  it('refuses bad cards with coded errors and writes nothing; strangers cannot export or import into private worlds', async () => {
    const me = await signUp(t);
    const owner = await signUp(t);
    const priv = await submitWorldMultipart(t, owner.accessToken, validWorldFields('Hidden Vale'));
    const mine = await t.rest('POST', '/api/profile/insert-characters', characterPayload(priv.body.world.id), owner.accessToken);
    const before = await countRows(t, 'characters', 'user_id = $1', [me.user.id]);
    const bad: Array<[Buffer, string]> = [
      [await pngBytes(), 'BAD_USER_INPUT'], // a PNG without a card
      [Buffer.from('not json at all'), 'BAD_USER_INPUT'],
      [Buffer.from(JSON.stringify({ spec: 'chara_card_v9', data: { name: 'X' } })), 'BAD_USER_INPUT'],
      [Buffer.from(JSON.stringify({ spec: 'chara_card_v2', spec_version: '2.0', data: { name: 42 } })), 'BAD_USER_INPUT'],
      [Buffer.from(JSON.stringify({ spec: 'chara_card_v2', spec_version: '2.0', data: { name: '<<<>>>' } })), 'BAD_USER_INPUT'],
      [Buffer.concat([await pngBytes(), Buffer.alloc(6 * 1024 * 1024)]), 'PAYLOAD_TOO_LARGE'],
    ];
    for (const [bytes, code] of bad) {
      const r = await importMultipart(me.accessToken, AETHERMOOR, bytes);
      expect([r.status >= 400 && r.status < 500, r.body.code]).toEqual([true, code]);
    }
    const good = Buffer.from(JSON.stringify({ spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Wanderer' } }));
    const intoPrivate = await importMultipart(me.accessToken, priv.body.world.id, good);
    expect(intoPrivate.status).toBe(404);
    expect(await countRows(t, 'characters', 'user_id = $1', [me.user.id])).toBe(before);
    expect((await t.rest('GET', `/api/characters/${mine.body.id}/card.json`, undefined, me.accessToken)).status).toBe(404);
    expect((await t.rest('GET', `/api/characters/${mine.body.id}/card.png`, undefined, me.accessToken)).status).toBe(404);
    expect((await t.rest('GET', `/api/characters/${mine.body.id}/card.png`)).status).toBe(401);
  });
});

describe('stats are the six names, 1–20, on every path that writes a character', () => {
  const SIX = ['strength', 'agility', 'endurance', 'intellect', 'wisdom', 'charisma'];
  const OVERPOWERED = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`power${i}`, 100]));

  it('insert-characters and saveCharacter refuse invented stats and values above 20 (nothing saved)', async () => {
    const me = await signUp(t);
    for (const stats of [OVERPOWERED, { strength: 100, agility: 10, endurance: 10, intellect: 10, wisdom: 10, charisma: 10 }, { strength: 0 }, { luck: 5 }]) {
      const r = await t.rest('POST', '/api/profile/insert-characters', { ...characterPayload(AETHERMOOR), stats }, me.accessToken);
      expect([JSON.stringify(stats), r.status, r.body.code]).toEqual([JSON.stringify(stats), 400, 'BAD_USER_INPUT']);
      const g = await t.gql(
        `mutation($input: SaveCharacterInput!) { saveCharacter(input: $input) { id } }`,
        {
          input: {
            name: 'Mira',
            worldId: AETHERMOOR,
            stats,
            description: 'd',
            traits: [],
            strengths: [],
            weaknesses: [],
            special: { name: 'n', description: 'd' },
          },
        },
        me.accessToken,
      );
      expect(g.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    }
    expect(await countRows(t, 'characters', 'user_id = $1', [me.user.id])).toBe(0);
  });

  it('a generated character saves as it came; names are matched case-insensitively and missing ones are 10', async () => {
    const me = await signUp(t);
    const ok = await t.rest('POST', '/api/profile/insert-characters', characterPayload(AETHERMOOR), me.accessToken);
    expect(ok.status).toBe(201);
    const partial = await t.rest(
      'POST',
      '/api/profile/insert-characters',
      { ...characterPayload(AETHERMOOR), stats: { Strength: 20, AGILITY: 1 } },
      me.accessToken,
    );
    expect(partial.status).toBe(201);
    const [row] = await t.app.db.dataSource.query(`SELECT stats FROM characters WHERE id = $1`, [partial.body.id]);
    expect(row.stats).toEqual({ strength: 20, agility: 1, endurance: 10, intellect: 10, wisdom: 10, charisma: 10 });
  });

  it('an imported card with our extension keeps only the six stats, clamped to 1–20', async () => {
    const me = await signUp(t);
    const card = {
      spec: 'chara_card_v3',
      spec_version: '3.0',
      data: {
        name: 'Overlord',
        description: 'Says he is the strongest.',
        personality: 'smug',
        extensions: { taleforge: { stats: { ...OVERPOWERED, Strength: 100, wisdom: 0 } } },
      },
    };
    const g = await t.gql(
      `mutation($w: ID!, $card: String!) { importCharacterCard(worldId: $w, card: $card) { stats } }`,
      { w: AETHERMOOR, card: JSON.stringify(card) },
      me.accessToken,
    );
    expect(g.errors).toBeUndefined();
    const stats = g.data!.importCharacterCard.stats;
    expect(Object.keys(stats).sort()).toEqual([...SIX].sort());
    expect(stats).toMatchObject({ strength: 20, wisdom: 1, agility: 10 });
  });
});

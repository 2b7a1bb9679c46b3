import { makeCharacter } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * A small request cannot make the server build a huge answer (issue 36, finding 8): every list counts
 * in the cost limit (takes and exports too), large text fields weigh by their size limit, and an answer
 * that grows past GRAPHQL_MAX_RESPONSE_BYTES anyway is cut off with a coded error instead of being built
 * whole.
 */
const CAP = 1024 * 1024;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  t.app.config.ops.graphqlMaxResponseBytes = CAP;
});
afterAll(() => t.close());

async function post(query: string, token: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  return {
    status: res.status,
    bytes: Buffer.byteLength(text),
    json: JSON.parse(text) as { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> },
  };
}
const messages = (r: { json: { errors?: Array<{ message: string }> } }) => (r.json.errors ?? []).map((e) => e.message).join(' | ');

/** A story whose latest chapter has `takes` takes of 6,000 characters each (written straight to the table). */
async function storyWithTakes(userId: string, chapters: number, takes: number): Promise<string> {
  const c = await makeCharacter(t, userId);
  const ds = t.app.db.dataSource;
  const prose = 'The lantern swung and the whole hall leaned with it. '.repeat(120).slice(0, 6000);
  for (let i = 0; i < chapters; i++) {
    const last = i === chapters - 1;
    for (let take = 0; take < (last ? takes : 1); take++) {
      await ds.query(`INSERT INTO chapters (character_id, index, take, is_selected, status, text) VALUES ($1, $2, $3, $4, 'complete', $5)`, [
        c.id,
        i,
        take,
        take === 0,
        prose,
      ]);
    }
  }
  return c.id;
}

it('fifteen aliases of a 200-chapter storyline, or fifteen exports, are refused before they run', async () => {
  const p = await signUp(t);
  const id = await storyWithTakes(p.user.id, 3, 1);
  const chapters = Array.from({ length: 15 }, (_, i) => `a${i}: character(id: $id) { storyline(limit: 200) { chapters { text } } }`).join('\n');
  const r = await post(`query Wide($id: ID!) {\n${chapters}\n}`, p.accessToken, { id });
  expect(r.status).toBe(400);
  expect(messages(r)).toMatch(/Operation "Wide" costs \d+; the maximum is 5000/);
  const exports = Array.from({ length: 15 }, (_, i) => `e${i}: exportStory(characterId: $id, format: md) { content }`).join('\n');
  const e = await post(`query Exports($id: ID!) {\n${exports}\n}`, p.accessToken, { id });
  expect(e.status).toBe(400);
  expect(messages(e)).toMatch(/Operation "Exports" costs \d+; the maximum is 5000/);
  // One export, and one page of the story as the story screen asks for it, still pass.
  expect((await post('query($id: ID!) { exportStory(characterId: $id, format: md) { content } }', p.accessToken, { id })).json.errors).toBeUndefined();
});

it("takes count as a list of their own, not as the storyline's page", async () => {
  const p = await signUp(t);
  const id = await storyWithTakes(p.user.id, 1, 2);
  const takes = Array.from(
    { length: 15 },
    (_, i) => `t${i}: character(id: $id) { storyline(limit: 1) { latestTakes { text playerChoice setting edited } } }`,
  ).join('\n');
  const r = await post(`query Takes($id: ID!) {\n${takes}\n}`, p.accessToken, { id });
  expect(r.status).toBe(400);
  expect(messages(r)).toMatch(/Operation "Takes" costs \d+; the maximum is 5000/);
});

it('an answer growing past the byte cap is cut off with a coded error', async () => {
  const p = await signUp(t);
  const id = await storyWithTakes(p.user.id, 200, 1);
  // Within the cost limit (3 × 200 chapters), but 3.6 MB of text: past the 1 MB cap.
  const three = Array.from({ length: 3 }, (_, i) => `s${i}: character(id: $id) { storyline(limit: 200) { chapters { text } } }`).join('\n');
  const r = await post(`query Heavy($id: ID!) {\n${three}\n}`, p.accessToken, { id });
  expect(r.json.errors?.[0]).toMatchObject({ extensions: { code: 'PAYLOAD_TOO_LARGE' } });
  expect(r.json.errors?.[0]?.message).toBe('This answer would be larger than 1 MB: ask for fewer items (a smaller limit, or fewer aliases).');
  expect(r.bytes).toBeLessThan(CAP * 1.2);
  // One copy is under the cap and arrives whole.
  const one = await post('query($id: ID!) { character(id: $id) { storyline(limit: 100) { chapters { text } } } }', p.accessToken, { id });
  expect(one.json.errors).toBeUndefined();
  expect(one.json.data.character.storyline.chapters).toHaveLength(100);
});

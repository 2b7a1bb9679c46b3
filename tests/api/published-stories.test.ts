import { JSDOM } from 'jsdom';
import { EVERY_REPORTER_TRUSTED, signUp, startTestApp, type TestApp } from '../support/test-app';
import { characterPayload, countRows, WORLD_DESCRIPTION } from './domain-helpers';

/**
 * Published stories (issue 20): a read-only link to a snapshot of one story, rendered on the server
 * with the setting's style and Open Graph tags; only the story, the character's name and the world.
 * Everything another player wrote is untrusted wherever it lands: the page, its attributes, its tags.
 */
let t: TestApp;
beforeAll(async () => {
  // Every player here counts as one who was not made for a report (report-abuse.test.ts covers who does).
  t = await startTestApp({ community: EVERY_REPORTER_TRUSTED });
});
afterAll(() => t.close());

type Player = Awaited<ReturnType<typeof signUp>>;
const PUBLISH = 'mutation($id: ID!) { publishStory(characterId: $id) { id path chapterCount hidden } }';
const HOSTILE_WORLD = `<img src=x onerror="alert('world')">Ash & "Ember" </title><script>alert(1)</script>`;
const HOSTILE_HERO = `"><svg onload=alert('hero')>`;

async function storyIn(p: Player, worldName: string, heroName: string, chapters: number) {
  const w = await t.rest(
    'POST',
    '/api/worlds/submit-world',
    { worldName, worldDescription: WORLD_DESCRIPTION, questions: JSON.stringify(['Who are you?']), image: undefined },
    p.accessToken,
  );
  expect(w.status).toBe(201);
  const c = await t.rest('POST', '/api/profile/insert-characters', characterPayload(w.body.world.id, heroName), p.accessToken);
  expect(c.status).toBe(201);
  const characterId = (c.body.id ?? c.body.character?.id ?? c.body[0]?.id) as string;
  for (let i = 0; i < chapters; i++) {
    const r = await t.rest(
      'POST',
      '/api/stories/generate-chapter',
      { characterId, userChoice: i === 0 ? '' : `Ask about the lanterns, step ${i}` },
      p.accessToken,
    );
    expect(r.status).toBe(200);
  }
  return { worldId: w.body.world.id as string, characterId };
}

async function read(path: string) {
  const res = await fetch(`${t.url}${path}`);
  return { status: res.status, html: await res.text(), headers: res.headers };
}

it('publishes a story an anonymous reader opens by link: server-rendered, styled, with Open Graph tags and nothing else about the player', async () => {
  const a = await signUp(t);
  const { characterId } = await storyIn(a, 'Lanternfall', 'Mira Vale', 3);
  const chapters = (await t.gql('query($id: ID!) { character(id: $id) { storyline { chapters { text playerChoice } } } }', { id: characterId }, a.accessToken))
    .data!.character.storyline.chapters as Array<{ text: string; playerChoice: string | null }>;

  const r = await t.gql(PUBLISH, { id: characterId }, a.accessToken);
  expect(r.errors).toBeUndefined();
  const pub = r.data!.publishStory;
  expect(pub).toMatchObject({ path: `/read/${pub.id}`, chapterCount: 3, hidden: false });

  const page = await read(pub.path);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  // No script may run on this page, whatever the story holds.
  expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  expect(page.headers.get('content-security-policy')).not.toMatch(/script-src/);
  expect(page.html).toContain('<meta property="og:title" content="Mira Vale — Lanternfall">');
  expect(page.html).toContain(`<meta property="og:url" content="${t.app.config.publicUrl}/read/${pub.id}">`);
  expect(page.html).toMatch(/<meta property="og:description" content="[^"]{40,}">/);
  expect(page.html).toContain('<meta name="twitter:card"');
  expect(page.html).toContain('<h1>Mira Vale</h1>');
  expect(page.html).toContain('A story in Lanternfall');
  for (const ch of chapters) {
    expect(page.html).toContain(ch.text.split('\n')[0]!.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').slice(0, 60));
    if (ch.playerChoice) expect(page.html).toContain(ch.playerChoice);
  }
  // Only the story: not the player's name or email, not the hero's stats, traits or description.
  for (const secret of [a.username, a.email, 'strength', 'Quick hands', 'stolen compass']) expect(page.html).not.toContain(secret);
  expect(page.html).not.toMatch(/<script/i);
  // The page runs no script: reporting it happens in the app, one link away.
  expect(page.html).toContain(`<a href="/report/story/${pub.id}">Report this story</a>`);

  // The REST twin sees the same publication; publishing again updates the snapshot under the same link.
  await t.rest('POST', '/api/stories/generate-chapter', { characterId, userChoice: 'Light the last lantern' }, a.accessToken);
  const again = await t.rest('POST', '/api/community/publish-story', { characterId }, a.accessToken);
  expect(again.status).toBe(200);
  expect(again.body.publication).toMatchObject({ id: pub.id, url: `${t.app.config.publicUrl}/read/${pub.id}`, chapter_count: 4 });
  expect((await read(pub.path)).html).toContain('Light the last lantern');
  const mine = await t.gql('query($id: ID!) { character(id: $id) { publication { id chapterCount } } }', { id: characterId }, a.accessToken);
  expect(mine.data!.character.publication).toEqual({ id: pub.id, chapterCount: 4 });

  // Unpublished: the link is dead for good; publishing again makes a new link.
  expect((await t.gql('mutation($id: ID!) { unpublishStory(characterId: $id) }', { id: characterId }, a.accessToken)).data!.unpublishStory).toBe(true);
  const gone = await read(pub.path);
  expect(gone.status).toBe(404);
  expect(gone.html).toContain('This story is not available');
  expect((await t.gql('mutation($id: ID!) { unpublishStory(characterId: $id) }', { id: characterId }, a.accessToken)).data!.unpublishStory).toBe(false);
  const fresh = (await t.gql(PUBLISH, { id: characterId }, a.accessToken)).data!.publishStory;
  expect(fresh.id).not.toBe(pub.id);
  expect((await read(fresh.path)).status).toBe(200);
  expect((await read('/read/not-an-id')).status).toBe(404);
});

it('refuses what cannot be published: no chapters yet, another player’s story, anonymous callers', async () => {
  const [a, b] = await Promise.all([signUp(t), signUp(t)]);
  const { characterId } = await storyIn(a, 'Quiet Vale', 'Odo Brand', 0);
  const empty = await t.gql(PUBLISH, { id: characterId }, a.accessToken);
  expect(empty.errors?.[0]).toMatchObject({
    message: 'A story needs at least one chapter before it can be published.',
    extensions: { code: 'BAD_USER_INPUT' },
  });
  expect((await t.gql(PUBLISH, { id: characterId }, b.accessToken)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  expect((await t.rest('POST', '/api/community/publish-story', { characterId })).status).toBe(401);
  expect((await t.rest('POST', '/api/community/unpublish-story', { characterId }, b.accessToken)).body).toEqual({ success: false });
  expect(await countRows(t, 'story_publications', 'character_id = $1', [characterId])).toBe(0);
});

it('hostile names and texts in a shared world and a published story never become markup: page, attributes, Open Graph tags, lists', async () => {
  const a = await signUp(t);
  // The edge refuses markup in names and texts…
  const refused = await t.rest(
    'POST',
    '/api/worlds/submit-world',
    { worldName: HOSTILE_WORLD.slice(0, 100), worldDescription: WORLD_DESCRIPTION, questions: '["Who?"]' },
    a.accessToken,
  );
  expect(refused.status).toBe(400);
  // …and what got in anyway (older rows, an import, a model's prose) is still only text wherever it is shown.
  const { worldId, characterId } = await storyIn(a, "Ash & Ember's Keep", 'Mira Vale', 1);
  const db = t.app.db.dataSource;
  await db.query('UPDATE worlds SET name = $1 WHERE id = $2', [HOSTILE_WORLD.slice(0, 120), worldId]);
  await db.query('UPDATE characters SET name = $1 WHERE id = $2', [HOSTILE_HERO, characterId]);
  await db.query('UPDATE chapters SET text = text || $1, player_choice = $2 WHERE character_id = $3', [
    '\n\n</p></section><script>alert("prose")</script><iframe src="https://evil.example"></iframe>',
    `<a href="javascript:alert('choice')">go</a>`,
    characterId,
  ]);
  await t.rest('PUT', `/api/worlds/share/${worldId}`, { shared_globally: true }, a.accessToken);
  const listed = await t.rest('GET', `/api/worlds/community?search=${encodeURIComponent('Ember')}`);
  // JSON answers carry the text as text (React renders it as text: see the browser journey).
  expect(listed.body.worlds.find((w: { id: string }) => w.id === worldId).name).toBe(HOSTILE_WORLD.slice(0, 120));

  const pub = (await t.gql(PUBLISH, { id: characterId }, a.accessToken)).data!.publishStory;
  const { html } = await read(pub.path);
  // Parsed as a browser parses it (scripts off): not one element or attribute the players (or the
  // model) wrote exists; their text is text, exactly as written.
  const doc = new JSDOM(html).window.document;
  expect(doc.querySelectorAll('script, svg, iframe, object, embed, a[href^="javascript"], img[src="x"]')).toHaveLength(0);
  for (const el of doc.querySelectorAll('*')) for (const attr of el.getAttributeNames()) expect(attr).not.toMatch(/^on/i);
  expect(doc.querySelector('h1')?.textContent).toBe(HOSTILE_HERO);
  expect(doc.title).toBe(`${HOSTILE_HERO} — ${HOSTILE_WORLD.slice(0, 120)}`);
  expect(doc.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe(doc.title);
  expect(doc.querySelectorAll('meta[property^="og:"]').length).toBeGreaterThanOrEqual(5);
  expect(doc.body.textContent).toContain('<script>alert("prose")</script>');
  expect(doc.querySelector('.choice')?.textContent).toBe(`<a href="javascript:alert('choice')">go</a>`);
});

it('reports from enough players hide a published story pending review; the link answers 404 meanwhile', async () => {
  const a = await signUp(t);
  const reporters = await Promise.all([signUp(t), signUp(t), signUp(t)]);
  const { characterId } = await storyIn(a, 'Cinder Road', 'Pell Ashdown', 1);
  const pub = (await t.gql(PUBLISH, { id: characterId }, a.accessToken)).data!.publishStory;
  const REPORT = 'mutation($input: ReportInput!) { reportContent(input: $input) { hidden } }';
  const results = [];
  for (const r of reporters) results.push(await t.gql(REPORT, { input: { targetKind: 'story', targetId: pub.id, reason: 'harassment' } }, r.accessToken));
  expect(results.map((r) => r.data?.reportContent.hidden)).toEqual([false, false, true]);
  expect((await read(pub.path)).status).toBe(404);
  // The owner sees why; updating the snapshot does not bring it back.
  expect((await t.gql(PUBLISH, { id: characterId }, a.accessToken)).data!.publishStory).toMatchObject({ id: pub.id, hidden: true });
  expect((await read(pub.path)).status).toBe(404);
});

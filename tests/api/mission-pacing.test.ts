import { makeCharacter } from '../support/story-fixtures';
import { signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Missions end (issue 19: 0 completions in 30 Free-tier chapters): the storyteller paces a mission
 * by its age in chapters from the stored missions, not by what fits the tier's prompt, so missions
 * complete within about 3–8 chapters on every tier.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it.each([
  ['Free (2k context)', 'free'],
  ['Legend (32k context)', 'legend'],
])('on %s, 30 offline chapters complete several missions, each within 3–8 chapters', async (_tier, tierId) => {
  const p = await signUp(t);
  // This player's own subscription moves to the tier: the tiers themselves are shared by every test
  // file on PostgreSQL (changing Free's context here once broke a concurrent subscription test).
  await t.app.db.dataSource.query(`UPDATE subscriptions SET tier_id = $2 WHERE user_id = $1`, [p.user.id, tierId]);
  const c = await makeCharacter(t, p.user.id);
  let choice = '';
  let completed = 0;
  for (let i = 0; i < 30; i++) {
    const r = await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: choice }, p.accessToken);
    expect(r.status).toBe(200);
    const body = r.body as { newChapter: { choices: string[] }; missionCompleted?: boolean };
    if (body.missionCompleted) completed++;
    choice = body.newChapter.choices[i % body.newChapter.choices.length]!;
  }
  const missions = (await t.app.db.dataSource.query(
    `SELECT status, started_at_chapter, completed_at_chapter FROM missions WHERE character_id = $1 ORDER BY started_at_chapter`,
    [c.id],
  )) as Array<{ status: string; started_at_chapter: number; completed_at_chapter: number | null }>;
  const done = missions.filter((m) => m.status === 'completed');
  expect(done.length).toBeGreaterThanOrEqual(3);
  expect(completed).toBe(done.length);
  for (const m of done) {
    const ran = m.completed_at_chapter! - m.started_at_chapter + 1;
    expect(ran).toBeGreaterThanOrEqual(3);
    expect(ran).toBeLessThanOrEqual(8);
  }
  // The mission log: GraphQL says when and at which chapter each was completed.
  const q = await t.gql(
    'query($id: ID!) { character(id: $id) { missionHistory { status completedAt startedInChapter completedInChapter } } }',
    { id: c.id },
    p.accessToken,
  );
  const log = (
    q.data!.character.missionHistory as Array<{ status: string; completedAt: string | null; startedInChapter: number; completedInChapter: number | null }>
  ).filter((m) => m.status === 'completed');
  expect(log.map((m) => m.completedInChapter)).toEqual(done.map((m) => m.completed_at_chapter! + 1));
  for (const m of log) expect(Date.parse(m.completedAt!)).toBeGreaterThan(Date.now() - 60_000);
  // The one still running has not outlived the limit either.
  for (const m of missions.filter((x) => x.status === 'active')) expect(29 - m.started_at_chapter + 1).toBeLessThanOrEqual(8);
});

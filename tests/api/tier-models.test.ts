import { chapterAnswer, type FakeOpenAIServer } from '../../server/src/ai/openai/fake-openai-server';
import { createStoryAI } from '../../server/src/ai';
import { StoryService } from '../../server/src/modules/stories/story.service';
import { makeCharacter } from '../support/story-fixtures';
import { signUp, startWithFakeModel, type TestApp } from '../support/test-app';

/**
 * TIER_MODELS: a tier's stories are written by its own model (a small one for Free, the default for
 * the rest), as the model server receives them; the prompt report names the model that wrote.
 */
let t: TestApp;
let fake: FakeOpenAIServer;
beforeAll(async () => {
  ({ t, fake } = await startWithFakeModel({ model: 'big-70b' }));
  // The app's story AI, rebuilt as services.ts builds it with TIER_MODELS=free=small-3b.
  const s = t.app.services;
  const ai = createStoryAI({ openai: { ...s.config.openai, tokenizer: 'estimate' }, tierModels: { free: 'small-3b' } });
  s.stories = new StoryService(s.dataSource, { config: s.config, ai, limiter: s.limiter });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

it("writes a Free player's chapters with the Free tier's model, and a Legend player's with the default", async () => {
  const prose = 'The reed towns creaked on their stilts as the tide came in, and lanterns swung along the walkways. '.repeat(4);
  fake.respond = (body) => (body.stream ? { kind: 'sse', pieces: [chapterAnswer({ text: prose, choices: ['Wait', 'Go on', 'Turn back'] })] } : null);
  const p = await signUp(t);
  const c = await makeCharacter(t, p.user.id);
  expect((await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id }, p.accessToken)).status).toBe(200);
  await t.app.services.stories.idle();
  const models = () => fake.requests.filter((r) => r.url.endsWith('/chat/completions')).map((r) => r.body.model);
  expect(models().length).toBeGreaterThan(0);
  expect(new Set(models())).toEqual(new Set(['small-3b']));
  const remembered = await t.gql('query($id: ID!) { character(id: $id) { remembered { model } } }', { id: c.id }, p.accessToken);
  expect(remembered.data!.character.remembered.model).toBe('small-3b');

  await t.app.db.dataSource.query(`UPDATE subscriptions SET tier_id = 'legend' WHERE user_id = $1`, [p.user.id]);
  fake.requests.length = 0;
  expect((await t.rest('POST', '/api/stories/generate-chapter', { characterId: c.id, userChoice: 'Walk the walkways' }, p.accessToken)).status).toBe(200);
  await t.app.services.stories.idle();
  expect(new Set(models())).toEqual(new Set(['big-70b']));
});

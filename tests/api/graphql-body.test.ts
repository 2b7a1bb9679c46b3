import sharp from 'sharp';
import { signUp, startTestApp, type TestApp } from '../support/test-app';
import { AETHERMOOR } from './domain-helpers';

/**
 * /graphql reads large bodies only for signed-in players and only for the operations that carry an
 * image (submitWorld, importCharacterCard): the probe's anonymous 7.8 MB updateMissionHistory bodies
 * were parsed and coerced before anyone was authenticated, stalling the event loop for everyone.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const MISSIONS = `mutation($c: ID!, $m: [MissionHistoryEntryInput!]!) { updateMissionHistory(characterId: $c, missionHistory: $m) { id } }`;
/** ~7.8 MB of mission history, as the probe sent. */
const hugeMissions = () =>
  JSON.stringify({
    query: MISSIONS,
    variables: { c: AETHERMOOR, m: Array.from({ length: 26_000 }, (_, i) => ({ objective: `o${i} ${'x'.repeat(280)}`, status: 'active' })) },
  });

async function post(body: string, token?: string) {
  const r = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  const text = await r.text();
  return { status: r.status, json: JSON.parse(text) as any };
}

it('an anonymous large body is refused with 413 PAYLOAD_TOO_LARGE, and the service keeps answering', async () => {
  const body = hugeMissions();
  expect(body.length).toBeGreaterThan(7_000_000);
  const results = await Promise.all([0, 1, 2, 3].map(() => post(body)));
  const health = await fetch(`${t.url}/healthz`);
  for (const r of results) {
    expect(r.status).toBe(413);
    expect(r.json.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  }
  expect(health.status).toBe(200);
});

it('a signed-in player cannot send a large body to an operation that carries no image', async () => {
  const p = await signUp(t);
  const r = await post(hugeMissions(), p.accessToken);
  expect(r.status).toBe(413);
  expect(r.json.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
});

it('a signed-in player submits a world with a 3 MB image through GraphQL; anonymous, the same body is refused', async () => {
  const png = await sharp({ create: { width: 1100, height: 900, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png()
    .toBuffer();
  expect(png.length).toBeGreaterThan(2_500_000);
  expect(png.length).toBeLessThan(5_000_000);
  const p = await signUp(t);
  const body = JSON.stringify({
    query: `mutation($input: SubmitWorldInput!) { submitWorld(input: $input) { id imageUrl } }`,
    variables: {
      input: {
        name: 'Noise Reach',
        description: 'A world of static and hum, where every lighthouse sings a different frequency to the fog.',
        questions: ['Who tends the loudest lighthouse?'],
        image: `data:image/png;base64,${png.toString('base64')}`,
      },
    },
  });
  const anon = await post(body);
  expect(anon.status).toBe(413);
  const ok = await post(body, p.accessToken);
  expect(ok.json.errors).toBeUndefined();
  expect(ok.json.data.submitWorld.imageUrl).toMatch(/^\/media\//);
});

/**
 * Story bench: 50 concurrent players × 10 chapters each over the real HTTP + WebSocket stack, with the
 * offline storyteller and embedded PGlite (or DATABASE_URL). Each chapter: `startChapter` over HTTP,
 * then the `chapterStream` subscription over graphql-ws until the chapter is complete.
 * Prints p50/p95/p99 chapter latency (start → complete event), time to first streamed chunk, errors.
 *
 * Run: npx tsc -p server/tsconfig.json && node server/dist/modules/stories/story.bench.js [players] [chapters]
 */
import 'reflect-metadata';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createApp } from '../../app';
import { loadConfig } from '../../config/env';
import { Character } from '../characters/character.entity';

const PLAYERS = Number(process.argv[2] ?? 50);
const CHAPTERS = Number(process.argv[3] ?? 10);

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number) : NaN;
}

async function main(): Promise<void> {
  const config = loadConfig(
    { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'error' },
    {
      databaseInMemory: true,
      authRateLimit: { perIpPerWindow: 1_000_000, perEmailPerWindow: 1_000_000, windowSeconds: 60 },
      generationRateLimit: { perUserPerWindow: 1_000_000, windowSeconds: 60 },
    },
  );
  const app = await createApp(config, {});
  const port = await app.listen(0, '127.0.0.1');
  const http = `http://127.0.0.1:${port}`;
  const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const res = await fetch(`${http}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: any; errors?: Array<{ message: string }> };
  };
  const [world] = (await app.db.dataSource.query(`SELECT id FROM worlds WHERE featured LIMIT 1`)) as Array<{ id: string }>;

  const players = await Promise.all(
    Array.from({ length: PLAYERS }, async (_, i) => {
      const tag = `${Date.now().toString(36)}${i}`;
      const r = await gql(`mutation S($input: SignUpInput!) { signUp(input: $input) { accessToken user { id } } }`, {
        input: { email: `bench.${tag}@example.com`, username: `bench ${i}`, password: `correct horse ${tag}` },
      });
      if (!r.data) throw new Error(JSON.stringify(r.errors));
      const repo = app.db.dataSource.getRepository(Character);
      const c = await repo.save(
        repo.create({
          userId: r.data.signUp.user.id,
          worldId: world!.id,
          name: `Bench Hero ${i}`,
          description: 'A tireless traveller who tests every road twice.',
          stats: { strength: 10, agility: 10, endurance: 10, intellect: 10, wisdom: 10, charisma: 10 },
          traits: ['steady', 'curious', 'patient'],
        }),
      );
      return { token: r.data.signUp.accessToken as string, characterId: c.id };
    }),
  );

  const latencies: number[] = [];
  const firstChunks: number[] = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    players.map(async (p) => {
      const ws = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${p.token}` } });
      let choice: string | null = null;
      for (let n = 0; n < CHAPTERS; n++) {
        const t0 = performance.now();
        try {
          const s = await gql(`mutation G($input: GenerateChapterInput!) { startChapter(input: $input) { chapterId } }`, { input: { characterId: p.characterId, userChoice: choice, expectedIndex: n } }, p.token);
          if (!s.data) throw new Error(JSON.stringify(s.errors));
          let first = 0;
          const result = await new Promise<{ choices: string[] }>((resolve, reject) => {
            ws.subscribe<any>(
              {
                query: `subscription F($c: ID!, $id: ID) { chapterStream(characterId: $c, chapterId: $id) { status delta result { newChapter { choices } } } }`,
                variables: { c: p.characterId, id: s.data.startChapter.chapterId },
              },
              {
                next: (v) => {
                  const e = v.data?.chapterStream;
                  if (!e) return reject(new Error(JSON.stringify(v.errors)));
                  if (!first && e.delta) first = performance.now();
                  if (e.status === 'complete') resolve(e.result.newChapter);
                  if (e.status === 'failed') reject(new Error('chapter failed'));
                },
                error: reject,
                complete: () => undefined,
              },
            );
          });
          latencies.push(performance.now() - t0);
          firstChunks.push((first || performance.now()) - t0);
          choice = result.choices[n % result.choices.length] ?? null;
        } catch (e) {
          errors++;
          console.error(e);
        }
      }
      await ws.dispose();
    }),
  );
  const wall = performance.now() - started;
  const f = (v: number) => `${v.toFixed(1)} ms`;
  console.log(`story bench: ${PLAYERS} players × ${CHAPTERS} chapters on ${app.db.kind}, offline AI, HTTP + graphql-ws`);
  console.log(`chapters: ${latencies.length}, errors: ${errors}, wall: ${(wall / 1000).toFixed(2)} s, ${(latencies.length / (wall / 1000)).toFixed(1)} chapters/s`);
  console.log(`chapter latency  p50 ${f(pct(latencies, 50))}  p95 ${f(pct(latencies, 95))}  p99 ${f(pct(latencies, 99))}`);
  console.log(`first chunk      p50 ${f(pct(firstChunks, 50))}  p95 ${f(pct(firstChunks, 95))}  p99 ${f(pct(firstChunks, 99))}`);
  await app.close();
  process.exit(errors ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

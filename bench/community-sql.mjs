// SQL statements per community page, counted in process at TypeORM's logger (every statement of every
// query runner passes through it): the built app on an in-memory PGlite, 60 shared worlds of 6
// creators, one signed-in reader. A page must cost the same whatever its size (no N+1), and a repeat
// of the same page only the reader's own likes (the page and its creators come from the page cache).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export async function communityStatements(sizes = [6, 24, 60]) {
  const { createApp } = require('../server/dist/app.js');
  const { loadConfig } = require('../server/dist/config/env.js');
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }, { databaseInMemory: true, pgliteThread: 'main' });
  config.ops.rateLimit = { ...config.ops.rateLimit, perIp: 0, perUser: 0 };
  const app = await createApp(config);
  try {
    const port = await app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${port}`;
    const gql = async (query, variables, token) => {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const json = await res.json();
      if (json.errors) throw new Error(JSON.stringify(json.errors));
      return json.data;
    };
    const db = app.db.dataSource;
    const owners = [];
    for (let i = 0; i < 6; i++)
      owners.push((await app.services.auth.signUp({ email: `maker${i}@bench.test`, username: `maker ${i}`, password: `correct horse maker ${i}` })).user.id);
    for (let i = 0; i < 60; i++) {
      await db.query(
        `INSERT INTO worlds (owner_id, name, description, questions, shared_globally, shared_at, play_count, like_count, genre)
         VALUES ($1, $2, 'A shared world for the bench, with rivers and a market town.', '["Who are you?"]', true, now() - make_interval(mins => $3::int), $3::int * 7 % 50, $3::int % 13, 'mythic')`,
        [owners[i % 6], `Bench World ${i}`, i],
      );
    }
    const reader = (await app.services.auth.signUp({ email: 'reader@bench.test', username: 'reader', password: 'correct horse reader' })).accessToken;
    await gql('{ me { id } }', {}, reader); // the session check is cached from here on

    let counting = false;
    let statements = 0;
    const logger = db.logger;
    const original = logger.logQuery.bind(logger);
    logger.logQuery = (q, p, r) => {
      if (counting) statements++;
      return original(q, p, r);
    };
    const count = async (run) => {
      statements = 0;
      counting = true;
      try {
        await run();
      } finally {
        counting = false;
      }
      return statements;
    };
    const q =
      'query($limit: Int!) { communityWorlds(limit: $limit, sort: "played") { total worlds { id name author playCount likeCount likedByMe isOwn imageUrl } } }';
    const perSize = [];
    let repeat = 0;
    for (const limit of sizes) {
      app.services.worlds.forgetPublicLists();
      perSize.push({ limit, statements: await count(() => gql(q, { limit }, reader)) });
      // The same page for the next reader: only what is the reader's own (their likes) is read.
      repeat = await count(() => gql(q, { limit }, reader));
    }
    app.services.worlds.forgetPublicLists();
    const rest = await count(() => fetch(`${url}/api/worlds/community?limit=${sizes.at(-1)}&sort=played`).then((r) => r.json()));
    return { perSize, repeat, rest };
  } finally {
    await app.close();
  }
}

/**
 * The community: shared worlds anyone can read (GraphQL and REST), sorting, filtering and paging,
 * likes and play counts under concurrency, remixes, reports and moderation (local, and with an
 * OpenAI key), and the operator actions with their audit trail.
 */
import { EVERY_REPORTER_TRUSTED, signUp, startTestApp, startWithFakeModel, type TestApp } from '../support/test-app';
import { AETHERMOOR, balanceOf, characterPayload, countRows, WORLD_DESCRIPTION } from './domain-helpers';
import { OperatorService } from '../../server/src/modules/community/operator';
import { CreditsService } from '../../server/src/modules/billing/credits.service';

let t: TestApp;
beforeAll(async () => {
  // Every player here counts as one who was not made for a report (report-abuse.test.ts covers who does).
  t = await startTestApp({ community: EVERY_REPORTER_TRUSTED });
});
afterAll(() => t.close());

type Player = Awaited<ReturnType<typeof signUp>>;

const COMMUNITY = /* GraphQL */ `
  query Community($limit: Int, $offset: Int, $sort: String, $search: String, $genre: String) {
    communityWorlds(limit: $limit, offset: $offset, sort: $sort, search: $search, genre: $genre) {
      total
      worlds {
        id
        name
        author
        playCount
        likeCount
        likedByMe
        isOwn
      }
    }
  }
`;
const WORLD = /* GraphQL */ `
  query World($id: ID!) {
    world(id: $id) {
      id
      name
      author
      playCount
      likeCount
      likedByMe
      hiddenPendingReview
      remixedFrom {
        id
        name
        author
      }
    }
  }
`;

/** A unique word per world, so searches on a shared PostgreSQL find only this test's worlds. */
const tag = () => `Zq${Math.random().toString(36).slice(2, 9)}`;

async function createWorld(p: Player, name: string, description = WORLD_DESCRIPTION, questions = ['Who are you?']) {
  const r = await t.rest(
    'POST',
    '/api/worlds/submit-world',
    { worldName: name, worldDescription: description, questions: JSON.stringify(questions) },
    p.accessToken,
  );
  if (r.status !== 201) throw new Error(`submit-world: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.world.id as string;
}

async function share(p: Player, id: string, shared = true) {
  return t.rest('PUT', `/api/worlds/share/${id}`, { shared_globally: shared }, p.accessToken);
}

async function community(search: string, extra: Record<string, unknown> = {}, token?: string) {
  const r = await t.gql(COMMUNITY, { search, ...extra }, token);
  if (!r.data) throw new Error(JSON.stringify(r.errors));
  return r.data.communityWorlds as {
    total: number;
    worlds: Array<{ id: string; name: string; author: string | null; playCount: number; likeCount: number; likedByMe: boolean }>;
  };
}

async function players(n: number): Promise<Player[]> {
  return Promise.all(Array.from({ length: n }, () => signUp(t)));
}

describe('shared worlds are public', () => {
  it('share → an anonymous reader finds it in Community (GraphQL and REST) and by link; unshare → gone, cached copies included', async () => {
    const [a] = await players(1);
    const word = tag();
    const id = await createWorld(a!, `Lantern Reach ${word}`);
    expect((await community(word)).total).toBe(0);
    // An anonymous link to a private world answers like one that does not exist.
    expect((await t.gql(WORLD, { id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    expect((await share(a!, id)).status).toBe(200);
    // Anonymous GraphQL twice: the second answer comes from the response cache.
    for (let i = 0; i < 2; i++) {
      const page = await community(word);
      expect(page.total).toBe(1);
      expect(page.worlds[0]).toMatchObject({ id, name: `Lantern Reach ${word}`, author: a!.username, playCount: 0, likeCount: 0, likedByMe: false });
    }
    const rest = await t.rest('GET', `/api/worlds/community?search=${word}`);
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ total: 1, worlds: [{ id, author: a!.username, play_count: 0, like_count: 0, shared_globally: true }] });
    // The world link opens for anyone once it is shared.
    expect((await t.gql(WORLD, { id })).data?.world).toMatchObject({ id, author: a!.username, hiddenPendingReview: false });
    // Featured worlds have their own list and never show up in Community.
    expect((await t.rest('GET', '/api/worlds/community?search=Aethermoor')).body.worlds.some((w: { id: string }) => w.id === AETHERMOOR)).toBe(false);

    expect((await share(a!, id, false)).status).toBe(200);
    expect((await community(word)).total).toBe(0);
    expect((await t.rest('GET', `/api/worlds/community?search=${word}`)).body.total).toBe(0);
    expect((await t.gql(WORLD, { id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('sorts by new, most played and most liked, filters by genre and text, pages with a total', async () => {
    const [a, b, c] = await players(3);
    const word = tag();
    const ids: string[] = [];
    for (const n of ['One', 'Two', 'Three']) {
      const id = await createWorld(a!, `${n} ${word}`);
      await share(a!, id);
      ids.push(id);
    }
    // Two plays of One, one of Two; two likes of Three, one of Two.
    for (const [p, w] of [
      [b, ids[0]],
      [c, ids[0]],
      [b, ids[1]],
    ] as const) {
      expect((await t.rest('POST', '/api/profile/insert-characters', characterPayload(w!), p!.accessToken)).status).toBe(201);
    }
    for (const [p, w] of [
      [b, ids[2]],
      [c, ids[2]],
      [b, ids[1]],
    ] as const) {
      expect((await t.rest('PUT', `/api/worlds/like/${w}`, { liked: true }, p!.accessToken)).status).toBe(200);
    }
    // Likes and plays do not drop cached lists (the TTL bounds the lag): read past the cache.
    t.app.services.worlds.forgetPublicLists();
    const names = async (sort: string) => (await community(word, { sort }, b!.accessToken)).worlds.map((w) => w.name.split(' ')[0]);
    expect(await names('new')).toEqual(['Three', 'Two', 'One']);
    expect(await names('played')).toEqual(['One', 'Two', 'Three']);
    expect(await names('liked')).toEqual(['Three', 'Two', 'One']);
    const page2 = await community(word, { sort: 'new', limit: 2, offset: 2 });
    expect(page2).toMatchObject({ total: 3, worlds: [{ name: `One ${word}` }] });
    expect((await community(word, { limit: 2, offset: 10 })).total).toBe(3);
    expect((await community(word, { genre: 'cyberpunk' })).total).toBe(0);
    const liked = await community(word, { sort: 'liked' }, b!.accessToken);
    expect(liked.worlds.map((w) => w.likedByMe)).toEqual([true, true, false]);
    expect((await t.gql(COMMUNITY, { sort: 'best' })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await t.rest('GET', '/api/worlds/community?limit=0')).status).toBe(400);
  });
});

describe('signals: likes and play counts', () => {
  it('concurrent likes and unlikes stay exact; liking twice is one like; your own world cannot be liked', async () => {
    const [owner, ...fans] = await players(9);
    const id = await createWorld(owner!, `Crowded Hall ${tag()}`);
    await share(owner!, id);
    const LIKE = 'mutation($id: ID!, $liked: Boolean!) { setWorldLiked(id: $id, liked: $liked) { id likeCount likedByMe } }';
    // The answer carries the count after the change (on every database).
    const first = await t.gql(LIKE, { id, liked: true }, fans[0]!.accessToken);
    expect(first.data?.setWorldLiked).toMatchObject({ likeCount: 1, likedByMe: true });
    const undone = await t.rest('PUT', `/api/worlds/like/${id}`, { liked: false }, fans[0]!.accessToken);
    expect(undone.body).toMatchObject({ like_count: 0 });
    // Every fan likes twice at once: 8 likes, never 16.
    const results = await Promise.all(fans.flatMap((f) => [t.gql(LIKE, { id, liked: true }, f.accessToken), t.gql(LIKE, { id, liked: true }, f.accessToken)]));
    expect(results.every((r) => r.data?.setWorldLiked.likedByMe === true)).toBe(true);
    expect((await t.gql(WORLD, { id })).data?.world.likeCount).toBe(8);
    expect(await countRows(t, 'world_likes', 'world_id = $1', [id])).toBe(8);
    // Half of them unlike at once (each twice).
    await Promise.all(fans.slice(0, 4).flatMap((f) => [t.gql(LIKE, { id, liked: false }, f.accessToken), t.gql(LIKE, { id, liked: false }, f.accessToken)]));
    expect((await t.gql(WORLD, { id }, fans[0]!.accessToken)).data?.world).toMatchObject({ likeCount: 4, likedByMe: false });
    expect((await t.gql(WORLD, { id }, fans[5]!.accessToken)).data?.world).toMatchObject({ likeCount: 4, likedByMe: true });
    const own = await t.rest('PUT', `/api/worlds/like/${id}`, { liked: true }, owner!.accessToken);
    expect(own.status).toBe(400);
    expect((await t.rest('PUT', `/api/worlds/like/${id}`, { liked: true })).status).toBe(401);
    expect((await t.rest('PUT', `/api/worlds/like/${id}`, { liked: 'yes' }, fans[0]!.accessToken)).status).toBe(400);
    // A private world cannot be liked (or found).
    const hidden = await createWorld(owner!, `Private ${tag()}`);
    expect((await t.rest('PUT', `/api/worlds/like/${hidden}`, { liked: true }, fans[0]!.accessToken)).status).toBe(404);
  });

  it('every character spawned into a world counts one play, also when spawns arrive together', async () => {
    const [owner, ...spawners] = await players(6);
    const id = await createWorld(owner!, `Busy Port ${tag()}`);
    await share(owner!, id);
    const r = await Promise.all(
      spawners.flatMap((p) => [0, 1].map((i) => t.rest('POST', '/api/profile/insert-characters', characterPayload(id, `Hero ${i}`), p.accessToken))),
    );
    expect(r.every((x) => x.status === 201)).toBe(true);
    expect((await t.gql(WORLD, { id })).data?.world.playCount).toBe(10);
    // A refused spawn (bad stats) counts nothing.
    const bad = await t.rest('POST', '/api/profile/insert-characters', { ...characterPayload(id), stats: { strength: 99 } }, spawners[0]!.accessToken);
    expect(bad.status).toBe(400);
    expect((await t.gql(WORLD, { id })).data?.world.playCount).toBe(10);
  });
});

describe('remix', () => {
  it('copies a shared world (questions and image) into my worlds, private, for 3 credits, crediting the original', async () => {
    const [a, b] = await players(2);
    const word = tag();
    const img = await t.rest('POST', '/api/worlds/generate-image', { worldDescription: WORLD_DESCRIPTION }, a!.accessToken);
    const r = await t.rest(
      'POST',
      '/api/worlds/submit-world',
      { worldName: `Original ${word}`, worldDescription: WORLD_DESCRIPTION, questions: JSON.stringify(['First?', 'Second?']), image: img.body.imageData },
      a!.accessToken,
    );
    const id = r.body.world.id as string;
    // Not shared yet: nothing to remix.
    expect((await t.rest('POST', `/api/worlds/remix/${id}`, {}, b!.accessToken)).status).toBe(404);
    await share(a!, id);
    const before = await balanceOf(t, b!.user.id);
    const remix = await t.gql(
      'mutation($id: ID!) { remixWorld(id: $id) { id name questions imageUrl sharedGlobally isOwn remixedFrom { id name author } } }',
      { id },
      b!.accessToken,
    );
    const copy = remix.data!.remixWorld;
    expect(copy).toMatchObject({
      name: `Original ${word}`,
      questions: ['First?', 'Second?'],
      sharedGlobally: false,
      isOwn: true,
      remixedFrom: { id, name: `Original ${word}`, author: a!.username },
    });
    expect(copy.imageUrl).toBe(r.body.world.image_url);
    expect(copy.id).not.toBe(id);
    expect(await balanceOf(t, b!.user.id)).toBe(before - 3);
    expect(await countRows(t, 'credit_transactions', "user_id = $1 AND reason = 'world_remix' AND reference_id = $2", [b!.user.id, copy.id])).toBe(1);
    // The copy is b's to share; the original's counters are untouched.
    expect((await t.gql(WORLD, { id })).data?.world).toMatchObject({ playCount: 0, likeCount: 0 });

    // With too few credits nothing is written.
    await t.app.db.dataSource.query('UPDATE subscriptions SET credits = 2 WHERE user_id = $1', [b!.user.id]);
    const worldsBefore = await countRows(t, 'worlds', 'owner_id = $1', [b!.user.id]);
    const poor = await t.rest('POST', `/api/worlds/remix/${id}`, {}, b!.accessToken);
    expect(poor.status).toBe(403);
    expect(poor.body.code).toBe('INSUFFICIENT_CREDITS');
    expect(await countRows(t, 'worlds', 'owner_id = $1', [b!.user.id])).toBe(worldsBefore);
    expect(await balanceOf(t, b!.user.id)).toBe(2);
  });
});

describe('reports and moderation', () => {
  const REPORT = 'mutation($input: ReportInput!) { reportContent(input: $input) { hidden } }';

  it('reports from 3 distinct players hide a world pending review (also when they arrive together); once each; not your own', async () => {
    const [owner, ...reporters] = await players(7);
    const word = tag();
    const id = await createWorld(owner!, `Reported ${word}`);
    await share(owner!, id);
    expect((await community(word)).total).toBe(1);
    const input = (reason = 'spam') => ({ input: { targetKind: 'world', targetId: id, reason, note: 'advertises a scam' } });

    const first = await t.gql(REPORT, input(), reporters[0]!.accessToken);
    expect(first.data?.reportContent.hidden).toBe(false);
    const again = await t.gql(REPORT, input(), reporters[0]!.accessToken);
    expect(again.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(again.errors?.[0]?.message).toBe('You have already reported this world.');
    expect((await t.gql(REPORT, input(), owner!.accessToken)).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await t.gql(REPORT, input('boring'), reporters[1]!.accessToken)).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await t.gql(REPORT, input())).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    // Four more at once: exactly one of them is the third and hides it; the others that come after
    // find nothing public to report.
    const rest = await Promise.all(reporters.slice(1, 5).map((p) => t.gql(REPORT, input('hate'), p.accessToken)));
    const hid = rest.filter((r) => r.data?.reportContent.hidden === true);
    expect(hid).toHaveLength(1);
    expect(rest.filter((r) => r.data?.reportContent.hidden === false)).toHaveLength(1);
    expect(rest.filter((r) => r.errors?.[0]?.extensions?.code === 'NOT_FOUND')).toHaveLength(2);
    expect(await countRows(t, 'content_reports', "target_id = $1 AND status = 'open'", [id])).toBe(3);

    // Hidden: gone from Community and the link for everyone but its owner, who is told why.
    expect((await community(word)).total).toBe(0);
    expect((await t.gql(WORLD, { id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await t.gql(WORLD, { id }, owner!.accessToken)).data?.world.hiddenPendingReview).toBe(true);
    // Nobody can spawn into it meanwhile.
    expect((await t.rest('POST', '/api/profile/insert-characters', characterPayload(id), reporters[0]!.accessToken)).status).toBe(404);

    // REST twin and its validation.
    const r = await t.rest('POST', '/api/community/report', { target_kind: 'world', target_id: id, reason: 'spam' }, reporters[5]!.accessToken);
    expect(r.status).toBe(404);
    expect((await t.rest('POST', '/api/community/report', { target_kind: 'planet', target_id: id, reason: 'spam' }, reporters[5]!.accessToken)).status).toBe(
      400,
    );
  });

  it('sharing runs the local moderation check without an API key: refused content stays private with a coded error', async () => {
    const [a] = await players(1);
    const word = tag();
    const bad = await createWorld(a!, `Academy ${word}`, `${WORLD_DESCRIPTION} The lessons include sexual acts with the 12-year-old pupils.`);
    const r = await share(a!, bad);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('CONTENT_REJECTED');
    expect(r.body.categories).toContain('sexual/minors');
    expect((await community(word)).total).toBe(0);
    expect((await t.gql(WORLD, { id: bad }, a!.accessToken)).data?.world).toBeTruthy();
    const slur = await createWorld(a!, `N i g g e r town ${word}`);
    expect((await share(a!, slur)).body.code).toBe('CONTENT_REJECTED');
    // Dark fantasy is fine.
    const dark = await createWorld(a!, `Bloodmarch ${word}`, `${WORLD_DESCRIPTION} Warlords burn villages, the dead rise and children hide from the plague.`);
    expect((await share(a!, dark)).status).toBe(200);
  });
});

describe('operator actions', () => {
  it('resolve, hide, restore, feature, credits and disable each write the audit trail', async () => {
    const [owner, reporter, player] = await players(3);
    const word = tag();
    const id = await createWorld(owner!, `Operated ${word}`);
    await share(owner!, id);
    await t.gql(
      'mutation($input: ReportInput!) { reportContent(input: $input) { hidden } }',
      { input: { targetKind: 'world', targetId: id, reason: 'other', note: 'not sure about this one' } },
      reporter!.accessToken,
    );
    const ops = new OperatorService(t.app.db.dataSource, new CreditsService(t.app.db.dataSource), `tester-${word}`);
    // What the CLI's Redis broadcast does in a running instance (tested across processes below).
    const heard = () => t.app.services.worlds.changed(id);
    const listed = (await ops.reports()).find((r) => r.targetId === id);
    expect(listed).toMatchObject({
      targetKind: 'world',
      title: `Operated ${word}`,
      openReports: 1,
      hidden: false,
      reasons: ['other'],
      notes: ['not sure about this one'],
    });

    expect((await ops.hide('world', id, 'checking')).invalidations).toEqual([{ kind: 'worlds', id }]);
    heard();
    expect((await community(word)).total).toBe(0);
    expect((await ops.resolve('world', id, 'dismiss')).message).toMatch(/1 report\(s\) dismissed/);
    heard();
    expect((await community(word)).total).toBe(1);
    await expect(ops.resolve('world', id, 'uphold')).rejects.toMatchObject({ code: 'NOT_FOUND' });

    await ops.setFeatured(id, true);
    heard();
    expect((await community(word)).total).toBe(0);
    const featured = await t.gql(`{ featuredWorlds(limit: 100, search: "${word}") { id } }`);
    expect(featured.data?.featuredWorlds).toEqual([{ id }]);
    await ops.setFeatured(id, false);

    const before = await balanceOf(t, player!.user.id);
    await ops.adjustCredits(player!.email, 25, 'apology for an outage');
    expect(await balanceOf(t, player!.user.id)).toBe(before + 25);
    await expect(ops.adjustCredits(player!.email, -(before + 1000), '')).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    await ops.adjustCredits(player!.user.id, -5, 'duplicate grant');
    expect(await balanceOf(t, player!.user.id)).toBe(before + 20);
    expect(await countRows(t, 'credit_transactions', "user_id = $1 AND reason IN ('operator_grant', 'operator_removal')", [player!.user.id])).toBe(2);

    const disabled = await ops.setDisabled(player!.email, true);
    expect(disabled.invalidations.length).toBeGreaterThanOrEqual(1);
    t.app.services.auth.forgetSession(disabled.invalidations[0]!.id);
    expect((await t.gql('{ me { id } }', {}, player!.accessToken)).data?.me).toBeNull();
    expect((await t.gql('{ myWorlds { id } }', {}, player!.accessToken)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const signIn = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: player!.email, password: player!.password });
    expect(signIn.status).toBe(403);
    const wrong = await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: player!.email, password: 'not the password at all' });
    expect(wrong.status).toBe(400);
    await ops.setDisabled(player!.email, false);
    expect((await t.rest('POST', '/api/auth/v1/token?grant_type=password', { email: player!.email, password: player!.password })).status).toBe(200);

    const audit = (await ops.audit(100)).filter((a) => a.operator === `tester-${word}`).map((a) => a.action);
    expect(audit.reverse()).toEqual([
      'hide',
      'resolve_dismiss',
      'feature',
      'unfeature',
      'grant_credits',
      'remove_credits',
      'disable_account',
      'enable_account',
    ]);
  });
});

describe('moderation with an OpenAI key', () => {
  it('shared content passes the moderation endpoint; a server without one falls back to the local check', async () => {
    const { t: ai, fake } = await startWithFakeModel();
    try {
      const a = await signUp(ai);
      const world = async (name: string, description = WORLD_DESCRIPTION) => {
        const r = await ai.rest(
          'POST',
          '/api/worlds/submit-world',
          { worldName: name, worldDescription: description, questions: '["Who are you?"]' },
          a.accessToken,
        );
        return r.body.world.id as string;
      };
      const verdict = (flagged: boolean, categories: Record<string, boolean> = {}) => ({
        kind: 'raw' as const,
        handler: (_req: unknown, res: import('node:http').ServerResponse) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 'modr-1', model: 'omni-moderation-latest', results: [{ flagged, categories, category_scores: {} }] }));
        },
      });
      const flagged = await world(`Harbour ${tag()}`);
      fake.push(verdict(true, { harassment: true, violence: false }));
      const refused = await ai.rest('PUT', `/api/worlds/share/${flagged}`, { shared_globally: true }, a.accessToken);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'CONTENT_REJECTED', categories: ['harassment'] });
      const sent = fake.requests.at(-1)!;
      expect(sent.url).toBe('/v1/moderations');
      expect(sent.body).toMatchObject({ model: 'omni-moderation-latest' });
      expect(sent.body.input).toEqual(expect.arrayContaining([expect.stringMatching(/^Harbour /), WORLD_DESCRIPTION, 'Who are you?']));

      const clean = await world(`Meadow ${tag()}`);
      fake.push(verdict(false));
      expect((await ai.rest('PUT', `/api/worlds/share/${clean}`, { shared_globally: true }, a.accessToken)).status).toBe(200);

      // Most OpenAI-compatible local servers have no /moderations: the local check decides instead.
      const local = await world(`Academy ${tag()}`, `${WORLD_DESCRIPTION} The lessons include sexual acts with the 12-year-old pupils.`);
      fake.push(
        { kind: 'status', status: 404, body: { error: { message: 'Not found' } } },
        { kind: 'status', status: 404, body: { error: { message: 'Not found' } } },
      );
      expect((await ai.rest('PUT', `/api/worlds/share/${local}`, { shared_globally: true }, a.accessToken)).body).toMatchObject({
        code: 'CONTENT_REJECTED',
        categories: ['sexual/minors'],
      });
    } finally {
      await ai.close();
      await fake.stop();
    }
  });
});

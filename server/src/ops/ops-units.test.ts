import { getIntrospectionQuery } from 'graphql';
import { ConfigError, loadConfig } from '../config/env';
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, Kind, parse, print, visit, type DocumentNode, type FieldNode } from 'graphql';
import { PARTY_MAX_MEMBERS } from '../modules/parties/party-rules';
import { DEFAULT_LIST_SIZE, measureDocument } from './graphql-limits';
import { originPolicy } from './headers';
import { ResponseCache } from './response-cache';
import { trustProxySetting } from './index';

const LIMITS = { maxDepth: 8, maxAliases: 15, maxCost: 5000, maxTokens: 2000, maxDirectives: 50 };

describe('GraphQL limits: measurements', () => {
  it('the standard introspection query fits the budget on its own', () => {
    const [m] = measureDocument(
      getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, schemaDescription: true, specifiedByUrl: true, directiveIsRepeatable: true }),
      LIMITS,
    );
    expect(m.cost).toBeGreaterThan(500);
    expect(m.cost).toBeLessThan(LIMITS.maxCost / 3);
    expect(m.depth).toBe(0); // introspection has its own depth cap
  });

  it('stops measuring an exponential fragment bomb early', () => {
    const levels = Array.from({ length: 30 }, (_, i) => `fragment F${i + 1} on Query { ...F${i} ...F${i} }`).join('\n');
    const doc = `fragment F0 on Query { __typename }\n${levels}\nquery Q { ...F30 }`;
    const started = Date.now();
    const [m] = measureDocument(doc, LIMITS);
    expect(Date.now() - started).toBeLessThan(500); // 2^30 fields were never walked
    expect(m.cost).toBeGreaterThan(LIMITS.maxCost);
  });

  it('counts aliases and depth through fragments', () => {
    const [m] = measureDocument('fragment A on Query { x: a { y: b { c } } } query { ...A z: a { b { c { d } } } }', LIMITS);
    expect(m.aliases).toBe(3);
    expect(m.depth).toBe(4);
  });
});

describe('ops configuration', () => {
  it('reads the allow-list, limits and shutdown grace, with defaults', () => {
    const d = loadConfig({}).ops;
    expect(d).toMatchObject({ corsOrigins: [], trustProxy: 'loopback', responseCacheSeconds: 30, shutdownGraceMs: 10_000 });
    expect(d.graphqlLimits).toEqual({ maxDepth: 8, maxAliases: 15, maxCost: 5000, maxTokens: 2000, maxDirectives: 50 });
    const c = loadConfig({ CORS_ORIGINS: 'https://a.example, http://b.example:8080/', RATE_LIMIT_PER_IP: '0', GRAPHQL_MAX_DEPTH: '10' }).ops;
    expect(c.corsOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(c.rateLimit.perIp).toBe(0);
    expect(c.graphqlLimits.maxDepth).toBe(10);
  });

  it('names bad values', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'ftp://x.example', GRAPHQL_MAX_COST: '-1' })).toThrow(ConfigError);
    try {
      loadConfig({ CORS_ORIGINS: 'not a url', GRAPHQL_MAX_COST: '-1' });
    } catch (e) {
      expect((e as Error).message).toContain('CORS_ORIGINS');
      expect((e as Error).message).toContain('GRAPHQL_MAX_COST');
    }
  });

  it('TRUST_PROXY takes hop counts, booleans and address lists', () => {
    expect(trustProxySetting('2')).toBe(2);
    expect(trustProxySetting('true')).toBe(true);
    expect(trustProxySetting('loopback, 10.0.0.0/8')).toBe('loopback, 10.0.0.0/8');
  });

  it('WebSocket upgrades: no Origin, allow-listed, or same host only', () => {
    const p = originPolicy('https://play.example', ['https://partner.example']);
    expect(p.upgradeAllowed(undefined, 'x')).toBe(true);
    expect(p.upgradeAllowed('https://play.example', 'lb.internal')).toBe(true);
    expect(p.upgradeAllowed('https://partner.example', 'lb.internal')).toBe(true);
    expect(p.upgradeAllowed('http://127.0.0.1:4000', '127.0.0.1:4000')).toBe(true);
    expect(p.upgradeAllowed('https://evil.example', 'play.example')).toBe(false);
    // DNS rebinding: a foreign name pointed at this server sends Origin = its own Host. Only an address
    // (LAN IP, localhost) may stand for "same host"; names must be PUBLIC_URL's or in CORS_ORIGINS.
    expect(p.upgradeAllowed('http://evil.example:4000', 'evil.example:4000')).toBe(false);
    expect(p.upgradeAllowed('http://localhost:4000', 'localhost:4000')).toBe(true);
    expect(p.upgradeAllowed('http://192.168.1.20:4000', '192.168.1.20:4000')).toBe(true);
    expect(p.upgradeAllowed('http://[::1]:4000', '[::1]:4000')).toBe(true);
  });
});

describe('the cost limit counts list sizes', () => {
  const ROOT = path.resolve(__dirname, '..', '..', '..');
  const schema = buildSchema(fs.readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8'));
  const DEFAULTS = loadConfig({}).ops.graphqlLimits;

  /** What Apollo Client's cache does to every document it sends: __typename in each selection set below the root. */
  const withTypenames = (doc: DocumentNode): DocumentNode =>
    visit(doc, {
      SelectionSet(set, _key, parent) {
        if (parent && 'kind' in parent && parent.kind === Kind.OPERATION_DEFINITION) return undefined;
        if (set.selections.some((s) => s.kind === Kind.FIELD && s.name.value === '__typename')) return undefined;
        const typename: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } };
        return { ...set, selections: [...set.selections, typename] };
      },
    });

  it('every operation the web client ships stays within the default limit, as Apollo Client sends it (its figures printed)', () => {
    const dir = path.join(ROOT, 'client', 'src');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name));
        else if (e.name.endsWith('.graphql')) files.push(path.join(d, e.name));
      }
    };
    walk(dir);
    // Fragments may live in another file than the operations using them: measure all texts together.
    const all = files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    const doc = parse(all);
    const fragments = doc.definitions
      .filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => print(d))
      .join('\n');
    const figures: string[] = [];
    let measured = 0;
    for (const op of doc.definitions) {
      if (op.kind !== Kind.OPERATION_DEFINITION) continue;
      // Measured as Apollo Client sends it: with __typename in every selection set.
      const [m] = measureDocument(print(withTypenames(parse(`${print(op)}\n${fragments}`))), DEFAULTS, schema);
      figures.push(`${op.name?.value}: cost ${Math.round(m.cost)}, values ${m.values}`);
      expect([op.name?.value, m.cost <= DEFAULTS.maxCost]).toEqual([op.name?.value, true]);
      measured++;
    }
    expect(measured).toBeGreaterThan(20);
    console.log(`client operations (limit ${DEFAULTS.maxCost}):\n  ${figures.join('\n  ')}`);
  });

  it('a small query asking for huge lists costs what its answer would hold', () => {
    const one = measureDocument('{ myCharacters { storyline(limit: 200) { chapters { text } } } }', DEFAULTS, schema)[0];
    expect(one.values).toBeGreaterThanOrEqual(DEFAULT_LIST_SIZE * 200);
    expect(one.cost).toBeGreaterThan(DEFAULTS.maxCost);
    // A variable page size counts as its declared maximum unless the operation gives it a default.
    const viaVar = measureDocument('query($n: Int!) { featuredWorlds(limit: $n) { id name description } }', DEFAULTS, schema)[0];
    expect(viaVar.values).toBe(1 + 100 * 3);
    const withDefault = measureDocument('query($n: Int! = 5) { featuredWorlds(limit: $n) { id name } }', DEFAULTS, schema)[0];
    expect(withDefault.values).toBe(1 + 5 * 2);
    // storyline's chapters take storyline's limit; given none, its schema default (50). A chapter's
    // text (up to 6,000 characters) weighs 6.
    const paged = measureDocument('query($id: ID!) { character(id: $id) { storyline { chapters { id text } } } }', DEFAULTS, schema)[0];
    expect(paged.values).toBe(1 + 1 + 1 + 50 * (1 + 6));
    // The takes are a list of their own: storyline(limit: 1) does not make them one.
    const takes = measureDocument('query($id: ID!) { character(id: $id) { storyline(limit: 1) { latestTakes { id } } } }', DEFAULTS, schema)[0];
    expect(takes.values).toBe(1 + 1 + 1 + DEFAULT_LIST_SIZE);
    // An export weighs what a whole story may.
    const exported = measureDocument('query($id: ID!) { exportStory(characterId: $id, format: md) { content } }', DEFAULTS, schema)[0];
    expect(exported.values).toBe(1 + 1000);
  });

  it("a list with a known bound counts that many items: a party's members are at most PARTY_MAX_MEMBERS, not DEFAULT_LIST_SIZE", () => {
    // "Your parties" reads each member's name and character: 50 parties of at most 6 players.
    const [mine] = measureDocument('{ myParties { id members { userId username characterName isHost } } }', DEFAULTS, schema);
    expect(mine.values).toBe(1 + DEFAULT_LIST_SIZE * (1 + 1 + PARTY_MAX_MEMBERS * 4));
    expect(mine.cost).toBeLessThan(DEFAULTS.maxCost / 2);
    // The same type wherever it is reached (a party update's state).
    const [update] = measureDocument('subscription($id: ID!) { partyUpdated(partyId: $id) { party { members { userId } } } }', DEFAULTS, schema);
    expect(update.values).toBe(1 + 1 + 1 + PARTY_MAX_MEMBERS);
  });
});

describe('the public response cache: a body sent again byte for byte', () => {
  const body = JSON.stringify({ query: 'query Featured { featuredWorlds(limit: 12) { id name } }' });
  // The request's Origin as the front hands it to the cache: none is ''.
  const origin = (o?: string) => o ?? '';
  const stored = (cache: ResponseCache) => {
    const lookup = cache.lookup(origin(), body, JSON.parse(body));
    expect(lookup).not.toBeNull();
    cache.store(lookup!, 200, { 'content-type': 'application/json' }, Buffer.from('{"data":{"featuredWorlds":[]}}'));
  };

  it('is answered from its bytes once its text was answered, for the same origin only', () => {
    const cache = new ResponseCache(30);
    stored(cache);
    const bytes = Buffer.from(body);
    expect(cache.hitForBytes(origin(), bytes)).toBeNull(); // not yet a hot body
    expect(cache.hitForBody(origin(), body, bytes)).not.toBeNull();
    expect(cache.hitForBytes(origin(), Buffer.from(body))?.plain.body.toString()).toBe('{"data":{"featuredWorlds":[]}}');
    expect(cache.hitForBytes(origin('https://elsewhere.example'), Buffer.from(body))).toBeNull();
    expect(cache.hitForBytes(origin(), Buffer.from(body.replace('12', '13')))).toBeNull();
  });

  it('forgets its hot bodies when worlds change', () => {
    const cache = new ResponseCache(30);
    stored(cache);
    expect(cache.hitForBody(origin(), body, Buffer.from(body))).not.toBeNull();
    cache.invalidate();
    expect(cache.hitForBytes(origin(), Buffer.from(body))).toBeNull();
  });
});

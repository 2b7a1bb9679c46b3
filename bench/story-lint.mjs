// `npm run lint:story`: plays several stories of 30 chapters each over the real API (the built server,
// offline storyteller unless OPENAI_API_KEY is set) as a player would — suggested choices and typed
// actions — and prints what a reader notices, against the targets of issue 19:
//   missions completed (each within 3–8 chapters), the cast the chapters report and how it recurs,
//   places / factions / the world acting as people, the most frequent 4-word phrase's share of
//   chapters (names and mission words aside), sentences repeated across chapters, typed actions
//   answered (the chapter after a typed action takes up what was attempted).
// Stakes (issue 31): per story, how its checks came out, health lost and regained, items gained and
// lost, and the stat points earned. STORIES (default 4) and CHAPTERS (default 30) change the size; VERBOSE=1 prints the offending sentences. Exits 1 when a target is missed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signUp, startApp } from './app-process.mjs';

const STORIES = Number(process.env.STORIES || 4);
const CHAPTERS = Number(process.env.CHAPTERS || 30);
const TYPED = [
  'I search the room for a hidden door',
  'I ask the nearest stranger what they know about the mission',
  'I climb to the highest point and study the land',
  'I bargain with the merchant for supplies',
  'I follow the fresh tracks into the dark',
  'I hide and wait to see who comes',
  'I light a fire and tend my wounds',
  'I write a warning and leave it at the gate',
];

async function gql(url, token, query, variables) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const json = await res.json();
  if (json.errors) throw new Error(`${query.slice(0, 40)}…: ${JSON.stringify(json.errors)}`);
  return json.data;
}

async function rest(url, token, p, body) {
  const res = await fetch(`${url}/api${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Plays one story; returns what the figures are computed from. */
async function play(url, world, n) {
  const { accessToken: token } = await signUp(url, `lint${n}`);
  const answers = world.questions.map((_, i) => ['Bold and restless', 'A debt I cannot repay', 'My sister, lost at sea', 'A blade and a map'][i % 4]);
  const { generateCharacter: g } = await gql(
    url,
    token,
    'mutation($input: GenerateCharacterInput!) { generateCharacter(input: $input) { username description stats traits strengths weaknesses special { name description } } }',
    {
      input: {
        worldDescription: world.description,
        questions: world.questions,
        answers,
        username: ['Mara Vell', 'Tobin Reed', 'Isla Crane', 'Oren Hale'][n % 4],
      },
    },
  );
  const { saveCharacter: c } = await gql(url, token, 'mutation($input: SaveCharacterInput!) { saveCharacter(input: $input) { id name } }', {
    input: {
      worldId: world.id,
      name: g.username,
      description: g.description,
      stats: g.stats,
      traits: g.traits,
      strengths: g.strengths,
      weaknesses: g.weaknesses,
      special: g.special,
    },
  });
  const chapters = [];
  let choice = '';
  for (let i = 0; i < CHAPTERS; i++) {
    const typed = i > 0 && i % 3 === 0 ? TYPED[(i / 3 + n) % TYPED.length] : null;
    const action = i === 0 ? '' : (typed ?? choice);
    const r = await rest(url, token, '/stories/generate-chapter', { characterId: c.id, userChoice: action });
    chapters.push({
      text: r.newChapter.text,
      action,
      typed,
      cast: r.updatedCurrentCharacters,
      completed: r.missionCompleted,
      // Stakes (issue 31): the check rolled before the chapter, what it did to health and items, growth.
      check: r.newChapter.check,
      stakes: r.newChapter.stakes,
      increases: r.newIncreases,
    });
    choice = r.newChapter.choices[(i + n) % r.newChapter.choices.length];
  }
  const { character } = await gql(
    url,
    token,
    'query($id: ID!) { character(id: $id) { missionHistory { objective status startedInChapter completedInChapter } storyCards { name kind } } }',
    { id: c.id },
  );
  return { world, hero: c.name, description: g.description, answers, chapters, missions: character.missionHistory, cards: character.storyCards };
}

const words = (s) => s.toLowerCase().match(/[\p{L}'’]+/gu) ?? [];
const sentences = (s) =>
  s
    .split(/(?<=[.!?…”"])\s+/)
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function figures(story) {
  const ch = story.chapters;
  const missionWords = new Set(story.missions.flatMap((m) => words(m.objective)));
  // Names aside: every capitalised word that is not a sentence start, and the hero's names.
  const names = new Set([...words(story.hero), ...story.cards.flatMap((k) => words(k.name))]);
  for (const c of ch) for (const m of c.text.matchAll(/(?<![.!?]\s|^)\b([A-Z][\p{L}'’-]+)/gu)) names.add(m[1].toLowerCase());
  const plain = (t) => words(t).filter((w) => !names.has(w) && !missionWords.has(w));

  const grams = new Map();
  for (const c of ch) {
    const w = plain(c.text);
    const seen = new Set();
    for (let i = 0; i + 4 <= w.length; i++) seen.add(w.slice(i, i + 4).join(' '));
    for (const g of seen) grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  const [topGram, topCount] = [...grams].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];

  const sentenceChapters = new Map();
  let total = 0;
  for (const c of ch) {
    const seen = new Set(
      sentences(c.text)
        .map((s) => plain(s).join(' '))
        .filter((s) => s.split(' ').length >= 4),
    );
    total += seen.size;
    for (const s of seen) sentenceChapters.set(s, (sentenceChapters.get(s) ?? 0) + 1);
  }
  const repeated = [...sentenceChapters.values()].filter((n) => n > 1).reduce((a, n) => a + n, 0);

  // Places, factions and the world acting as people: a card of another kind, or the world's name,
  // written as someone who speaks or is described as a person.
  const notPeople = [
    story.world.name,
    ...story.world.name.split(/\s+/).filter((x) => x.length > 3),
    ...story.cards.filter((k) => k.kind !== 'character').map((k) => k.name),
  ];
  // "X, a …" after a preposition is a place with a clause ("Out past X, a hawk turned…"), not a person.
  const asPerson = (n) =>
    new RegExp(
      `(?<!\\b(?:past|at|in|to|from|near|across|over|through|into|of|toward|towards|beyond|under|around|reach|reached|left) )\\b${escape(n)}(?:, (?:a|an) [a-z]| (?:said|says|had said|nodded|shrugged|frowned|waited))|what ${escape(n)} had said`,
    );
  const offending = ch.flatMap((c) => sentences(c.text).filter((x) => notPeople.some((n) => asPerson(n).test(x))));
  const placesAsPeople = ch.filter((c) => notPeople.some((n) => asPerson(n).test(c.text))).length;
  if (process.env.VERBOSE) {
    for (const x of offending) console.log(`  place as person: ${x}`);
    console.log(`  description: ${story.description.slice(0, 400)}`);
  }
  const castAsPlaces = new Set(ch.flatMap((c) => c.cast.map((m) => m.name)).filter((n) => notPeople.some((p) => p.toLowerCase() === n.toLowerCase())));

  // A typed action is answered when the chapter after it takes up at least two of its content words.
  const typed = ch.filter((c) => c.typed);
  const answered = typed.filter((c) => {
    const content = words(c.typed).filter((w) => w.length > 3 && !['what', 'they', 'know', 'about', 'into', 'with', 'nearest'].includes(w));
    const text = c.text.toLowerCase();
    return content.filter((w) => text.includes(w.replace(/s$/, ''))).length >= 2;
  }).length;

  const done = story.missions.filter((m) => m.status === 'completed');
  const spans = done.map((m) => m.completedInChapter - (m.startedInChapter ?? 1) + 1);
  const castChapters = ch.filter((c) => c.cast.length > 0).length;
  const people = new Map();
  for (const c of ch) for (const m of c.cast) people.set(m.name, (people.get(m.name) ?? 0) + 1);
  // An answer quoted back verbatim ("…answered: “A debt I cannot repay.”") is not woven into a portrait.
  // Stakes (issue 31): how checks came out, health lost and regained, items, and how fast stats grew.
  const outcomes = { critical_success: 0, success: 0, success_at_cost: 0, failure: 0, critical_failure: 0 };
  for (const c of ch) if (c.check) outcomes[c.check.outcome] += 1;
  const checks = ch.filter((c) => c.check).length;
  let healthLost = 0;
  let healthRestored = 0;
  let lowest = Infinity;
  let defeats = 0;
  let gained = 0;
  let lost = 0;
  for (const c of ch) {
    if (!c.stakes) continue;
    healthLost += Math.max(0, c.stakes.healthBefore - c.stakes.healthAfter);
    healthRestored += c.stakes.healthRestored;
    lowest = Math.min(lowest, c.stakes.healthAfter);
    if (c.stakes.defeat) defeats += 1;
    gained += c.stakes.itemsGained.length;
    lost += c.stakes.itemsLost.length;
  }
  const growth = {};
  for (const c of ch) for (const [k, v] of Object.entries(c.increases ?? {})) growth[k] = (growth[k] ?? 0) + v;
  // A failed check narrated as the action working: the check's own words of success in a failed chapter.
  const failedAsSuccess = ch.filter((c) => c.check && /failure/.test(c.check.outcome) && /\bmanaged to\b|\bpaid off\b|\bit worked\b/i.test(c.text)).length;
  const quoted = story.answers.filter((a) => new RegExp(`[“"'‘]${escape(a)}[.!?]?[”"'’]`, 'i').test(story.description)).length;
  return {
    missions: done.length,
    spans,
    castChapters,
    people: people.size,
    recurring: [...people.values()].filter((n) => n > 1).length,
    placesAsPeople,
    castAsPlaces: castAsPlaces.size,
    topGram,
    topShare: topCount / ch.length,
    repeatedShare: total ? repeated / total : 0,
    typed: typed.length,
    answered,
    quoted,
    checks,
    outcomes,
    healthLost,
    healthRestored,
    lowest: Number.isFinite(lowest) ? lowest : null,
    defeats,
    gained,
    lost,
    statPoints: Object.values(growth).reduce((a, b) => a + b, 0),
    mostOnOneStat: Math.max(0, ...Object.values(growth)),
    failedAsSuccess,
  };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleforge-lint-story-'));
  const app = await startApp(dataDir);
  try {
    const { accessToken } = await signUp(app.url, 'lintworlds');
    const { featuredWorlds } = await gql(app.url, accessToken, '{ featuredWorlds(limit: 24) { id name description questions } }');
    console.log(
      `lint:story — ${STORIES} stories × ${CHAPTERS} chapters over ${app.url} (${process.env.OPENAI_API_KEY ? 'remote model' : 'offline storyteller'})\n`,
    );
    const rows = [];
    for (let n = 0; n < STORIES; n++) {
      const world = featuredWorlds[(n * 3) % featuredWorlds.length];
      const f = figures(await play(app.url, world, n));
      rows.push(f);
      console.log(
        `${world.name.padEnd(22)} missions ${String(f.missions).padStart(2)} (chapters each: ${f.spans.join(', ') || '–'}); cast in ${f.castChapters}/${CHAPTERS} chapters, ${f.people} people, ${f.recurring} recurring; places as people ${f.placesAsPeople}; top phrase "${f.topGram}" ${(f.topShare * 100).toFixed(0)}%; repeated sentences ${(f.repeatedShare * 100).toFixed(0)}%; typed actions answered ${f.answered}/${f.typed}; answers quoted in the description ${f.quoted}`,
      );
      const o = f.outcomes;
      console.log(
        `${''.padEnd(22)} stakes: checks ${f.checks}/${CHAPTERS - 1} actions (critical success ${o.critical_success}, success ${o.success}, at a cost ${o.success_at_cost}, failure ${o.failure}, critical failure ${o.critical_failure}); health −${f.healthLost} +${f.healthRestored}, lowest ${f.lowest ?? '–'}, defeats ${f.defeats}; items gained ${f.gained}, lost ${f.lost}; stats +${f.statPoints} (most on one stat +${f.mostOnOneStat}); failures told as success ${f.failedAsSuccess}`,
      );
    }
    const checks = [
      ['missions completed per story ≥ 3', rows.every((r) => r.missions >= 3)],
      ['every completed mission took 3–8 chapters', rows.every((r) => r.spans.every((s) => s >= 3 && s <= 8))],
      ['the chapters report a cast that recurs', rows.every((r) => r.castChapters > 0 && r.recurring > 0)],
      ['no place, faction or world acts as a person', rows.every((r) => r.placesAsPeople === 0 && r.castAsPlaces === 0)],
      ['no 4-word phrase in more than 25% of chapters', rows.every((r) => r.topShare <= 0.25)],
      ['repeated sentences ≤ 10% of sentences', rows.every((r) => r.repeatedShare <= 0.1)],
      ['typed actions answered ≥ 80%', rows.every((r) => r.typed === 0 || r.answered / r.typed >= 0.8)],
      ['character descriptions weave the answers in (no quoted answers)', rows.every((r) => r.quoted === 0)],
      ['actions can fail: every story has a failed check', rows.every((r) => r.outcomes.failure + r.outcomes.critical_failure > 0)],
      ['no failed check is told as a success', rows.every((r) => r.failedAsSuccess === 0)],
      ['growth is bounded: no stat gains more than 6 in a story', rows.every((r) => r.mostOnOneStat <= 6)],
    ];
    console.log('');
    for (const [text, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'}  ${text}`);
    process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
  } finally {
    await app.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

// `npm run lint:story`: plays several stories of 30 chapters each over the real API (the built server,
// offline storyteller unless OPENAI_API_KEY is set) as a player would — suggested choices and typed
// actions, the answers to the world's questions kept with the character — in different featured worlds,
// and prints what a reader notices, against the targets of issues 19 and 32:
//   the world's own material (its names in the chapters, nothing it rules out, the player's answers
//   as threads), a cast that holds (unique first names, no bare titles, no hero's surname, no
//   description of one person reused for another), actions answered and not pasted back, missions
//   from the world completed only by actions that concern them and never handed out twice (each
//   within 3–8 chapters), variety (no spoken line in more than 10% of chapters, repeated sentences,
//   the top 4-word phrase, chapter length that varies, another take sharing ≤30% of its sentences),
//   and settings honoured (second person present by default, the author's note, a paragraph summary,
//   plot essentials woven in).
// STORIES (default 4) and CHAPTERS (default 30) change the size; VERBOSE=1 prints the offending sentences. Exits 1 when a target is missed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signUp, startApp } from './app-process.mjs';
import { breaksWorld, buildWorldMaterial, constraintKeys } from '../server/dist/ai/world-material.js';

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

/** Worlds of different kinds (a horror village, a megacity, a frontier town, a station under the ice). */
const WORLDS = ['Hollowmere', 'Neon Requiem', 'Saltbone Crossing', 'The Glass Reef'];
/** The first story also sets an author's note and plot essentials: they must be honoured. */
const NOTE = 'End each chapter on a sound in the dark.';
const ESSENTIAL = 'The letter was written a week before the drowning';

/** Plays one story; returns what the figures are computed from. */
async function play(url, world, n) {
  const { accessToken: token } = await signUp(url, `lint${n}`);
  const answers = world.questions.map(
    (_, i) =>
      [
        'A letter from my dead sister',
        'My brother, who never came home',
        'A debt I cannot repay to the wrong people',
        'That I will fail the ones who trusted me',
      ][i % 4],
  );
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
      answers,
    },
  });
  if (n === 0) {
    await gql(url, token, 'mutation($id: ID!, $input: StoryMemoryInput!) { updateStoryMemory(characterId: $id, input: $input) { authorsNote } }', {
      id: c.id,
      input: { authorsNote: NOTE, plotEssentials: `${ESSENTIAL}.` },
    });
  }
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
  // Regenerate the latest chapter three times: each take against the one it replaces.
  const takes = [chapters[chapters.length - 1].text];
  for (let k = 0; k < 3; k++) {
    const { regenerateChapter } = await gql(
      url,
      token,
      'mutation($input: RegenerateChapterInput!) { regenerateChapter(input: $input) { newChapter { text } } }',
      {
        input: { characterId: c.id },
      },
    );
    takes.push(regenerateChapter.newChapter.text);
  }
  const { character } = await gql(
    url,
    token,
    'query($id: ID!) { character(id: $id) { missionHistory { objective status startedInChapter completedInChapter } storyCards { name kind } storyMemory { summary } } }',
    { id: c.id },
  );
  return {
    world,
    hero: c.name,
    description: g.description,
    answers,
    chapters,
    takes,
    missions: character.missionHistory,
    cards: character.storyCards,
    summary: character.storyMemory.summary,
    withNote: n === 0,
  };
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
  // The player's own words (answers, the plot essential) recur by design: like mission words, they are not the storyteller's stock.
  const missionWords = new Set([
    ...story.missions.flatMap((m) => words(m.objective)),
    ...[...story.answers.flatMap(words), ...(story.withNote ? words(ESSENTIAL) : [])].filter(
      (w) => w.length >= 4 && !['that', 'will', 'from', 'with', 'never', 'before'].includes(w),
    ),
  ]);
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
      `(?<!\\b(?:past|at|in|to|from|near|across|over|through|into|of|toward|towards|beyond|under|around|reach|reached|left) (?:the )?(?:[A-Z][A-Za-z'’-]* )?)\\b${escape(n)}(?:, (?:a|an) [a-z]| (?:said|says|had said|nodded|shrugged|frowned|waited))|what ${escape(n)} had said`,
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
  const quoted = story.answers.filter((a) => new RegExp(`[“"'‘]${escape(a)}[.!?]?[”"'’]`, 'i').test(story.description)).length;
  // Issue 31: how checks came out, health lost and regained, items, and how fast stats grew.
  const outcomes = { critical_success: 0, success: 0, success_at_cost: 0, failure: 0, critical_failure: 0 };
  for (const c of ch) if (c.check) outcomes[c.check.outcome] += 1;
  const checkCount = ch.filter((c) => c.check).length;
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
  // A failed check told as the action working: words of success in a chapter whose check failed.
  const SUCCEEDED = /\bmanaged to\b|\bpaid off\b|\bit worked\b/i;
  // In the narration: what people say ("nobody has managed to…") is theirs.
  const unspoken = (c) => c.text.replace(/“[^”]*”/g, '');
  const failedAsSuccess = ch.filter((c) => c.check && /failure/.test(c.check.outcome) && SUCCEEDED.test(unspoken(c))).length;
  if (process.env.VERBOSE) {
    for (const c of ch.filter((x) => x.check && /failure/.test(x.check.outcome)))
      for (const x of sentences(unspoken(c)).filter((y) => SUCCEEDED.test(y))) console.log(`  failure told as success (${c.action}): ${x}`);
  }
  // Issue 32. The narration is what is not spoken.
  const narration = (t) => t.replace(/“[^”]*”/g, '');
  const material = buildWorldMaterial({
    name: story.world.name,
    description: story.world.description,
    questions: story.world.questions,
    answers: story.answers,
  });
  const keys = constraintKeys(material);
  const ownNames = [...material.places, ...material.factions, ...material.people].map((x) => x.replace(/^the /, ''));
  const ownChapters = ch.filter((c) => ownNames.some((x) => c.text.includes(x))).length;
  const ruledOut = ch.flatMap((c) => sentences(narration(c.text))).filter((x) => breaksWorld(x, keys) || /Arasaka|Thorn Court|two suns|dust storm/i.test(x));
  // Answers as threads: each answer of some substance comes back, as the hero's own, in 2+ chapters.
  const asHero = (a) =>
    a
      .toLowerCase()
      .replace(/\bmy\b/g, 'your')
      .replace(/\b(?:me|i)\b/g, 'you')
      .replace(/[.!?]+$/, '');
  const threads = story.answers
    .filter((a) => a.split(/\s+/).length >= 3)
    .map((a) => {
      const frag = asHero(a).split(/\s+/).slice(-3).join(' ');
      return ch.filter((c) => c.text.toLowerCase().includes(frag)).length;
    });
  // A cast that holds.
  const TITLES =
    /^(?:dr|doctor|director|captain|marshal|vicar|sheriff|lord|lady|king|queen|sir|commander|agent|saint|father|mother|sister|brother|inspector|professor)\.?$/i;
  const castNames = story.cards.filter((k) => k.kind === 'character').map((k) => k.name);
  const firstOf = (x) => x.split(/\s+/).find((w) => !TITLES.test(w)) ?? x;
  const firsts = castNames.map(firstOf);
  const heroWords = story.hero.split(/\s+/);
  const heroLast = heroWords.length > 1 ? heroWords[heroWords.length - 1] : null;
  const castFaults = [
    ...castNames.filter((x, i) => firsts.indexOf(firstOf(x)) !== i).map((x) => `${x} shares a first name`),
    ...castNames.filter((x) => TITLES.test(x.trim())).map((x) => `${x} is a bare title`),
    ...castNames.filter((x) => heroLast && x !== story.hero && x.split(/\s+/).pop() === heroLast).map((x) => `${x} has the hero's surname`),
  ];
  const looks = new Map();
  for (const c of ch)
    for (const x of sentences(narration(c.text)))
      for (const f of new Set(firsts)) {
        const m = new RegExp(`^${escape(f)} ((?:has|is|wears|smells|keeps|was|had) .+)$`).exec(x);
        if (m) looks.set(m[1], (looks.get(m[1]) ?? new Set()).add(f));
      }
  const sharedLooks = [...looks.values()].filter((who) => who.size > 1).length;
  // Actions answered, not pasted back: the typed sentence (less its "I") is not in the chapter.
  const pasted = typed.filter((c) => c.text.toLowerCase().includes(c.typed.replace(/^I\s+/i, '').toLowerCase())).length;
  // Missions: never the same objective twice; completed only by an action that concerns it.
  const objectives = story.missions.map((m) => m.objective.toLowerCase());
  const duplicateMissions = objectives.length - new Set(objectives).size;
  const GENERIC = new Set([
    'find',
    'what',
    'that',
    'they',
    'know',
    'about',
    'before',
    'from',
    'with',
    'your',
    'their',
    'there',
    'where',
    'will',
    'does',
    'keep',
    'safe',
    'tell',
    'learn',
    'into',
    'past',
    'away',
  ]);
  const content = (x) =>
    new Set(
      words(x)
        .filter((w) => w.length >= 4 && !GENERIC.has(w))
        .map((w) => w.replace(/(?:ing|ed|es|s)$/, '')),
    );
  const unrelatedCompletions = done.filter((m) => {
    const c = ch[m.completedInChapter - 1];
    const o = content(m.objective);
    return !c || ![...content(c.action)].some((w) => o.has(w));
  }).length;
  // Variety: spoken lines, chapter length, another take.
  const lines = new Map();
  for (const c of ch) for (const q of new Set(c.text.match(/“[^”]+”/g) ?? [])) lines.set(q, (lines.get(q) ?? 0) + 1);
  const topLine = Math.max(0, ...lines.values()) / ch.length;
  const lengths = ch.map((c) => words(c.text).length);
  const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
  const lengthCv = Math.sqrt(lengths.reduce((a, b) => a + (b - mean) ** 2, 0) / lengths.length) / mean;
  const takeShare = Math.max(
    ...story.takes.slice(1).map((t, k) => {
      const before = new Set(sentences(story.takes[k]));
      const now = sentences(t);
      return now.filter((x) => before.has(x)).length / now.length;
    }),
  );
  // Settings: second person present by default, the note, a paragraph summary, essentials woven in.
  const heroFirst = heroWords[0];
  const heroNamed = ch.filter((c) => new RegExp(`\\b${escape(heroFirst)}\\b`).test(narration(c.text))).length;
  // (The player's own plot essential is quoted in its own tense, so it is not counted.)
  const told = ch.flatMap((c) => sentences(narration(c.text))).filter((x) => !x.includes('written a week before the drowning'));
  const pastShare = told.filter((x) => /\b(?:was|were|had|did)\b/.test(x)).length / told.length;
  const you = told.filter((x) => /\byou\b/i.test(x)).length / told.length;
  const noteKept = !story.withNote || ch.every((c) => /\bdark\b/i.test(sentences(c.text).pop() ?? ''));
  // The summary is bounded by the tier's budget (Free: a few hundred characters): it is a paragraph
  // of several sentences, not one, and not a list of choices.
  const summaryOk = sentences(story.summary).length >= 2 && !/Choice: |\n/.test(story.summary);
  const essentialChapters = story.withNote ? ch.filter((c) => c.text.includes('written a week before the drowning')).length : null;
  const essentialQuoted = story.withNote ? ch.filter((c) => /: the letter was written a week/i.test(c.text)).length : 0;
  return {
    ownChapters,
    ruledOut: ruledOut.length,
    ruledOutExample: ruledOut[0] ?? '',
    threads,
    castFaults,
    sharedLooks,
    pasted,
    duplicateMissions,
    unrelatedCompletions,
    topLine,
    lengthCv,
    takeShare,
    heroNamed,
    pastShare,
    you,
    noteKept,
    summaryOk,
    summaryLength: story.summary.length,
    essentialChapters,
    essentialQuoted,
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
    checks: checkCount,
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
  // A player's 30 chapters and three more takes within a minute: the generation limit is not measured here.
  const app = await startApp(dataDir, { GENERATION_RATE_LIMIT_PER_USER: '1000000' });
  try {
    const { accessToken } = await signUp(app.url, 'lintworlds');
    const { featuredWorlds } = await gql(app.url, accessToken, '{ featuredWorlds(limit: 24) { id name description questions } }');
    console.log(
      `lint:story — ${STORIES} stories × ${CHAPTERS} chapters over ${app.url} (${process.env.OPENAI_API_KEY ? 'remote model' : 'offline storyteller'})\n`,
    );
    const rows = [];
    for (let n = 0; n < STORIES; n++) {
      const world = featuredWorlds.find((w) => w.name === WORLDS[n % WORLDS.length]) ?? featuredWorlds[(n * 3) % featuredWorlds.length];
      const story = await play(app.url, world, n);
      // DUMP=<folder>: each story as Markdown, to read in full.
      if (process.env.DUMP) {
        fs.mkdirSync(process.env.DUMP, { recursive: true });
        const md = story.chapters.map((c, i) => `## Chapter ${i + 1}${c.action ? `\n\n> ${c.action}` : ''}\n\n${c.text}\n`).join('\n');
        const takes = story.takes.map((t, i) => `### Take ${i + 1}\n\n${t}\n`).join('\n');
        fs.writeFileSync(
          path.join(process.env.DUMP, `${world.name.replace(/\W+/g, '-')}.md`),
          `# ${world.name}: ${story.hero}\n\nAnswers: ${story.answers.join(' / ')}\n\nMissions: ${story.missions.map((m) => `${m.objective} (${m.status})`).join(' / ')}\n\nStory so far: ${story.summary}\n\n${md}\n## The last chapter, regenerated\n\n${takes}`,
        );
      }
      const f = figures(story);
      rows.push(f);
      console.log(
        `${world.name.padEnd(22)} missions ${String(f.missions).padStart(2)} (chapters each: ${f.spans.join(', ') || '–'}); cast in ${f.castChapters}/${CHAPTERS} chapters, ${f.people} people, ${f.recurring} recurring; places as people ${f.placesAsPeople}; top phrase "${f.topGram}" ${(f.topShare * 100).toFixed(0)}%; repeated sentences ${(f.repeatedShare * 100).toFixed(0)}%; typed actions answered ${f.answered}/${f.typed}; answers quoted in the description ${f.quoted}`,
      );
      console.log(
        `${''.padEnd(22)} own names in ${f.ownChapters}/${CHAPTERS} chapters; ruled out ${f.ruledOut}${f.ruledOut ? ` ("${f.ruledOutExample.slice(0, 80)}")` : ''}; answers back in ${f.threads.join('/')} chapters; cast faults ${f.castFaults.length}${f.castFaults.length ? ` (${f.castFaults.join('; ')})` : ''}; looks shared ${f.sharedLooks}; typed pasted back ${f.pasted}; missions twice ${f.duplicateMissions}; completed by unrelated actions ${f.unrelatedCompletions}; top spoken line ${(f.topLine * 100).toFixed(0)}%; length variation ${(f.lengthCv * 100).toFixed(0)}%; another take shares ${(f.takeShare * 100).toFixed(0)}%; hero named in narration ${f.heroNamed}; past-tense sentences ${(f.pastShare * 100).toFixed(1)}%; "you" in ${(f.you * 100).toFixed(0)}%; summary ${f.summaryLength} chars${f.essentialChapters === null ? '' : `; note kept ${f.noteKept}; essential woven in ${f.essentialChapters} chapters, quoted ${f.essentialQuoted}`}`,
      );
      const o = f.outcomes;
      console.log(
        `${''.padEnd(22)} stakes: checks ${f.checks}/${CHAPTERS - 1} actions (critical success ${o.critical_success}, success ${o.success}, at a cost ${o.success_at_cost}, failure ${o.failure}, critical failure ${o.critical_failure}); health −${f.healthLost} +${f.healthRestored}, lowest ${f.lowest ?? '–'}, defeats ${f.defeats}; items gained ${f.gained}, lost ${f.lost}; stats +${f.statPoints} (most on one stat +${f.mostOnOneStat}); failures told as success ${f.failedAsSuccess}`,
      );
    }
    const checks = [
      // Issue 31.
      ['actions can fail: every story has a failed check', rows.every((r) => r.outcomes.failure + r.outcomes.critical_failure > 0)],
      ['no failed check is told as a success', rows.every((r) => r.failedAsSuccess === 0)],
      ['growth is bounded: no stat gains more than 6 in a story', rows.every((r) => r.mostOnOneStat <= 6)],
      // Issue 32.
      ["the world's own names in ≥ 60% of chapters", rows.every((r) => r.ownChapters >= 0.6 * CHAPTERS)],
      ['nothing the world rules out (its constraints, another fiction, another genre’s sky)', rows.every((r) => r.ruledOut === 0)],
      ['every answer of substance comes back as a thread in ≥ 2 chapters', rows.every((r) => r.threads.length > 0 && r.threads.every((k) => k >= 2))],
      ['a cast that holds: unique first names, no bare titles, no hero’s surname', rows.every((r) => r.castFaults.length === 0)],
      ['no description of one person reused for another', rows.every((r) => r.sharedLooks === 0)],
      ['typed actions are not pasted back', rows.every((r) => r.pasted === 0)],
      ['no mission handed out twice', rows.every((r) => r.duplicateMissions === 0)],
      ['missions completed only by actions that concern them', rows.every((r) => r.unrelatedCompletions === 0)],
      ['no spoken line in more than 10% of chapters', rows.every((r) => r.topLine <= 0.1)],
      ['chapter length varies (≥ 12% variation)', rows.every((r) => r.lengthCv >= 0.12)],
      ['another take shares ≤ 30% of its sentences', rows.every((r) => r.takeShare <= 0.3)],
      ['second person present by default (hero never named in narration, ≤ 2% past tense)', rows.every((r) => r.heroNamed === 0 && r.pastShare <= 0.02)],
      ["the author's note's ending in every chapter", rows.every((r) => r.noteKept)],
      ['the story so far is a paragraph (several sentences, no "Choice:" list)', rows.every((r) => r.summaryOk)],
      [
        'plot essentials woven in (in ≥ 3 chapters, never quoted after a colon)',
        rows.every((r) => r.essentialChapters === null || (r.essentialChapters >= 3 && r.essentialQuoted === 0)),
      ],
      // Issue 19.
      ['missions completed per story ≥ 3', rows.every((r) => r.missions >= 3)],
      ['every completed mission took 3–8 chapters', rows.every((r) => r.spans.every((s) => s >= 3 && s <= 8))],
      ['the chapters report a cast that recurs', rows.every((r) => r.castChapters > 0 && r.recurring > 0)],
      ['no place, faction or world acts as a person', rows.every((r) => r.placesAsPeople === 0 && r.castAsPlaces === 0)],
      ['no 4-word phrase in more than 25% of chapters', rows.every((r) => r.topShare <= 0.25)],
      ['repeated sentences ≤ 10% of sentences', rows.every((r) => r.repeatedShare <= 0.1)],
      ['typed actions answered ≥ 80%', rows.every((r) => r.typed === 0 || r.answered / r.typed >= 0.8)],
      ['character descriptions weave the answers in (no quoted answers)', rows.every((r) => r.quoted === 0)],
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

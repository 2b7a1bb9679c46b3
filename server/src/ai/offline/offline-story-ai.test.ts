/**
 * The offline storyteller, the product's default AI, tested like model output: chapters as
 * properties over 500 random worlds × actions (schema-valid, safe, deterministic) and as 30-chapter
 * stories; names that stay what they are; what a typed action is about; worlds, characters,
 * missions, styles, summaries, images and cancellation.
 */
import sharp from 'sharp';
import { AppError } from '../../common/app-error';
import {
  chapterResultSchema,
  characterSchema,
  collectChapter,
  STAT_NAMES,
  worldQuestionsSchema,
  type ChapterInput,
  type ChapterResult,
  type PastChapter,
  type StatName,
} from '../story-ai';
import { sanitizeStylesWithReport } from '../style-guard';
import { FEATURED_WORLDS } from '../../db/seed-data';
import { GENRES } from './genres';
import { OfflineStoryAI } from './offline-story-ai';
import { Rng } from './prng';
import { lowerFirst, normaliseAction, splitSentences, wordCount } from './text';
import { randomCharacter, randomWorld, SAMPLE_ACTIONS } from './test-worlds';
import { detectGenre, readWorld, shortName } from './world-model';

const ai = new OfflineStoryAI();

function chapterInput(rng: Rng, overrides: Partial<ChapterInput> = {}): ChapterInput {
  const world = randomWorld(rng);
  return {
    worldDescription: world.description,
    character: randomCharacter(rng),
    mission: rng.chance(0.85) ? `Recover the ${rng.pick(['sunken bell', 'lost charter', 'iron key', 'star map'])} from ${world.names[1]}` : null,
    setting: null,
    summary: '',
    recentChapters: [],
    chapterNumber: 1 + rng.int(40),
    action: rng.pick(SAMPLE_ACTIONS),
    readingLevel: 1 + rng.int(12),
    seed: rng.int(1_000_000),
    maxContextTokens: 4000,
    ...overrides,
  };
}

const avgSentenceLength = (text: string) => {
  const s = splitSentences(text.replace(/\n+/g, ' '));
  return s.reduce((n, x) => n + wordCount(x), 0) / s.length;
};

describe('offline chapters: properties over 500 random worlds × actions', () => {
  const rng = new Rng(20240611);
  const cases = Array.from({ length: 500 }, () => chapterInput(rng));
  // A previous chapter for half the cases, so continuation is exercised too.
  cases.forEach((c, i) => {
    if (i % 2 === 0)
      c.recentChapters = [
        { text: `${shortName(c.character.name)} stood at the gate while the rain came down. Nobody spoke.`, playerChoice: 'Wait at the gate' },
      ];
    // A mission that has run for two chapters already may complete.
    if (i % 3 === 0 && c.mission) {
      const m = lowerFirst(c.mission);
      c.recentChapters = [
        { text: `The task was plain: ${m}. The road was long.`, playerChoice: null },
        { text: `${shortName(c.character.name)} still meant to ${m}. Night fell.`, playerChoice: 'Keep going' },
      ];
    }
  });

  it('are schema-valid, well-shaped, deterministic and use the action, the name and the mission', async () => {
    for (const input of cases) {
      const { result, deltas } = await collectChapter(ai.streamChapter(input));
      expect(chapterResultSchema.safeParse(result).success).toBe(true);
      expect(deltas.join('')).toBe(result.text);
      const words = wordCount(result.text);
      expect(words).toBeGreaterThanOrEqual(150);
      expect(words).toBeLessThanOrEqual(400);
      const paragraphs = result.text.split(/\n\n/);
      expect(paragraphs.length).toBeGreaterThanOrEqual(2);
      expect(paragraphs.length).toBeLessThanOrEqual(4);
      expect(result.choices.length).toBeGreaterThanOrEqual(3);
      expect(result.choices.length).toBeLessThanOrEqual(4);
      expect(result.text).not.toMatch(/[<>{}[\]]|undefined|null|NaN/);

      // The action is answered, not pasted back: its verb and what it was done to are told (issue 32);
      // the hero is told from the story's point of view.
      const act = normaliseAction(input.action as string);
      if (!act.clause.startsWith('follow a sudden idea')) expect(result.text.toLowerCase()).toMatch(new RegExp(`\\b${act.clause.split(' ')[0]}\\b`));
      if (act.object) expect(result.text.toLowerCase()).toContain(act.object.replace(/\btheir\b/g, 'your').toLowerCase());
      expect(result.text).toMatch(/\b[Yy]ou\b/);
      if (input.mission) expect(result.text.toLowerCase()).toContain(lowerFirst(input.mission).toLowerCase());
      if (!input.mission) expect(result.newMission).toBeTruthy();
      if (result.missionCompleted) {
        expect(result.newMission).toBeTruthy();
        expect(result.text).toContain(lowerFirst(result.newMission as string));
      }
      for (const [stat, inc] of Object.entries(result.statIncreases)) {
        expect(STAT_NAMES).toContain(stat);
        expect((input.character.stats[stat as StatName] ?? 0) + (inc as number)).toBeLessThanOrEqual(20);
      }
      if (result.newSetting) expect(result.newSetting.length).toBeGreaterThan(20);

      const again = await collectChapter(ai.streamChapter(input));
      expect(again.result).toEqual(result);
    }
  });

  it('sometimes raise stats, move the story and complete missions (but not always)', async () => {
    let inc = 0;
    let moved = 0;
    let done = 0;
    let unrelatedDone = 0;
    const words = (s: string) => new Set(s.toLowerCase().match(/[a-z]{4,}/g) ?? []);
    for (const input of cases) {
      const { result } = await collectChapter(ai.streamChapter(input));
      if (Object.keys(result.statIncreases).length) inc++;
      if (result.newSetting) moved++;
      // A mission is completed only by an outcome that concerns it (issue 32): never by an unrelated action…
      const m = input.mission;
      if (result.missionCompleted && m && ![...words(input.action ?? '')].some((w) => words(m).has(w))) unrelatedDone++;
      // …and sometimes by an action about it, once it has run a while.
      if (m) {
        const about = await collectChapter(ai.streamChapter({ ...input, action: `I set out to ${m.toLowerCase()}`, missionAge: 3 }));
        if (about.result.missionCompleted) done++;
      }
    }
    expect(unrelatedDone).toBe(0);
    for (const n of [inc, moved, done]) {
      expect(n).toBeGreaterThan(10);
      expect(n).toBeLessThan(400);
    }
  });

  it('hostile player input never becomes markup or template syntax', async () => {
    const input = chapterInput(new Rng(11), {
      character: { ...randomCharacter(new Rng(1)), name: '<b>Evil</b> {name}', traits: ['<i>sly</i>', '[a|b]'] },
      mission: 'Steal the <script>alert(1)</script> crown {mission}',
      action: 'I open the <img src=x onerror=alert(1)> door [x|y] {name}',
      recentChapters: [{ text: 'Earlier.', playerChoice: '<b>x</b>' }],
    });
    const { result } = await collectChapter(ai.streamChapter(input));
    expect(chapterResultSchema.safeParse(result).success).toBe(true);
    expect(result.text + result.choices.join(' ')).not.toMatch(/[<>{}[\]]/);
  });

  it("keeps the player's plot essentials in the story (every third chapter, in turn) and reports its cast, reusing a card's role", async () => {
    const essentials = 'The Tide Queen cannot cross running water. <b>Mara</b> owes the ferryman a debt.';
    const recalled: string[] = [];
    for (let n = 1; n <= 9; n++) {
      const input = chapterInput(new Rng(n), { chapterNumber: n, plotEssentials: essentials });
      const { result } = await collectChapter(ai.streamChapter(input));
      if (result.text.includes('Tide Queen cannot cross running water')) recalled.push(`a${n}`);
      if (result.text.includes('owes the ferryman a debt')) recalled.push(`b${n}`);
      expect(result.text).not.toMatch(/[<>]/);
    }
    expect(recalled).toEqual(['b3', 'a6', 'b9']);

    // A person with a story card keeps the card's role in the prose; the cast names who appeared.
    const rng = new Rng(5);
    const base = chapterInput(rng);
    const people = readWorld(base.worldDescription).people;
    const who = people[0] as string;
    let seen = 0;
    for (let n = 2; n < 30; n++) {
      const { result } = await collectChapter(
        ai.streamChapter({
          ...base,
          chapterNumber: n,
          seed: n,
          castList: [{ name: who, role: 'lighthouse keeper' }],
          recentChapters: [{ text: 'Earlier.', playerChoice: 'wait' }],
        }),
      );
      for (const m of result.cast) expect(result.text).toContain(shortName(m.name));
      const met = result.cast.find((m) => m.name === who);
      if (met) {
        seen++;
        expect(met.role).toBe('lighthouse keeper');
        expect(met.description).toBeNull(); // the card already describes them
      }
    }
    expect(seen).toBeGreaterThan(3);
  });

  it('a different seed gives a different chapter', async () => {
    const input = cases[0] as ChapterInput;
    const a = await collectChapter(ai.streamChapter(input));
    const b = await collectChapter(ai.streamChapter({ ...input, seed: input.seed + 1 }));
    expect(a.result.text).not.toBe(b.result.text);
  });

  it('reading level changes average sentence length and vocabulary', async () => {
    let low = 0;
    let high = 0;
    let higherCount = 0;
    const sample = cases.slice(0, 200);
    for (const input of sample) {
      const a = await collectChapter(ai.streamChapter({ ...input, readingLevel: 2 }));
      const b = await collectChapter(ai.streamChapter({ ...input, readingLevel: 11 }));
      const la = avgSentenceLength(a.result.text);
      const lb = avgSentenceLength(b.result.text);
      low += la;
      high += lb;
      if (lb > la) higherCount++;
    }
    expect(high / sample.length).toBeGreaterThan((low / sample.length) * 1.4);
    expect(higherCount / sample.length).toBeGreaterThan(0.9);
  });
});

describe('offline stories: 30 consecutive chapters', () => {
  /** Plays 30 chapters as the app does: a mission's age and the missions completed come from what was stored. */
  async function playStory(seed: number, level: number, results: ChapterResult[] = []): Promise<string[]> {
    const rng = new Rng(seed);
    const base = chapterInput(rng, { readingLevel: level });
    let mission = base.mission;
    let missionStarted = 1;
    let missionsCompleted = 0;
    let setting: string | null = null;
    let summary = '';
    const chapters: PastChapter[] = [];
    let action: string | null = null;
    let stats = { ...base.character.stats };
    const texts: string[] = [];
    const cast = new Set<string>();
    for (let n = 1; n <= 30; n++) {
      const recent = chapters.slice(-3);
      if (chapters.length > 3 && n % 3 === 0) summary = (await ai.summarize({ previousSummary: summary, chapters: chapters.slice(-6, -3) })).summary;
      const { result } = await collectChapter(
        ai.streamChapter({
          ...base,
          character: { ...base.character, stats },
          mission,
          setting,
          summary,
          recentChapters: recent,
          chapterNumber: n,
          action,
          seed: base.seed,
          ...(mission ? { missionAge: n - missionStarted } : {}),
          missionsCompleted,
          // The people met so far, as the engine lists them from the story's cards.
          castList: [...cast].map((name) => ({ name, role: null })),
        }),
      );
      for (const m of result.cast) cast.add(m.name);
      texts.push(result.text);
      results.push(result);
      chapters.push({ text: result.text, playerChoice: action });
      if (result.missionCompleted && mission) missionsCompleted++;
      if (result.newMission) {
        mission = result.newMission;
        missionStarted = n;
      }
      if (result.newSetting) setting = result.newSetting;
      stats = Object.fromEntries(Object.entries(stats).map(([k, v]) => [k, v + (result.statIncreases[k as StatName] ?? 0)])) as typeof stats;
      // A player who takes up the mission once it has run a few chapters (a mission ends only by an
      // outcome that concerns it: issue 32).
      action = n % 4 === 0 ? rng.pick(SAMPLE_ACTIONS) : mission && n - missionStarted >= 3 ? (result.choices[0] as string) : rng.pick(result.choices);
    }
    return texts;
  }

  it.each([
    [1, 2],
    [2, 7],
    [3, 12],
    [4, 5],
    [5, 10],
    [6, 1],
  ])('story %i at reading level %i repeats no sentence verbatim', async (seed, level) => {
    const texts = await playStory(seed * 7919, level);
    const seen = new Map<string, number>();
    texts.forEach((t, i) => {
      for (const s of splitSentences(t.replace(/\n+/g, ' '))) {
        const key = s.trim();
        if (seen.has(key)) throw new Error(`chapter ${i + 1} repeats a sentence from chapter ${(seen.get(key) ?? 0) + 1}: "${key}"`);
        seen.set(key, i);
      }
    });
    expect(seen.size).toBeGreaterThan(30 * 8);
  });

  it.each([11, 12, 13])(
    'missions chain into arcs: the stakes rise, every third mission is a climax that meets the goal and names the next (story %i)',
    async (seed) => {
      const results: ChapterResult[] = [];
      const texts = await playStory(seed * 104729, 8, results);
      const done = results.map((r, i) => (r.missionCompleted ? i : -1)).filter((i) => i >= 0);
      expect(done.length).toBeGreaterThanOrEqual(3); // 3–8 chapters a mission: at least one arc in 30 chapters
      const climax = texts[done[2] as number] as string;
      const goal = /(?:had|have) found a way to ([^.;]+)[.;]/.exec(climax)?.[1];
      expect(goal).toBeTruthy();
      // The goal was named before (at the start, and as missions led toward it), and the next one is given.
      expect(texts.slice(0, done[2]).filter((t) => t.includes(goal!)).length).toBeGreaterThanOrEqual(2);
      expect(climax).toMatch(/now \w+ (?:had|have) to |the next task (?:was|is) plain: to /);
      // Missions completed before the climax did not end the arc.
      for (const i of done.slice(0, 2)) expect(texts[i]).not.toMatch(/(?:had|have) found a way to /);
    },
  );

  it('a continued chapter goes on in the same scene: someone already there does not arrive again', async () => {
    const arrivals =
      /\b(\w+) (?:was waiting|stepped out|called out to|called \w+'s name)|(?:met|ran into|crossed paths with|spotted|noticed|caught sight of) (\w+)|it was (\w+)/g;
    let sameScene = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const rng = new Rng(seed * 31);
      const input = chapterInput(rng, { chapterNumber: 4 });
      const first = (await collectChapter(ai.streamChapter(input))).result.text;
      const more = (await collectChapter(ai.streamChapter({ ...input, continueFrom: first }))).result.text;
      const names = new Set([...first.matchAll(/\b[A-Z][a-z]{2,}\b/g)].map((m) => m[0]));
      for (const m of more.matchAll(arrivals)) {
        const who = m[1] ?? m[2] ?? m[3];
        if (who && names.has(who) && who !== input.character.name.split(' ')[0]) throw new Error(`seed ${seed}: ${who} arrives again: "${m[0]}"`);
      }
      if ([...names].some((n) => more.includes(`${n} spoke`) || more.includes(`${n} was still`) || more.includes(`to ${n}`))) sameScene++;
    }
    expect(sameScene).toBeGreaterThan(5);
  });

  it('continues from the previous chapter: people met there come back', async () => {
    const texts = await playStory(42, 8);
    let carried = 0;
    for (let i = 1; i < texts.length; i++) {
      const names = new Set((texts[i - 1] as string).match(/\b[A-Z][a-z]{2,}\b/g) ?? []);
      const opening = (texts[i] as string).split('\n\n')[0] as string;
      if ([...names].some((n) => opening.includes(n) && !['The', 'Then', 'Now', 'Later'].includes(n))) carried++;
    }
    expect(carried).toBeGreaterThan(15);
  });
});

describe('offline worlds: names are what they are', () => {
  it('in every featured world, places, factions and the world itself never act as people (30 chapters each)', async () => {
    const asPerson = (n: string) => {
      const e = n.replace(/^the\s+/i, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return new RegExp(
        `\\b${e}(?:, (?:a|an) [a-z]|['’]s (?:voice|smile|eyes)| (?:said|says|had said|waited|was waiting|nodded|shrugged|frowned))|what ${e} had said|\\b(?:ask|asked|thanked|trust) ${e}\\b`,
      );
    };
    const offenders: string[] = [];
    for (const w of FEATURED_WORLDS) {
      const model = readWorld(w.description);
      const notPeople = [w.name, ...w.name.split(/\s+/).filter((x) => x.length > 3 && /^[A-Z]/.test(x)), ...model.places, ...model.factions];
      for (const person of model.people) {
        if (notPeople.some((n) => n.toLowerCase() === person.toLowerCase())) offenders.push(`${w.name}: ${person} is a person`);
      }
      let recent: PastChapter[] = [];
      let mission: string | null = null;
      for (let n = 1; n <= 30; n++) {
        const input: ChapterInput = {
          worldDescription: w.description,
          character: { name: 'Ayla Storm', description: 'A cartographer.', stats: {}, traits: ['curious', 'kind'], special: null },
          mission,
          summary: '',
          recentChapters: recent,
          chapterNumber: n,
          action: n === 1 ? null : 'Look around and ask who is in charge',
          readingLevel: 8,
          seed: n * 7,
          maxContextTokens: 2048,
        };
        const { result } = await collectChapter(ai.streamChapter(input));
        for (const name of notPeople) if (asPerson(name).test(result.text)) offenders.push(`${w.name} ch${n}: ${name} acts as a person`);
        recent = [{ text: result.text, playerChoice: input.action }];
        mission = result.missionCompleted ? result.newMission : (mission ?? result.newMission);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('typed actions: what the outcome is about', () => {
  it.each([
    ['Stand their ground against a young wyvern', 'the young wyvern'],
    ['I search the ruins, step by step', 'the ruins'],
    ['Wipe my hands on the old cloak', 'the old cloak'],
    ['Hide my face', 'their face'],
    ['Wait quietly', null],
  ])('"%s" is about %s', (action, object) => {
    expect(normaliseAction(action).object).toBe(object);
  });
});

describe('offline worlds', () => {
  const samples: Array<[string, string]> = [
    ['Elves and dwarves guard the last dragon eggs in a kingdom of wizards and ancient magic.', 'highFantasy'],
    ['A grim land of plague and curses where the undead rise and the necromancer tyrant feeds on blood.', 'darkFantasy'],
    ['A research colony on Mars where the lab android and the reactor scientists run a terraform experiment.', 'sciFi'],
    ['The galactic empire sends its fleet through hyperspace while the rebellion hides in a nebula.', 'spaceOpera'],
    ['Neon megacity run by a megacorp; netrunner hackers sell chrome implants in cyberspace.', 'cyberpunk'],
    ['A haunted asylum where a cult whispers to something eldritch in the fog; pure horror and dread.', 'horror'],
    ['After the bombs, survivors scavenge the wasteland ruins, dodging raiders, radiation and mutants.', 'postApocalyptic'],
    ['A frontier town with a saloon, a sheriff, outlaws on horseback and a railroad through the canyon.', 'western'],
    ['A detective investigates a murder in a rain-soaked city of mob bosses, corrupt police and a speakeasy.', 'noir'],
    ['Pirates sail the archipelago hunting treasure, dodging the navy galleon and the kraken of the reef.', 'pirate'],
    ['Brass airships and clockwork automatons fill the Victorian sky; inventors race in the steam foundry.', 'steampunk'],
    ['The gods of Olympus send a demigod hero to consult the oracle before the titans wake; myth and fate.', 'mythic'],
    ['A modern city: a barista, a startup office, the subway, a band playing downtown and phones buzzing.', 'urban'],
  ];
  it.each(samples)('detects the genre of "%s"', (text, id) => {
    expect(detectGenre(text).genre.id).toBe(id);
  });
  it('covers every genre in the table', () => {
    expect(new Set(samples.map((s) => s[1]))).toEqual(new Set(GENRES.map((g) => g.id)));
  });

  it('reads proper nouns and reuses them', async () => {
    const text = 'In the drowned city of Varnholt, Queen Maelis bargains with the Order of the Tide while pirates circle the reef.';
    const w = readWorld(text);
    expect(w.places).toContain('Varnholt');
    expect(w.people).toContain('Queen Maelis');
    expect(w.factions.some((f) => f.includes('Order of the Tide'))).toBe(true);
    const rng = new Rng(5);
    let mentions = 0;
    for (let n = 1; n <= 10; n++) {
      const { result } = await collectChapter(ai.streamChapter(chapterInput(rng, { worldDescription: text, chapterNumber: n })));
      if (/Varnholt|Maelis|Order of the Tide/.test(result.text + result.choices.join(' '))) mentions++;
    }
    expect(mentions).toBeGreaterThanOrEqual(5);
  });

  it('two different worlds read differently', async () => {
    const rng = new Rng(77);
    const character = randomCharacter(rng);
    const base = chapterInput(rng, {
      character,
      action: 'Search the room',
      chapterNumber: 5,
      readingLevel: 8,
      recentChapters: [{ text: 'The rain had stopped by the time the door opened.', playerChoice: 'Wait' }],
    });
    const a = await collectChapter(ai.streamChapter({ ...base, worldDescription: samples[0]?.[0] as string }));
    const b = await collectChapter(ai.streamChapter({ ...base, worldDescription: samples[4]?.[0] as string }));
    const words = (t: string) => new Set(t.toLowerCase().match(/[a-z']{4,}/g) ?? []);
    const wa = words(a.result.text);
    const wb = words(b.result.text);
    const shared = [...wa].filter((w) => wb.has(w)).length;
    expect(shared / Math.min(wa.size, wb.size)).toBeLessThan(0.6);
    const sa = new Set(splitSentences(a.result.text));
    expect(splitSentences(b.result.text).filter((s) => sa.has(s))).toEqual([]);
  });

  it('world descriptions honour maxLength, keep the idea and are deterministic', async () => {
    for (const max of [200, 500, 1200]) {
      const r = await ai.generateWorldDescription({ idea: 'Sky pirates led by Captain Ysolde raid brass airships over Cogmarsh', maxLength: max });
      expect(r.description.length).toBeLessThanOrEqual(max);
      expect(r.description).toContain('Ysolde');
      expect(await ai.generateWorldDescription({ idea: 'Sky pirates led by Captain Ysolde raid brass airships over Cogmarsh', maxLength: max })).toEqual(r);
    }
    const empty = await ai.generateWorldDescription({ idea: '' });
    expect(empty.description.length).toBeGreaterThan(100);
  });

  it('questions: 3–5 per world, genre-aware', async () => {
    for (const [text] of samples) {
      const q = await ai.generateWorldQuestions({ worldDescription: text });
      expect(worldQuestionsSchema.safeParse(q).success).toBe(true);
    }
    const q = await ai.generateWorldQuestions({ worldDescription: samples[9]?.[0] as string });
    expect(q.questions.join(' ')).toMatch(/navy|kraken|crew|ship|treasure|map|doubloon|logbook|spyglass|silver|sea-luck|Brethren|Company|marque|rum/i);
  });
});

describe('offline characters', () => {
  it('weave the answers into the portrait, in the third person, never quoting the questions and answers back', async () => {
    const c = await ai.generateCharacter({
      worldDescription: FEATURED_WORLDS[0]!.description,
      questions: ['Who do you carry with you?', 'What weapon do you trust?'],
      answers: ['My sister, lost at sea.', 'I carry my father’s old sword'],
      username: 'Isla Crane',
      seed: 5,
    });
    expect(c.description).not.toMatch(/Asked|answered:|[“”]/);
    expect(c.description).toContain('their sister, lost at sea');
    expect(c.description).toContain('they carry their father’s old sword');
  });

  const world = 'Elves and dwarves guard the last dragon eggs in the kingdom of Eldmere, a realm of wizards.';
  it('stats follow the answers', async () => {
    const scholar = await ai.generateCharacter({
      worldDescription: world,
      questions: ['What do you do?', 'What do you love?'],
      answers: ['I study old books and research the history of every map I can read', 'Puzzles, chess and learning, I am clever and curious'],
      username: 'Ilse',
    });
    const fighter = await ai.generateCharacter({
      worldDescription: world,
      questions: ['What do you do?', 'What do you love?'],
      answers: ['I fight with sword and shield, a soldier who guards the gate', 'Battle and wrestling; I am strong and I protect my friends'],
      username: 'Brann',
    });
    const top = (s: Record<string, number>) => Object.entries(s).sort((a, b) => b[1] - a[1])[0]?.[0];
    expect(top(scholar.stats)).toBe('intellect');
    expect(top(fighter.stats)).toBe('strength');
    expect(scholar.traits.map((t) => t.toLowerCase())).toEqual(expect.arrayContaining(['clever', 'curious']));
    for (const c of [scholar, fighter]) {
      expect(characterSchema.safeParse(c).success).toBe(true);
      expect(c.description.split('\n\n').length).toBeGreaterThanOrEqual(2);
      expect(c.description).toContain(c.username);
      expect(c.description).toContain('Eldmere');
    }
  });

  it('works from the player profile and stays schema-valid over random inputs', async () => {
    const fromProfile = await ai.generateCharacter({
      worldDescription: world,
      profile: { skills: 'Cooking, negotiating with suppliers', personalityTraits: 'Cheerful, stubborn', freeTime: 'Singing in a choir', pastTimes: 'Sailing' },
      username: 'Petra',
    });
    expect(fromProfile.username).toBe('Petra');
    expect(fromProfile.stats.charisma).toBeGreaterThanOrEqual(10);
    const rng = new Rng(9);
    for (let i = 0; i < 100; i++) {
      const w = randomWorld(rng);
      const c = await ai.generateCharacter({
        worldDescription: w.description,
        questions: ['Who are you?'],
        answers: [rng.pick(SAMPLE_ACTIONS)],
        username: `Player${i}`,
      });
      expect(characterSchema.safeParse(c).success).toBe(true);
    }
  });
});

describe('offline missions, styles, summaries, images, cancellation', () => {
  it('missions are new each time and fit the world', async () => {
    const w = 'Pirates sail the archipelago hunting treasure near Tortuga.';
    const a = await ai.generateMission({ worldDescription: w, character: { name: 'Mara' } });
    const b = await ai.generateMission({ worldDescription: w, character: { name: 'Mara' }, previousMission: a.objective });
    expect(a.objective).not.toBe(b.objective);
    expect(a.objective.length).toBeGreaterThan(5);
  });

  it('styles fit the setting and pass the style guard untouched', async () => {
    const forest = await ai.generateStyles({ settingDescription: 'A deep elven forest of moss and ancient groves.' });
    const desert = await ai.generateStyles({ settingDescription: 'A sun-scorched desert of dunes and red mesas.' });
    expect(sanitizeStylesWithReport(forest).rejected).toEqual([]);
    expect(forest.containerBackground).not.toBe(desert.containerBackground);
    const g = parseInt(forest.buttonBackground.slice(3, 5), 16);
    const r = parseInt(forest.buttonBackground.slice(1, 3), 16);
    expect(g).toBeGreaterThan(r);
  });

  it('summaries roll: bounded, and they keep the newest events', async () => {
    let summary = '';
    for (let i = 0; i < 20; i++) {
      summary = (
        await ai.summarize({
          previousSummary: summary,
          chapters: [{ text: `Chapter ${i}: Mara met Quellan ${i} at the mission gate. It rained.`, playerChoice: `Go to gate ${i}` }],
          maxTokens: 150,
        })
      ).summary;
    }
    expect(summary.length).toBeLessThanOrEqual(600);
    expect(summary).toContain('gate 19');
    expect(summary).not.toContain('gate 0.');
  });

  it('images are real JPEGs, 1024×576, under 200 KB, deterministic, coloured by genre', async () => {
    const a = await ai.generateWorldImage({ worldDescription: 'Neon megacity of netrunners and chrome implants', seed: 1 });
    const b = await ai.generateWorldImage({ worldDescription: 'A frontier town with a saloon, outlaws and red mesas', seed: 1 });
    for (const img of [a, b]) {
      expect(img.mime).toBe('image/jpeg');
      expect(img.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(img.bytes.length).toBeLessThan(200 * 1024);
      const meta = await sharp(img.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([1024, 576]);
    }
    const again = await ai.generateWorldImage({ worldDescription: 'Neon megacity of netrunners and chrome implants', seed: 1 });
    expect(again.bytes.equals(a.bytes)).toBe(true);
    const sa = await sharp(a.bytes).stats();
    const sb = await sharp(b.bytes).stats();
    // The western is warm (red over blue); the cyberpunk night is dark.
    expect(sb.channels[0]?.mean ?? 0).toBeGreaterThan(sb.channels[2]?.mean ?? 0);
    expect(sa.channels[0]?.mean ?? 0).toBeLessThan(sb.channels[0]?.mean ?? 0);
  });

  it('streams the first chunk before the chapter ends, and honours an aborted signal', async () => {
    const input = chapterInput(new Rng(3));
    const events: string[] = [];
    for await (const ev of ai.streamChapter(input)) events.push(ev.type);
    expect(events[0]).toBe('delta');
    expect(events.filter((e) => e === 'delta').length).toBeGreaterThan(5);
    expect(events[events.length - 1]).toBe('final');

    const ctl = new AbortController();
    ctl.abort();
    await expect(collectChapter(ai.streamChapter(input, { signal: ctl.signal }))).rejects.toBeInstanceOf(AppError);
  });
});

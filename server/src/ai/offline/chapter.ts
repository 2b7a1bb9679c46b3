/**
 * The offline chapter writer. A chapter is built paragraph by paragraph from sentence families
 * (chapter-templates.ts): it picks up the thread of the previous chapter, acts out the player's
 * action (its kind decides what happens), brings in someone from the world, moves the mission along
 * (sometimes completing it and proposing the next), and ends on a hook with 3–4 choices.
 */
import { STAT_MAX, type ChapterInput, type ChapterResult, type StatName } from '../story-ai';
import * as T from './chapter-templates';
import type { Genre } from './genres';
import { Rng, affinePermutation, mixSeed } from './prng';
import { finishSentence, lowerFirst, normaliseAction, render, upperFirst, wordCount, type ActionKind, type Slots } from './text';
import { inventPlace, readWorld, shortName, type WorldModel } from './world-model';
import { describeSetting } from './setting';
import { ARC_MISSIONS, STAKES, arcOf, climaxLines, openingArcLine, stepDoneLine } from './arc';
import { checkFailed, stakesLines, stakesRecord } from './stakes';

const KIND_STAT: Record<ActionKind, StatName> = {
  combat: 'strength',
  social: 'charisma',
  investigate: 'intellect',
  stealth: 'agility',
  travel: 'endurance',
  rest: 'wisdom',
  craft: 'intellect',
  bold: 'charisma',
};
/** How a stat gain reads; the wording turns with the chapter number, so none recurs chapter after chapter. */
const STAT_ADJ: Record<StatName, readonly string[]> = {
  strength: ['stronger', 'harder to knock down', 'stronger in the arm'],
  agility: ['quicker', 'lighter on {their} feet', 'faster of hand'],
  endurance: ['tougher', 'harder to wear down', 'steadier under strain'],
  intellect: ['sharper', 'quicker to see the pattern', 'clearer of thought'],
  wisdom: ['wiser', 'slower to be fooled', 'better at reading a room'],
  charisma: ['surer of {their} voice', 'more at ease with strangers', 'better at winning people over', 'bolder in company'],
};

export interface OfflineChapter {
  result: ChapterResult;
  /** Paragraphs in order; the stream yields their sentences as chunks. */
  paragraphs: string[][];
}

interface Ctx {
  input: ChapterInput;
  world: WorldModel;
  genre: Genre;
  rng: Rng;
  level: number;
  storyKey: number;
  slots: Slots;
  /** Families already used in this chapter: each may appear once (the no-repeat guarantee). */
  used: Set<string>;
}

/** Picks this chapter's variant of a family (see chapter-templates.ts for why it is scheduled). */
function fromFamily(ctx: Ctx, name: string, fam: T.Family, extra: Slots = {}): string {
  if (ctx.used.has(name)) throw new Error(`sentence family ${name} used twice in one chapter`);
  ctx.used.add(name);
  const n = fam.cores.length * fam.mods.length;
  const idx = affinePermutation(mixSeed(ctx.storyKey, name), n)(ctx.input.chapterNumber);
  const core = fam.cores[idx % fam.cores.length] as string;
  const mod = fam.mods[Math.floor(idx / fam.cores.length)] as string;
  // Core and modifier render apart (each is a whole template: its tiers and slots never span the
  // join), so each is looked up in the compiled-template cache as the constant it is.
  const r = (t: string) => render(t, ctx.slots, ctx.level, extra);
  return finishSentence(fam.pos === 'pre' ? `${r(mod)} ${r(core)}` : `${r(core)}${r(mod)}`);
}

function article(phrase: string): string {
  return /^(the|a|an|[A-Z])/.test(phrase) ? phrase : `the ${phrase}`;
}

/** Player-written strings (name, mission, traits…) go into prose: strip markup and template syntax. */
function scrub(s: string): string {
  return s
    .replace(/[<>{}[\]\\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of the world's names and the hero's: they keep their capital inside a sentence. */
const worldNames = new WeakMap<WorldModel, Map<string, ReadonlySet<string>>>();
function namesOf(world: WorldModel, name: string): ReadonlySet<string> {
  let byName = worldNames.get(world);
  if (!byName) worldNames.set(world, (byName = new Map()));
  let set = byName.get(name);
  if (!set) {
    set = new Set([...world.people.flatMap((p) => p.split(/\s+/)), ...world.places.flatMap((p) => p.split(/\s+/)), name]);
    // A world's cast is small; a bound keeps a flood of renamed heroes from growing it without end.
    if (byName.size >= 64) byName.clear();
    byName.set(name, set);
  }
  return set;
}

/**
 * Writes a chapter. Split in stages (sanitise, set up, decide, compose) rather than one long
 * function: V8 compiles each apart, and one function of all of it took its optimizing compiler a
 * third of a second per (re)compilation on a background core (seen under the story bench's load).
 */
export function writeChapter(raw: ChapterInput, level: number): OfflineChapter {
  const input = sanitise(raw);
  const s = setUp(input, level);
  const plan = decide(s);
  const [p1, p2, p3, p4] = compose(s, plan, level);
  const { rng, nameSet, ctx, action, hasAction, mission } = s;
  const { missionCompleted, newMission, newSetting, newPlace, statIncreases } = plan;
  let paragraphs = [p1, p2, p3, p4].filter((p) => p.length > 0);
  // 2–4 paragraphs: a short closing hook joins the paragraph before it.
  if (paragraphs.length === 4 && p4.length === 1 && rng.chance(0.5)) paragraphs = [p1, p2, [...p3, ...p4]];
  if (level >= 7) paragraphs = paragraphs.map((p) => joinForLevel(p, level, rng, nameSet));

  const text = paragraphs.map((p) => p.join(' ')).join('\n\n');
  const choices = makeChoices(ctx, action.kind, hasAction, newSetting ? newPlace : null, missionCompleted ? newMission : mission);
  return {
    paragraphs,
    result: {
      text,
      choices,
      statIncreases,
      newSetting,
      missionCompleted,
      newMission,
      cast: castOf(s, text),
      memories: [],
      itemsGained: plan.record.itemsGained,
      itemsLost: plan.record.itemsLost,
      healthRestored: plan.record.healthRestored,
      // Offline, the engine's rules judge every action.
      choiceChecks: [],
    },
  };
}

/**
 * Who the chapter shows besides the hero: the chapter's named person when the prose names them. A
 * person with a story card keeps their card's description (null: unchanged); a new one is described
 * by their role, and where they were last seen is their status.
 */
function castOf(s: Setup, text: string): ChapterResult['cast'] {
  if (!new RegExp(`\\b${escapeRegExp(s.npc)}\\b`).test(text)) return [];
  const role = s.role.replace(/^(a|an|the)\s+/i, '');
  return [
    {
      name: s.npcFull,
      role,
      description: s.npcCard ? null : `${upperFirst(s.role)}, first met near ${s.place}.`,
      status: `last seen near ${s.place}`,
    },
  ];
}

/** Ways the hero recalls a plot essential, one per chapter that recalls one (by chapter number). */
const RECALL = [
  (name: string) => `${name} kept one thing in mind: `,
  (name: string) => `One fact never left ${name}'s thoughts: `,
  (name: string) => `Whatever came next, ${name} knew this much: `,
  (name: string) => `${name} reminded themself of what mattered most: `,
];

/**
 * The player's plot essentials in the offline story: every third chapter the hero recalls one of
 * its facts (in turn), in the player's own words — scrubbed of markup, one sentence, at most 200
 * characters. The storyteller cannot reason about a fact, but it keeps it in the story.
 */
function essentialFor(input: ChapterInput): string | null {
  if (!input.plotEssentials?.trim() || input.chapterNumber % 3 !== 0) return null;
  const facts = input.plotEssentials
    .split(/(?<=[.!?])\s+|\n+/)
    .map((f) => scrub(f).replace(/^[-*•\s]+/, ''))
    .filter((f) => f.length >= 8 && f.length <= 200);
  if (facts.length === 0) return null;
  const turn = Math.floor(input.chapterNumber / 3);
  const fact = facts[turn % facts.length] as string;
  const name = shortName(input.character.name.trim() || 'The traveller');
  return finishSentence(`${(RECALL[turn % RECALL.length] as (n: string) => string)(name)}${fact.replace(/[.!?]+$/, '')}`);
}

function withArticle(role: string): string {
  return /^(the|a|an)\s/i.test(role) ? role : `the ${role}`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Setup = ReturnType<typeof setUp>;
type Plan = ReturnType<typeof decide>;

/** The input with every player-written string scrubbed for prose and the chapter number made whole. */
function sanitise(raw: ChapterInput): ChapterInput {
  return {
    ...raw,
    mission: raw.mission ? scrub(raw.mission) || null : null,
    setting: raw.setting ? scrub(raw.setting) : null,
    character: {
      ...raw.character,
      name: scrub(raw.character.name).slice(0, 60),
      traits: raw.character.traits.map(scrub).filter(Boolean),
      special: raw.character.special ? { name: scrub(raw.character.special.name), description: scrub(raw.character.special.description) } : null,
    },
    chapterNumber: Number.isFinite(raw.chapterNumber) ? Math.max(1, Math.floor(raw.chapterNumber)) : 1,
  };
}

/** The chapter's cast, places and slots, and the scheduling context (rng calls in a fixed order). */
function setUp(input: ChapterInput, level: number) {
  const world = readWorld(input.worldDescription);
  const genre = world.genre;
  const charName = input.character.name.trim() || 'The traveller';
  const name = shortName(charName);
  // The schedule key must be stable for the whole story, whatever seed the caller passes per chapter.
  const storyKey = mixSeed(world.key, charName);
  const rng = new Rng(mixSeed(input.seed, input.chapterNumber, input.action ?? '', storyKey));
  const action = normaliseAction(input.action ?? '');
  const hasAction = Boolean(input.action && input.action.trim());
  const isOpening = input.recentChapters.length === 0 && input.summary.trim() === '';

  // Cast for this chapter: keep someone from the previous chapter around half the time.
  const prevText = input.recentChapters[input.recentChapters.length - 1]?.text ?? input.summary;
  // People the story cards know (the player's and those earlier chapters reported) recur, with the
  // role their card gives them; a story without cards draws from the world's names alone.
  const cardPeople = [...(input.storyCards ?? []).filter((c) => c.kind === 'character'), ...(input.castList ?? [])].filter(
    (c, i, all) => shortName(c.name) !== name && !world.places.includes(c.name) && all.findIndex((o) => o.name === c.name) === i,
  );
  const people = cardPeople.length > 0 ? [...new Set([...cardPeople.map((c) => c.name), ...world.people])] : world.people;
  const knownInPrev = people.filter((p) => shortName(p) !== name && prevText.includes(shortName(p)));
  const fromCards = knownInPrev.length === 0 && cardPeople.length > 0 && rng.chance(0.5);
  const npcFull = fromCards
    ? rng.pick(cardPeople).name
    : knownInPrev.length > 0 && rng.chance(0.5)
      ? rng.pick(knownInPrev)
      : rng.pick(people.filter((p) => shortName(p) !== name));
  const npc = shortName(npcFull);
  const introduced = prevText.includes(npc);
  // A continued chapter goes on in the same scene: someone named in it is still there.
  const sameScene = Boolean(input.continueFrom) && introduced;
  const npcCard = cardPeople.find((c) => c.name === npcFull);
  const drawnRole = rng.pick(genre.allies);
  const role = npcCard?.role ? withArticle(npcCard.role) : drawnRole;
  const passerBy = rng.pick(genre.allies.filter((a) => a !== role));
  const settingPlace = input.setting ? firstProperNoun(input.setting) : null;
  const place = settingPlace ?? rng.pick(genre.places);
  const placeName = rng.pick(world.places.filter((p) => p !== settingPlace)) ?? rng.pick(world.places);
  const worldPlace = world.places[0] as string;
  const threat = rng.pick(genre.threats);
  const traits = input.character.traits.length > 0 ? input.character.traits.map((t) => t.toLowerCase()) : ['determined', 'curious'];
  const trait = rng.pick(traits);
  const trait2 = rng.pick(traits.filter((t) => t !== trait).concat(traits.length === 1 ? ['stubborn'] : []));
  const special = input.character.special?.name ? input.character.special.name : `${upperFirst(genre.power)}`;
  const nameSet = namesOf(world, name);
  const mission = input.mission?.trim() ? lowerFirst(input.mission.trim().replace(/[.!?]+$/, ''), nameSet) : null;
  // Sky and senses rotate through the genre's pools in a story-keyed order, two senses a chapter:
  // every phrase comes round evenly instead of one turning up in a third of the chapters by chance.
  const turn = (pool: readonly string[], label: string, i: number) => pool[affinePermutation(mixSeed(storyKey, label), pool.length)(i % pool.length)] as string;
  const sensory = turn(genre.sensory, 'sensory', 2 * input.chapterNumber);
  const sensory2 = turn(genre.sensory, 'sensory', 2 * input.chapterNumber + 1);

  let prev = 'everything that had happened';
  if (knownInPrev.length > 0) {
    // What the hero carries from the last chapter's person: the wording turns with the chapter.
    const who = shortName(rng.pick(knownInPrev));
    const carried = [`what ${who} had said`, `${who}'s warning`, `the look on ${who}'s face`, `${who}'s parting words`, `the bargain struck with ${who}`];
    prev = carried[input.chapterNumber % carried.length] as string;
  } else if (input.recentChapters.length > 0) {
    const lastChoice = input.recentChapters[input.recentChapters.length - 1]?.playerChoice;
    prev = lastChoice ? `the choice to ${normaliseAction(lastChoice).clause}` : 'the last few hours';
  }

  const slots: Slots = {
    name,
    they: 'they',
    them: 'them',
    their: 'their',
    themself: 'themself',
    place,
    placeCap: upperFirst(place),
    placeName,
    worldPlace,
    npc,
    npcFull: introduced ? npc : `${npcFull}, ${role},`,
    threat,
    threatCap: upperFirst(threat),
    ally: passerBy,
    allyCap: upperFirst(passerBy),
    artifact: rng.pick(genre.artifacts),
    faction: rng.pick(world.factions),
    sky: turn(genre.sky, 'sky', input.chapterNumber),
    sensory,
    sensory2,
    oath: rng.pick(genre.oaths),
    power: genre.power,
    special,
    trait,
    trait2,
    prev,
    action: action.clause,
    object: article(action.object ?? placeName),
    mission: mission ?? 'find a purpose worth the risk',
    newPlaceName: rng.pick(world.places),
  };
  const ctx: Ctx = { input, world, genre, rng, level, storyKey, slots, used: new Set() };
  return {
    // Arcs need the stored count of completed missions; a caller that does not know it gets none.
    arc: input.missionsCompleted === undefined ? null : arcOf(world, storyKey, input.missionsCompleted),
    input,
    world,
    genre,
    rng,
    action,
    hasAction,
    isOpening,
    knownInPrev,
    settingPlace,
    place,
    nameSet,
    mission,
    slots,
    ctx,
    npc,
    npcFull,
    npcCard,
    role,
    sameScene,
  };
}

/** What happens in the chapter, decided before writing so prose and structured result agree. */
function decide(s: Setup) {
  const { input, world, genre, rng, action, hasAction, isOpening, settingPlace, place, mission } = s;
  // A mission needs time and then ends: it can complete once it has run through two earlier
  // chapters, more likely each chapter after, and surely by its eighth. Its age comes from the
  // stored missions (missionAge); without it, from the chapters in the prompt that name it.
  const missionAge = input.missionAge ?? (mission ? input.recentChapters.filter((c) => c.text.toLowerCase().includes(mission.toLowerCase())).length : 0);
  const onTarget = hasAction && mission !== null && action.keywords.some((k) => mission.includes(k));
  // The engine's check decides (issue 31): a failed action never completes the mission.
  const failed = checkFailed(input);
  const missionCompleted =
    mission !== null &&
    missionAge >= 2 &&
    (missionAge >= 7 || rng.chance(Math.min(0.9, (onTarget ? 0.45 : 0.25) + (missionAge - 2) * 0.1))) &&
    !failed &&
    !input.defeat;
  let newMission: string | null = null;
  if (missionCompleted || mission === null) newMission = nextMission(world, rng, input.mission);
  const moves = !isOpening && (action.kind === 'travel' ? rng.chance(0.6) : rng.chance(0.15));
  let newSetting: string | null = null;
  let newPlace = '';
  if (moves) {
    const candidates = world.places.filter((p) => p !== settingPlace && p !== place);
    newPlace = candidates.length > 0 && rng.chance(0.7) ? rng.pick(candidates) : inventPlace(genre, rng.fork('place'));
    newSetting = describeSetting(genre, newPlace, rng.fork('setting'));
  }
  const statIncreases: Partial<Record<StatName, number>> = {};
  const current = (s: StatName) => input.character.stats[s] ?? 10;
  const grow = (s: StatName, by: number) => {
    const room = STAT_MAX - current(s) - (statIncreases[s] ?? 0);
    if (room > 0) statIncreases[s] = (statIncreases[s] ?? 0) + Math.min(by, room);
  };
  const lucky = hasAction && rng.chance(0.45);
  const check = input.check;
  if (input.difficulty === undefined) {
    if (lucky) grow(KIND_STAT[action.kind], 1);
  } else if (check && !failed && check.difficulty > current(check.stat)) {
    // With the engine's stakes, the stat of a check won against a harder difficulty grows (its rule).
    grow(check.stat, 1);
  }
  // The arc's climax (its last mission done) is worth more than a step along the way.
  const climax = missionCompleted && s.arc?.step === ARC_MISSIONS - 1;
  if (missionCompleted) grow(rng.pick(['wisdom', 'endurance', 'charisma'] as const), climax || rng.chance(0.3) ? 2 : 1);
  const grown = Object.keys(statIncreases) as StatName[];
  return { missionCompleted, climax, newMission, newSetting, newPlace, statIncreases, grown, failed, record: stakesRecord(input) };
}

/** The chapter's sentences by paragraph: the events, then texture up to its target length. */
function compose(s: Setup, plan: Plan, level: number): [string[], string[], string[], string[]] {
  const { rng, slots, action, hasAction, isOpening, knownInPrev, nameSet, mission, ctx, arc } = s;
  const { missionCompleted, climax, newMission, newSetting, newPlace, grown, failed, record } = plan;
  const p1: string[] = [];
  const p2: string[] = [];
  const p3: string[] = [];
  const p4: string[] = [];
  if (isOpening) {
    const pickO = (list: string[]) => finishSentence(render(rng.pick(list), slots, level));
    p1.push(pickO(T.OPENING.scene), pickO(T.OPENING.who), pickO(T.OPENING.gift));
    ctx.used.add('sky'); // the opening scene already paints the sky
    p1.push(mission ? pickO(T.OPENING.mission) : pickO(T.OPENING.noMission));
    if (mission && arc?.arc === 0 && arc.step === 0) p1.push(finishSentence(openingArcLine(arc, ctx.storyKey, slots, level)));
    if (hasAction) p1.push(fromFamily(ctx, 'action', T.ACTION));
  } else {
    p1.push(fromFamily(ctx, 'continue', T.CONTINUE));
    if (rng.chance(0.5)) p1.push(fromFamily(ctx, 'sky', T.SKY));
    p1.push(fromFamily(ctx, 'action', T.ACTION));
  }
  const stakes = stakesLines(s.input, { name: slots.name ?? '', they: 'they', them: 'them', their: 'their' }).map(finishSentence);
  if (failed) {
    // The check failed: the chapter's lines about how the action went would tell it working.
    ctx.used.add('conseq').add('outcome').add('progress');
  }
  p1.push(...stakes);
  if (record.gainedLine) p1.push(finishSentence(record.gainedLine));
  if (hasAction && !failed) {
    const conseq: T.Family = { pos: 'post', cores: T.CONSEQ_CORES[action.kind], mods: T.CONSEQ_MODS };
    // The first paragraph comes before this chapter's encounter: only someone already met can be named.
    const earlier = knownInPrev[0] ? shortName(knownInPrev[0]) : 'an old friend';
    p1.push(fromFamily(ctx, 'conseq', conseq, { npc: earlier }));
    if (action.object || rng.chance(0.5)) p1.push(fromFamily(ctx, 'outcome', T.OUTCOME));
  }
  p2.push(fromFamily(ctx, 'encounter', s.sameScene ? T.REJOIN : T.ENCOUNTER));
  p2.push(fromFamily(ctx, 'dialogue', T.DIALOGUE));
  p2.push(fromFamily(ctx, 'reply', T.REPLY));
  if (newSetting) p3.push(fromFamily(ctx, 'setting', T.SETTING, { newPlace }));
  if (climax && arc) {
    // The arc's last mission: its goal is met, and the next arc's goal comes with the next mission.
    p3.push(...climaxLines(arc, slots, level).map(finishSentence));
    p3.push(fromFamily(ctx, 'newMission', T.NEW_MISSION, { newMission: lowerFirst(newMission as string, nameSet) }));
  } else if (missionCompleted) {
    p3.push(fromFamily(ctx, 'complete', T.COMPLETE));
    if (arc) p3.push(finishSentence(stepDoneLine(arc, slots, level)));
    p3.push(fromFamily(ctx, 'newMission', T.NEW_MISSION, { newMission: lowerFirst(newMission as string, nameSet) }));
  } else if (mission) {
    p3.push(fromFamily(ctx, 'mission', T.MISSION));
    // The stakes rise with each mission of the arc.
    if (arc && !isOpening && rng.chance(0.75)) p3.push(fromFamily(ctx, 'stakes', STAKES[arc.step] as T.Family));
    if (hasAction && !failed) p3.push(fromFamily(ctx, 'progress', T.PROGRESS));
  } else {
    p3.push(fromFamily(ctx, 'newMission', T.NEW_MISSION, { newMission: lowerFirst(newMission as string, nameSet) }));
  }
  for (const s of grown.slice(0, 1)) {
    const adj = STAT_ADJ[s][ctx.input.chapterNumber % STAT_ADJ[s].length] as string;
    p3.push(fromFamily(ctx, 'stat', T.STAT, { statAdj: render(adj, slots, level) }));
  }
  const fact = essentialFor(s.input);
  if (fact) p3.push(fact);
  p4.push(fromFamily(ctx, 'hook', T.HOOK));

  // Texture until the chapter reaches its target length (150–400 words; shorter sentences at low
  // reading levels need more of them). Each family still appears at most once.
  const target = 170 + rng.int(level <= 4 ? 60 : 120);
  const textures = rng
    .shuffle<[string, T.Family, string[]]>([
      ['sensory', T.SENSORY, p2],
      ['place', T.PLACE, p2],
      ['inner', T.INNER, p3],
      ['body', T.BODY, p1],
      ['sky', T.SKY, p1],
      ['npcDetail', T.NPC_DETAIL, p2],
      ['memory', T.MEMORY, p3],
    ])
    .filter(([fname]) => !ctx.used.has(fname));
  // Words of the chapter so far, kept as a running total: each sentence is counted once, when it is
  // added (re-counting the whole text after every added sentence was most of this function).
  let words = 0;
  for (const para of [p1, p2, p3, p4]) for (const sentence of para) words += wordCount(sentence);
  const add = (para: string[], sentence: string) => {
    para.push(sentence);
    words += wordCount(sentence);
  };
  const added: Array<[string[], string]> = [];
  for (const [fname, fam, para] of textures) {
    if (words >= target) break;
    const s = fromFamily(ctx, fname, fam);
    add(para, s);
    added.push([para, s]);
  }
  // Reserve families, in order, until the 150-word floor is met (short sentences at low levels).
  if (isOpening) {
    for (const t of T.OPENING.extra) {
      if (words >= 160) break;
      add(p2, finishSentence(render(t, slots, level)));
    }
  }
  const reserve: Array<[string, T.Family, string[]]> = [
    ['plan', T.PLAN, p3],
    ['aside', T.ASIDE, p2],
    ...(hasAction && !ctx.used.has('outcome') ? ([['outcome', T.OUTCOME, p1]] as Array<[string, T.Family, string[]]>) : []),
    ['weather', T.WEATHER, p2],
    ...(!missionCompleted && mission && !ctx.used.has('progress') ? ([['progress', T.PROGRESS, p3]] as Array<[string, T.Family, string[]]>) : []),
  ];
  for (const [fname, fam, para] of reserve) {
    if (words >= 160) break; // a margin over the 150-word floor
    add(para, fromFamily(ctx, fname, fam));
  }
  // Never cut the sentences that carry the action, the mission or the hook: only texture goes.
  while (words > 400 && added.length > 0) {
    const [para, s] = added.pop() as [string[], string];
    para.splice(para.indexOf(s), 1);
    words -= wordCount(s);
  }
  return [p1, p2, p3, p4];
}

/**
 * Adult reading levels join some neighbouring sentences into longer periodic ones. Joining (never
 * splitting) keeps the no-repeat guarantee: a joined sentence contains a sentence that is unique.
 */
function joinForLevel(sentences: string[], level: number, rng: Rng, names: ReadonlySet<string>): string[] {
  // Longer periods as the level rises: 7 → a few joins, 12 → most pairs.
  const p = [0.12, 0.2, 0.35, 0.45, 0.55, 0.65][Math.min(5, Math.max(0, level - 7))] as number;
  const out: string[] = [];
  for (const s of sentences) {
    const last = out[out.length - 1];
    // One join per sentence at most: chains of semicolons read as a run-on, not as style.
    if (last && /\.$/.test(last) && !last.includes(';') && !/[”"]/.test(last) && !/^[“"]/.test(s) && rng.chance(p)) {
      out[out.length - 1] = `${last.slice(0, -1)}; ${lowerFirst(s, names)}`;
    } else out.push(s);
  }
  return out;
}

const LEADING = new Set(['At', 'In', 'On', 'The', 'Beyond', 'Here', 'Few', 'Its', 'A', 'An', 'From', 'Past']);
/** The place a setting text is about: its first capitalised name, without a leading "At"/"The". */
function firstProperNoun(text: string): string | null {
  for (const run of text.match(/[A-Z][\p{L}'’-]+(?:\s+[A-Z][\p{L}'’-]+)*/gu) ?? []) {
    const words = run.split(/\s+/);
    while (words.length > 0 && LEADING.has(words[0] as string)) words.shift();
    if (words.length > 0) return words.join(' ');
  }
  return null;
}

/** A new objective in the world's genre, different from the previous one. */
export function nextMission(world: WorldModel, rng: Rng, previous: string | null | undefined): string {
  const g = world.genre;
  for (let attempt = 0; attempt < 8; attempt++) {
    const t = rng.pick(g.missions);
    const npcName = rng.pick(world.people);
    const m = render(
      t,
      {
        artifact: rng.pick(g.artifacts),
        ally: rng.pick(g.allies),
        place: rng.pick(g.places),
        placeName: rng.pick(world.places),
        threat: rng.pick(g.threats),
        faction: rng.pick(world.factions),
        npc: npcName,
      },
      8,
    );
    if (!previous || m.toLowerCase() !== previous.trim().toLowerCase()) return upperFirst(m);
  }
  return `Follow the trail beyond ${rng.pick(world.places)}`;
}

function makeChoices(ctx: Ctx, kind: ActionKind, hasAction: boolean, newPlace: string | null, mission: string | null): string[] {
  const { rng, slots, level } = ctx;
  const kinds = rng.shuffle((Object.keys(T.CHOICES) as Array<ActionKind | 'mission'>).filter((k) => k !== 'mission' && (!hasAction || k !== kind)));
  const picked: Array<ActionKind | 'mission'> = mission ? ['mission', ...kinds.slice(0, rng.chance(0.5) ? 3 : 2)] : kinds.slice(0, rng.chance(0.5) ? 4 : 3);
  const extra: Slots = { newPlaceName: newPlace ?? (slots.newPlaceName as string), mission: mission ? lowerFirst(mission.replace(/[.!?]+$/, '')) : '' };
  const seen = new Set<string>();
  const out: string[] = [];
  for (const k of picked) {
    for (const t of rng.shuffle(T.CHOICES[k])) {
      const c = upperFirst(render(t, slots, level, extra).replace(/\s+/g, ' ').trim()).slice(0, 160);
      if (!seen.has(c.toLowerCase())) {
        seen.add(c.toLowerCase());
        out.push(c);
        break;
      }
    }
  }
  return out;
}

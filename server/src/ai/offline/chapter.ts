/**
 * The offline chapter writer. A chapter is built paragraph by paragraph from sentence families
 * (chapter-templates.ts): it picks up the thread of the previous chapter, acts out the player's
 * action (its kind decides what happens), brings in someone from the world, moves the mission along
 * (sometimes completing it and proposing the next), and ends on a hook with 3–4 choices.
 */
import { MEMORIES_PER_CHAPTER_MAX, STAT_MAX, type ChapterInput, type ChapterResult, type StatName } from '../story-ai';
import * as T from './chapter-templates';
import type { Genre } from './genres';
import { Rng, affinePermutation, mixSeed, spreadIndices } from './prng';
import { finishSentence, lowerFirst, normaliseAction, render, upperFirst, wordCount, type ActionKind, type NormalisedAction, type Slots } from './text';
import { inventPlace, shortName, TITLES, type WorldModel } from './world-model';
import { groundedWorld, type GroundedWorld } from './grounded';
import { breaksWorld } from '../world-material';
import { describeSetting } from './setting';
import { HERO, narrate } from './narration';
import { answerAction, outcomeOf } from './answer';
import { habitLine, lineFor, lookLine, personaOf } from './people';
import { endingLine, essentialLine, memoryLine, readNote, threadLine, toneLine } from './threads';
import { ARC_MISSIONS, STAKES, arcOf, climaxLines, openingArcLine, stepDoneLine } from './arc';
import { checkFailed, stakesLines, stakesRecord } from './stakes';
import { companionsLine, ownAction, roundParts } from './round';

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
  world: GroundedWorld;
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
  const key = mixSeed(ctx.storyKey, name);
  // Core and modifier render apart (each is a whole template: its tiers and slots never span the
  // join), so each is looked up in the compiled-template cache as the constant it is.
  const r = (t: string) => render(t, ctx.slots, ctx.level, extra);
  let first = '';
  // A variant whose stock words the world rules out (a breeze under the ice) gives way to the next.
  const n = fam.cores.length * fam.mods.length;
  for (let k = 0; k < n; k++) {
    // Core and modifier each cycle fast (prng.ts): neither becomes the story's refrain. Another try
    // is the variant of a turn as far from this chapter's as the family allows (golden-ratio steps):
    // every variant is some chapter's, and a step of 997 (25 in a family of 81) wrote chapter 27's
    // hook in chapter 2.
    const [c, m] = spreadIndices(key, ctx.input.chapterNumber + Math.round(k * n * 0.618034), [fam.cores.length, fam.mods.length]) as [number, number];
    const core = fam.cores[c] as string;
    const mod = fam.mods[m] as string;
    if (T.clashes(core, mod)) continue;
    const out = finishSentence(fam.pos === 'pre' ? `${r(mod)} ${r(core)}` : `${r(core)}${r(mod)}`);
    if (!breaksWorld(out, ctx.world.constraints)) return out;
    if (!first) first = out;
    if (k >= 12) break;
  }
  return first;
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
  const given = sanitise(raw);
  // A party round ("Kael: climbs the bell tower. Tomas: questions the innkeeper."): the hero's part is
  // the action answered; the others are told as what the companions did (round.ts).
  const round = roundParts(given.action, given.character.name);
  const input = round ? { ...given, action: round.hero ?? '' } : given;
  const s = setUp(input, level);
  const plan = decide(s);
  const answerSentences: string[] = [];
  const [p1, p2, p3, p4] = compose(s, plan, level, answerSentences);
  const companions = round ? companionsLine(round.others, s.slots.name as string, round.hero !== null, input.companionChecks ?? []) : null;
  if (companions) p1.push(finishSentence(companions));
  const { rng, nameSet, ctx, action, hasAction, mission } = s;
  const { missionCompleted, newMission, newSetting, newPlace, statIncreases } = plan;
  // Told from the story's point of view: second person present unless the player chose otherwise.
  const pov = input.pointOfView ?? 'second';
  const heroNames = [input.character.name.trim(), s.slots.name as string];
  const told = (p: string[]) => p.map((x) => narrate(x, pov, heroNames));
  let paragraphs = [p1, p2, p3, p4].filter((p) => p.length > 0).map(told);
  // 2–4 paragraphs: a short closing hook joins the paragraph before it.
  if (paragraphs.length === 4 && p4.length === 1 && rng.chance(0.5))
    paragraphs = [paragraphs[0], paragraphs[1], [...(paragraphs[2] as string[]), ...(paragraphs[3] as string[])]] as string[][];
  const keep = pov === 'first' ? new Set([...nameSet, 'I']) : nameSet;
  if (level >= 7) paragraphs = paragraphs.map((p) => joinForLevel(p, level, rng, keep));

  const text = paragraphs.map((p) => p.join(' ')).join('\n\n');
  // A mission that has run five chapters draws the story to it: every suggestion takes it up.
  const converge = !missionCompleted && mission !== null && plan.missionAge + 1 >= 5;
  // For its seventh chapter on, it is drawn to its end: no fight or sneak among the ways offered (a
  // check rolled every time, that can fail chapter after chapter past the 3–8 chapters a mission has).
  // The seventh may be the last chance: a typed action about something else can take the eighth.
  const overdue = converge && plan.missionAge + 1 >= 6;
  const choices = makeChoices(ctx, action.kind, hasAction, newSetting ? newPlace : null, missionCompleted ? newMission : mission, converge, overdue);
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
      memories: memoriesOf(s, plan, answerSentences),
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

function withArticle(role: string): string {
  return /^(the|a|an)\s/i.test(role) ? role : `the ${role}`;
}

function lastName(full: string): string {
  return full.split(/\s+/).pop() ?? full;
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
  const charName = input.character.name.trim() || 'The traveller';
  const world = groundedWorld(input.worldDescription, input.world, charName);
  const genre = world.genre;
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
  // Someone the player's action names is who the chapter is with ("ask Vicar Thorne…" brings Thorne).
  const actionText = (input.action ?? '').toLowerCase();
  const named = people.find(
    (p) => shortName(p) !== name && (actionText.includes(p.toLowerCase()) || new RegExp(`\\b${escapeRegExp(lastName(p).toLowerCase())}\\b`).test(actionText)),
  );
  // The world's own people come round more often than the ones invented to fill the cast.
  // (Only those the grounding kept: one sharing the hero's surname is not in the cast.)
  const own = (world.material?.people ?? []).filter((p) => shortName(p) !== name && world.people.includes(p));
  const ownTurn = own.length > 0 && rng.chance(0.3);
  const npcFull = named
    ? named
    : fromCards
      ? rng.pick(cardPeople).name
      : knownInPrev.length > 0 && rng.chance(0.5)
        ? rng.pick(knownInPrev)
        : ownTurn
          ? rng.pick(own)
          : rng.pick(people.filter((p) => shortName(p) !== name));
  const npc = shortName(npcFull);
  // Someone a mission names ("get Corvin Blackbriar to tell you…") has been named, not met: they are
  // introduced, and their look told, when they first appear (a Hollowmere story never showed Corvin's).
  const unmissioned = (t: string) =>
    [input.mission, ...(input.pastMissions ?? [])].reduce<string>(
      (acc, m) => (m ? acc.replace(new RegExp(escapeRegExp(m.replace(/[.!?]+$/, '')), 'gi'), '') : acc),
      t,
    );
  const introduced = unmissioned(prevText).includes(npc);
  const metBefore = (input.castList ?? []).some((c) => c.name === npcFull) || unmissioned(input.summary).includes(npc);
  // A continued chapter goes on in the same scene: someone named in it is still there.
  const sameScene = Boolean(input.continueFrom) && introduced;
  const npcCard = cardPeople.find((c) => c.name === npcFull);
  const drawnRole = rng.pick(genre.allies);
  // A title is the role ("Vicar Thorne" is the vicar): never a second, clashing one.
  const title = npcFull.split(/\s+/).find((w) => TITLES.has(w.toLowerCase()));
  const role = npcCard?.role ? withArticle(npcCard.role) : title ? `the ${title.toLowerCase()}` : drawnRole;
  const passerBy = rng.pick(genre.allies.filter((a) => a !== role));
  // The world's own place the setting names, whole ("the High Throne of Lys", not "High Throne" or
  // "Throne"); else the setting's first proper noun.
  const settingPlace = input.setting ? (worldPlaceIn(input.setting, world.places) ?? firstProperNoun(input.setting)) : null;
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
    const carried = [`what ${who} had said`, `${who}'s warning`, `the look on ${who}'s face`, `${who}'s parting words`, `the bargain with ${who}`];
    prev = carried[input.chapterNumber % carried.length] as string;
  } else if (input.recentChapters.length > 0) {
    const lastChoice = input.recentChapters[input.recentChapters.length - 1]?.playerChoice;
    const lastOwn = lastChoice ? ownAction(lastChoice, input.character.name) : '';
    prev = lastOwn ? `the choice to ${normaliseAction(lastOwn).clause}` : 'the last few hours';
  }

  const slots: Slots = {
    name,
    // Marked, so the point of view can tell the hero's "they" from a crowd's (narration.ts).
    they: HERO.they,
    them: HERO.them,
    their: HERO.their,
    themself: HERO.themself,
    place,
    placeCap: upperFirst(place),
    placeName,
    worldPlace,
    npc,
    // Full name and role only when first met: after that, people are known by name.
    npcFull: introduced || metBefore ? npc : `${npcFull}, ${role},`,
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
    action: heroPronouns(action.clause),
    object: heroPronouns(article(action.object ?? placeName)),
    // The objective is quoted as it stands: the point of view leaves it alone (narration.ts).
    mission: mission ? protect(mission) : 'find a purpose worth the risk',
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
    introduced,
    metBefore,
  };
}

/** What happens in the chapter, decided before writing so prose and structured result agree. */
function decide(s: Setup) {
  const { input, world, genre, rng, action, hasAction, isOpening, settingPlace, place, mission } = s;
  // A mission needs time and then ends: it can complete once it has run through two earlier
  // chapters, more likely each chapter after, and surely by its eighth. Its age comes from the
  // stored missions (missionAge); without it, from the chapters in the prompt that name it.
  const missionAge = input.missionAge ?? (mission ? input.recentChapters.filter((c) => c.text.toLowerCase().includes(mission.toLowerCase())).length : 0);
  // A mission is completed only by an outcome that concerns it: an action about it (its words or
  // names) that did not fail, once it has run a couple of chapters — more likely the longer it runs.
  const onTarget = hasAction && mission !== null && concerns(action, mission);
  const drawn = outcomeOf(input, KIND_STAT[action.kind], rng.fork('outcome'));
  // With no check from the engine (a routine action, which never fails), a mission the story is
  // drawn to (its fifth chapter on, when every suggestion takes it up) that the hero takes up does not
  // fail outright: it comes right at a price. A draw of failure there kept missions open into their
  // eighth chapter, where a typed action about something else made it 9 (missions resolve in 3–8).
  const result = !input.check && onTarget && missionAge >= 4 && drawn.outcome === 'failure' ? { ...drawn, outcome: 'cost' as const } : drawn;
  // The engine's check decides (issue 31): a failed action never completes the mission, nor does a defeat.
  const failed = checkFailed(input);
  // An overdue mission (its eighth chapter on) that the hero takes up ends here even when the check
  // fails: the failure's harm stands and the task is done at a price. Otherwise a run of bad rolls
  // kept one mission open past the 3–8 chapters a mission has (lint:story: 9 after four failed checks).
  const atCost = onTarget && failed && !input.defeat && missionAge >= 7;
  const missionCompleted =
    atCost ||
    (onTarget && result.outcome !== 'failure' && !failed && !input.defeat && missionAge >= 2 && (missionAge >= 4 || rng.chance(0.55 + (missionAge - 2) * 0.2)));
  let newMission: string | null = null;
  if (missionCompleted || mission === null) newMission = nextMission(world, rng, [...(input.pastMissions ?? []), ...(input.mission ? [input.mission] : [])]);
  const moves = !isOpening && (action.kind === 'travel' ? rng.chance(0.6) : rng.chance(0.15));
  let newSetting: string | null = null;
  let newPlace = '';
  if (moves) {
    const candidates = world.places.filter((p) => p !== settingPlace && p !== place);
    // A world that names its places is travelled between them; invented names only fill an empty map.
    const invent = candidates.length === 0 || (!world.material && !rng.chance(0.7));
    newPlace = invent ? inventPlace(genre, rng.fork('place')) : rng.pick(candidates);
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
  // A mission's reward goes round the three stats, one mission after another (where the story starts
  // in the round is its own): drawn at random, seven missions gave one stat 6 of a story's points.
  const REWARDED = ['wisdom', 'endurance', 'charisma'] as const;
  if (missionCompleted)
    grow(
      input.missionsCompleted === undefined ? rng.pick(REWARDED) : (REWARDED[(input.missionsCompleted + (s.ctx.storyKey % 3)) % 3] as StatName),
      climax || rng.chance(0.3) ? 2 : 1,
    );
  const grown = Object.keys(statIncreases) as StatName[];
  return { missionCompleted, atCost, climax, newMission, newSetting, newPlace, statIncreases, grown, result, missionAge, failed, record: stakesRecord(input) };
}

/** The chapter's sentences by paragraph: the events, then texture up to its target length. */
function compose(s: Setup, plan: Plan, level: number, answerOut: string[] = []): [string[], string[], string[], string[]] {
  const { rng, slots, action, hasAction, isOpening, knownInPrev, nameSet, mission, ctx, arc } = s;
  const { missionCompleted, climax, newMission, newSetting, newPlace, grown, failed, record } = plan;
  const p1: string[] = [];
  const p2: string[] = [];
  const p3: string[] = [];
  const p4: string[] = [];
  // How much happens decides the chapter's length and shape: a quiet one (rest, no action) is a
  // quick beat without sky, reply or rising stakes; an eventful one lingers (see the texture below).
  const weight = weightOf(s, plan);
  const quiet = weight < 0 && !isOpening;
  if (isOpening) {
    const pickO = (list: string[]) => finishSentence(render(rng.pick(list), slots, level));
    p1.push(pickO(T.OPENING.scene), pickO(T.OPENING.who), pickO(T.OPENING.gift));
    ctx.used.add('sky'); // the opening scene already paints the sky
    p1.push(mission ? pickO(T.OPENING.mission) : pickO(T.OPENING.noMission));
    if (mission && arc?.arc === 0 && arc.step === 0) p1.push(finishSentence(openingArcLine(arc, ctx.storyKey, slots, level)));
  } else {
    p1.push(fromFamily(ctx, 'continue', T.CONTINUE));
    if (!quiet && rng.chance(0.5)) p1.push(fromFamily(ctx, 'sky', T.SKY));
  }
  let attemptThing = '';
  if (hasAction) {
    // The first paragraph comes before this chapter's encounter: only someone already met can be named.
    const earlier = knownInPrev[0] ? shortName(knownInPrev[0]) : (slots.npc as string);
    const answer = answerAction(action, plan.result, {
      name: slots.name as string,
      object: slots.object as string,
      npc: earlier,
      threat: slots.threat as string,
      place: slots.placeName as string,
      faction: slots.faction as string,
      turn: ctx.input.chapterNumber,
      key: ctx.storyKey,
      mission: s.input.mission,
    });
    p1.push(...answer.sentences.map(finishSentence));
    attemptThing = answer.thing;
    answerOut.push(...answer.sentences);
    // The answer told what came of it: no stock outcome sentence may add another, maybe contrary, one.
    ctx.used.add('outcome');
  }
  // A failed attempt (the engine's check, or the storyteller's own draw) makes no progress: no stock
  // line may say otherwise, here or in the padding below.
  if (failed || plan.result.outcome === 'failure') ctx.used.add('progress');
  // After the answer: an item used up, a defeat, and what the hero took (stakes.ts).
  p1.push(...stakesLines(s.input, { name: slots.name ?? '', they: HERO.they, them: HERO.them, their: HERO.their }, hasAction).map(finishSentence));
  if (record.gainedLine) p1.push(finishSentence(record.gainedLine));
  p2.push(fromFamily(ctx, 'encounter', s.sameScene ? T.REJOIN : T.ENCOUNTER));
  // The person speaks for the moment, in their own manner (people.ts), and is seen as they always are.
  const persona = personaOf(s.world, s.npcFull, s.world.constraints);
  ctx.used.add('dialogue');
  const moment = {
    hero: slots.name as string,
    attempt: hasAction ? { thing: attemptThing, outcome: plan.result.outcome } : null,
    mission: s.input.mission,
    place: slots.placeName as string,
    threat: slots.threat as string,
    faction: slots.faction as string,
    chapter: ctx.input.chapterNumber,
    storyKey: ctx.storyKey,
  };
  const said = lineFor(s.npcFull, persona, moment);
  p2.push(said);
  if (!quiet) p2.push(fromFamily(ctx, 'reply', T.REPLY));
  // A talk or a chapter where much happens goes on: the person says something more (about the
  // mission or what they want), unless it would say the same thing over.
  if (weight >= 2 || (hasAction && action.kind === 'social' && weight >= 1)) {
    const more = lineFor(s.npcFull, persona, { ...moment, attempt: null, chapter: ctx.input.chapterNumber + SECOND_LINE_TURN, plain: true });
    if (!sharesWords(said, more, 4)) p2.push(more);
  }
  ctx.used.add('npcDetail');
  // Seen as they look once, when first met; after that, by what they keep doing.
  const known = s.introduced || Boolean(s.npcCard) || s.metBefore;
  // (A habit is told now and then, not every time: it would become the chapter's refrain.)
  if (!known) p2.push(lookLine(s.npcFull, persona));
  else if (ctx.input.chapterNumber % 3 === 0) p2.push(habitLine(s.npcFull, persona, ctx.input.chapterNumber, ctx.storyKey));
  if (newSetting) p3.push(fromFamily(ctx, 'setting', T.SETTING, { newPlace }));
  if (climax && arc) {
    // The arc's last mission: its goal is met, and the next arc's goal comes with the next mission.
    if (plan.atCost) p3.push(fromFamily(ctx, 'complete', T.COMPLETE_AT_COST));
    p3.push(...climaxLines(arc, slots, level).map(finishSentence));
    p3.push(fromFamily(ctx, 'newMission', T.NEW_MISSION, { newMission: protect(lowerFirst(newMission as string, nameSet)) }));
  } else if (missionCompleted) {
    p3.push(fromFamily(ctx, 'complete', plan.atCost ? T.COMPLETE_AT_COST : T.COMPLETE));
    if (arc) p3.push(finishSentence(stepDoneLine(arc, slots, level)));
    p3.push(fromFamily(ctx, 'newMission', T.NEW_MISSION, { newMission: protect(lowerFirst(newMission as string, nameSet)) }));
  } else if (mission) {
    p3.push(fromFamily(ctx, 'mission', T.MISSION));
    // The stakes rise with each mission of the arc.
    if (arc && !isOpening && !quiet && rng.chance(0.75)) p3.push(fromFamily(ctx, 'stakes', STAKES[arc.step] as T.Family));
    if (hasAction && !ctx.used.has('progress')) p3.push(fromFamily(ctx, 'progress', T.PROGRESS));
  } else {
    p3.push(fromFamily(ctx, 'newMission', T.NEW_MISSION, { newMission: protect(lowerFirst(newMission as string, nameSet)) }));
  }
  for (const s of grown.slice(0, 1)) {
    const adj = STAT_ADJ[s][ctx.input.chapterNumber % STAT_ADJ[s].length] as string;
    p3.push(fromFamily(ctx, 'stat', T.STAT, { statAdj: render(adj, slots, level) }));
  }
  // Threads the story returns to: the player's answers, what the memory bank recalled, the plot
  // essentials woven into a sentence; and the author's note's tone (threads.ts).
  const hero = slots.name as string;
  const note = readNote(s.input.authorsNote);
  for (const line of [
    threadLine(s.input.world, ctx.input.chapterNumber, ctx.storyKey, hero),
    memoryLine(s.input.memories, ctx.input.chapterNumber, [s.input.continueFrom ?? '', s.input.recentChapters.at(-1)?.text ?? ''].join(' ')),
    essentialLine(s.input, hero, s.npc),
    toneLine(note, ctx.input.chapterNumber, hero),
  ])
    if (line) p3.push(finishSentence(line));
  p4.push(fromFamily(ctx, 'hook', T.HOOK));
  const ending = endingLine(note, ctx.input.chapterNumber, ctx.storyKey, { name: hero, npc: s.npc, threat: slots.threat as string });
  if (ending) p4.push(finishSentence(ending));

  // Texture until the chapter reaches its target length (150–400 words; shorter sentences at low
  // reading levels need more of them). Each family still appears at most once.
  // The note can ask for shorter or longer chapters; what happens decides the rest.
  // Chapters differ in length and shape: some are a quick beat, some linger.
  const target =
    note.length === 'short'
      ? 120 + rng.int(60)
      : note.length === 'long'
        ? 260 + rng.int(100)
        : // A quiet chapter is a quick beat; a fight, a defeat, a mission won or lost, a new place linger.
          (weight < 0 ? 110 : weight === 0 ? 160 : weight === 1 ? 230 : weight === 2 ? 300 : 370) + rng.int(level <= 4 ? 30 : 50);
  const textures = rng
    .shuffle<[string, T.Family, string[]]>([
      ['sensory', T.SENSORY, p2],
      ['place', T.PLACE, p2],
      ['inner', T.INNER, p3],
      ['body', T.BODY, p1],
      ['sky', T.SKY, p1],
      ['npcDetail', T.NPC_DETAIL, p2],
      ['memory', T.MEMORY, p3],
      // An eventful chapter has room for more: what comes next, an aside, the weather.
      ...(weight >= 2
        ? ([
            ['plan', T.PLAN, p3],
            ['aside', T.ASIDE, p2],
            ['weather', T.WEATHER, p2],
          ] as Array<[string, T.Family, string[]]>)
        : []),
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
    // (No progress after an attempt that failed: the chapter may not contradict the outcome.)
    ...(!missionCompleted && mission && !ctx.used.has('progress') && plan.result.outcome !== 'failure' && !plan.failed
      ? ([['progress', T.PROGRESS, p3]] as Array<[string, T.Family, string[]]>)
      : []),
  ];
  // (Then any texture not used yet: at the lowest reading levels the reserve alone can fall short.)
  for (const [fname, fam, para] of [...reserve, ...textures]) {
    if (words >= 160) break; // a margin over the 150-word floor
    if (ctx.used.has(fname)) continue;
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

/** A second line's schedule turn: far from any chapter's own, so its wording is not another chapter's. */
const SECOND_LINE_TURN = 5003;

/** Whether two sentences share a run of `n` words (one line saying the other's thing over). */
function sharesWords(a: string, b: string, n: number): boolean {
  const w = (x: string) => x.toLowerCase().match(/[\p{L}'’]+/gu) ?? [];
  const wa = w(a);
  const grams = new Set<string>();
  for (let i = 0; i + n <= wa.length; i++) grams.add(wa.slice(i, i + n).join(' '));
  const wb = w(b);
  for (let i = 0; i + n <= wb.length; i++) if (grams.has(wb.slice(i, i + n).join(' '))) return true;
  return false;
}

/**
 * How much happens in a chapter, which decides its length: a fight, a talk, a find, a defeat, a
 * critical roll, a hurt, a mission completed (more for an arc's climax) and a new place weigh;
 * resting, hiding, or a chapter with no action, is quiet.
 */
function weightOf(s: Setup, plan: Plan): number {
  const { input, action, hasAction, isOpening } = s;
  const outcome = input.check?.outcome;
  let w = 0;
  // What the hero does sets the pace: a fight runs long, a talk or a search that finds something
  // runs on, hiding and resting are brief.
  if (hasAction && action.kind === 'combat') w += 2;
  if (hasAction && (action.kind === 'social' || action.kind === 'bold')) w += 1;
  if (hasAction && action.kind === 'investigate' && plan.result.outcome === 'success') w += 1;
  if (hasAction && (action.kind === 'stealth' || action.kind === 'rest')) w -= 1;
  if (input.defeat) w += 2;
  if (outcome === 'critical_success' || outcome === 'critical_failure') w += 1;
  if (plan.result.hurt || (input.check?.healthLost ?? 0) > 0) w += 1;
  if (plan.missionCompleted) w += plan.climax ? 2 : 1;
  if (plan.newSetting) w += 1;
  if (hasAction && plan.result.outcome === 'failure') w += 1;
  if (isOpening) w += 1;
  if (!hasAction) w -= 1;
  return w;
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
/** The world's place a text names first, as the world names it. */
function worldPlaceIn(text: string, places: readonly string[]): string | null {
  const lower = text.toLowerCase();
  const found = places
    .map((p) => ({ p, at: lower.indexOf(p.toLowerCase()) }))
    .filter((x) => x.at >= 0)
    .sort((a, b) => a.at - b.at || b.p.length - a.p.length);
  return found[0]?.p ?? null;
}

function firstProperNoun(text: string): string | null {
  for (const run of text.match(/[A-Z][\p{L}'’-]+(?:\s+[A-Z][\p{L}'’-]+)*/gu) ?? []) {
    const words = run.split(/\s+/);
    while (words.length > 0 && LEADING.has(words[0] as string)) words.shift();
    if (words.length > 0) return words.join(' ');
  }
  return null;
}

/**
 * Missions drawn from the world's own conflicts: its threats, factions, places and people (the
 * genre's stock missions only when the world names too little to build one).
 */
const WORLD_MISSIONS = [
  'Find out what {faction} wants with {placeName}',
  'Learn who in {faction} answers to {threat}',
  'Get {npc} to tell you what they know about {threat}',
  'Reach {placeName} before {threat} does',
  'Bring proof of what {faction} is hiding to {npc}',
  'Keep {npc} safe from {threat}',
  'Find a way into {placeName} past the watchers of {faction}',
  'Learn what {npc} is keeping from you about {placeName}',
  'Find out what {threat} took from {placeName}',
  'Win {npc} over before {faction} does',
];

/** A new objective from the world's conflicts, never one the story has had (`past`: every earlier objective). */
export function nextMission(world: WorldModel, rng: Rng, past: string | readonly string[] | null | undefined): string {
  const g = world.genre;
  const seen = new Set((typeof past === 'string' ? [past] : (past ?? [])).map((m) => m.trim().toLowerCase()));
  const own = world.factions.length > 0 && world.places.length > 0;
  for (let attempt = 0; attempt < 40; attempt++) {
    // Later attempts widen to the stock list: a long story can use up the world's combinations.
    const t = own && (attempt < 24 || rng.chance(0.5)) ? rng.pick(WORLD_MISSIONS) : rng.pick(g.missions);
    const faction = rng.pick(world.factions);
    // The danger is someone other than the faction the mission names ("who in X answers to X").
    const threats = g.threats.filter((x) => x.toLowerCase() !== faction.toLowerCase());
    const m = render(
      t,
      {
        artifact: rng.pick(g.artifacts),
        ally: rng.pick(g.allies),
        place: rng.pick(g.places),
        placeName: rng.pick(world.places),
        threat: rng.pick(threats.length > 0 ? threats : g.threats),
        faction,
        npc: rng.pick(world.people),
      },
      8,
    );
    const objective = upperFirst(m);
    if (!seen.has(objective.toLowerCase())) return objective;
  }
  return `Follow the trail beyond ${rng.pick(world.places)} (${seen.size + 1})`;
}

/** The player's "my" became "their" when the action was read: it is the hero's, so it is marked as theirs. */
function heroPronouns(s: string): string {
  // Only "their" and "themself": a "they" or "them" the player wrote is usually someone else ("ask what they know").
  return s.replace(/\b(themself|their)\b/g, (w) => HERO[w as keyof typeof HERO]);
}

/**
 * What the chapter leaves in the memory bank (issue 30): what came of the attempt, a mission done and
 * the next one, a new place — in the third person past by name, whatever the story's point of view,
 * so a memory reads the same wherever it is recalled.
 */
function memoriesOf(s: Setup, plan: Plan, answer: string[]): ChapterResult['memories'] {
  const hero = s.input.character.name.trim() || (s.slots.name as string);
  const third = (x: string) => clip(finishSentence(narrate(x, 'third', [hero, s.slots.name as string])).replace(/[\u0004\u0005]/g, ''), MEMORY_TEXT_MAX);
  const out: ChapterResult['memories'] = [];
  // The attempt and what came of it, as one memory ("Edmund searched the study; it worked: …").
  if (answer[0] && answer[1]) out.push({ kind: 'event', text: third(`${answer[0]}; ${lowerFirst(answer[1])}`) });
  if (plan.missionCompleted && s.input.mission)
    out.push({ kind: 'event', text: third(`${hero} completed the task: ${s.input.mission.replace(/[.!?]+$/, '')}`) });
  if (plan.newMission) out.push({ kind: 'promise', text: third(`${hero} took on a new task: ${plan.newMission.replace(/[.!?]+$/, '')}`) });
  if (plan.newSetting && plan.newPlace) out.push({ kind: 'place', text: third(`${hero} came to ${plan.newPlace}`) });
  return out.slice(0, MEMORIES_PER_CHAPTER_MAX);
}

/** A memory's longest text (the bank's limit, shared/limits.ts). */
const MEMORY_TEXT_MAX = 200;

/**
 * A sentence cut to `max` characters where a clause ends (a word at least), ended with a stop: a
 * memory is recalled in later chapters, and one cut mid-word ("paying for silenc.") shows there.
 */
function clip(sentence: string, max: number): string {
  if (sentence.length <= max) return sentence;
  const room = sentence.slice(0, max);
  const clause = Math.max(room.lastIndexOf('; '), room.lastIndexOf(': '), room.lastIndexOf(', '));
  const cut = clause >= max / 2 ? room.slice(0, clause) : room.slice(0, Math.max(1, room.lastIndexOf(' ')));
  return `${cut.replace(/[\s,;:—–-]+$/, '')}.`;
}

/** Whether an action is about a mission: it shares a content word or a name with it. */
function concerns(action: NormalisedAction, mission: string): boolean {
  const m = mission.toLowerCase();
  const stem = (w: string) => w.replace(/(?:ing|ed|es|s)$/, '');
  const missionWords = new Set((m.match(/[\p{L}'’-]{4,}/gu) ?? []).filter((w) => !GENERIC.has(w)).map(stem));
  return action.keywords.some((k) => !GENERIC.has(k) && missionWords.has(stem(k)));
}
/** Words too common to tie an action to a mission. */
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

/** Marks a span the point of view must not retell (an objective, as the player reads it). */
function protect(s: string): string {
  return `\u0004${s}\u0005`;
}

function ownPronouns(s: string): string {
  return s
    .replace(/\u0002themself/g, 'yourself')
    .replace(/\u0002they/g, 'you')
    .replace(/\u0002them/g, 'you')
    .replace(/\u0002their/g, 'your');
}

/** Suggestions that each take up the mission in their own way (a mission that has run long). */
const CONVERGING: Record<ActionKind, string> = {
  social: 'Ask {npc} to help you {mission}',
  investigate: 'Search every corner until you can {mission}',
  stealth: 'Slip in unseen and {mission}',
  combat: 'Fight your way through and {mission}',
  travel: 'Go wherever it takes to {mission}',
  craft: 'Use {special} to {mission}',
  bold: 'Risk everything to {mission}',
  rest: 'Gather your strength, then {mission}',
};

function makeChoices(
  ctx: Ctx,
  kind: ActionKind,
  hasAction: boolean,
  newPlace: string | null,
  mission: string | null,
  converge = false,
  overdue = false,
): string[] {
  const { rng, level } = ctx;
  // Someone the mission is about is not asked to help with it ("Ask Abigail how to … Abigail"):
  // the suggestion goes to someone else the world knows, or is not made.
  const about = (p: string) => (mission ?? '').includes(shortName(p));
  const helper = about(ctx.slots.npc as string) ? ctx.world.people.map(shortName).find((p) => !about(p) && p !== ctx.slots.name) : (ctx.slots.npc as string);
  const slots: Slots = { ...ctx.slots, npc: helper ?? '' };
  const asks = (t: string) => !helper && t.includes('{npc}');
  if (converge && mission) {
    const m = lowerFirst(mission.replace(/[\u0004\u0005]/g, '').replace(/[.!?]+$/, ''));
    const kinds = rng
      .shuffle((Object.keys(CONVERGING) as ActionKind[]).filter((k) => k !== kind && !asks(CONVERGING[k]) && !(overdue && (k === 'combat' || k === 'stealth'))))
      .slice(0, 3);
    return kinds.map((k) => upperFirst(ownPronouns(render(CONVERGING[k], slots, level, { mission: m }))).slice(0, 160));
  }
  const kinds = rng.shuffle((Object.keys(T.CHOICES) as Array<ActionKind | 'mission'>).filter((k) => k !== 'mission' && (!hasAction || k !== kind)));
  const picked: Array<ActionKind | 'mission'> = mission ? ['mission', ...kinds.slice(0, rng.chance(0.5) ? 3 : 2)] : kinds.slice(0, rng.chance(0.5) ? 4 : 3);
  const extra: Slots = {
    newPlaceName: newPlace ?? (slots.newPlaceName as string),
    mission: mission ? lowerFirst(mission.replace(/[\u0004\u0005]/g, '').replace(/[.!?]+$/, '')) : '',
  };
  const seen = new Set<string>();
  const out: string[] = [];
  for (const k of picked) {
    for (const t of rng.shuffle(T.CHOICES[k].filter((x) => !asks(x)))) {
      // A suggested action is said to the player: the hero's pronouns are theirs ("your gear").
      const c = upperFirst(
        ownPronouns(render(t, slots, level, extra))
          .replace(/\s+/g, ' ')
          .trim(),
      ).slice(0, 160);
      if (!seen.has(c.toLowerCase())) {
        seen.add(c.toLowerCase());
        out.push(c);
        break;
      }
    }
  }
  return out;
}

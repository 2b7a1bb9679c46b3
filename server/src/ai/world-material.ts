/**
 * A world's own material (issue 32): what a story in it is made of, read from the world's name,
 * description and questions, with the player's answers at spawn. Both storytellers get it
 * (ChapterInput.world): the offline one writes from it instead of a genre's stock pools, the model is
 * told it. It is read the same way every time, so it needs no storage beyond the snapshot a story
 * keeps (Character.worldSnapshot: name, description, questions and answers).
 */
import { readWorld, shortName } from './offline/world-model';
import type { WorldMaterial } from './story-ai';

export interface WorldSource {
  name?: string | null;
  description: string;
  questions?: readonly string[] | null;
  /** The player's answers, in the questions' order (blank: not answered). */
  answers?: readonly string[] | null;
}

/**
 * What the world rules out, and the words that would break it. A constraint is kept as the sentence
 * the model is told; the offline storyteller drops every stock phrase that matches its pattern.
 */
const CONSTRAINTS = {
  noSky: {
    text: 'no open sky: the story happens under ice, rock or water — no sun, stars, weather or horizon',
    breaks:
      /\b(sky|skies|skyline|suns?|sunlight|sunset|sunrise|stars?|starlight|moons?|moonlight|clouds?|rain|snow|wind|winds|storms?|horizon|dawn|dusk|contrail|aurora|overhead|weather|breeze|daylight)\b/i,
  },
  noMagic: {
    text: 'no magic: nothing supernatural works here (no spells, runes, dragons or gods)',
    breaks:
      /\b(magic|magical|spells?|wizards?|sorcer\w*|enchant\w*|runes?|dragons?|elves|elf|dwarf|dwarves|witch\w*|curse[sd]?|ghosts?|spirits?|gods?|goddess)\b/i,
  },
  noMachines: {
    text: 'no modern machines: no engines, guns, screens, drones or computers',
    breaks:
      /\b(drones?|neon|computers?|data|cyber\w*|lasers?|screens?|phones?|engines?|radio|guns?|pistols?|rifles?|revolvers?|electric\w*|hologram\w*|android|robots?|reactor|terminal|circuit\w*|airship|ozone)\b/i,
  },
  oneSun: {
    text: 'one sun (or none): never two suns or a strange planet sky',
    breaks: /\b(two|twin|three|binary) suns\b|\bpink sky\b|\bthe planet's\b/i,
  },
} as const;
export type ConstraintKey = keyof typeof CONSTRAINTS;

/** Brand and franchise names the stock pools carried: never in a world of its own. */
const FOREIGN_NAMES = /\b(arasaka|militech|weyland|skynet|hogwarts|mordor|gondor|jedi|sith)\b/i;

/** The world itself lies under something (a measured depth, or an underground place): not a sunken ruin in it. */
const SKY_HIDDEN =
  /\b(?:beneath|under|below)\s+(?:[\w-]+\s+){0,2}(?:kilometres|kilometers|km|miles|metres|meters|fathoms|feet|leagues)\s+of\s+(?:solid\s+)?(?:ice|rock|water|stone|earth|sea|ocean)\b|\b(?:underground|subterranean|undersea|underwater|sunless)\s+(?:city|station|colony|kingdom|world|realm|base|habitat|warrens?|empire)\b/i;
/** "the chapel of Saint Ebba", "the drowned city of Old Marisol": a name after these is a place's. */
const PLACE_OF = (name: string) =>
  new RegExp(
    `\\b(?:city|town|village|port|isle|island|kingdom|chapel|church|shrine|temple|ruins|realm|abbey|cathedral|tomb|house|hall|station|moon|planet) of (?:Old |the )?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`,
  );
const MAGIC_WORDS =
  /\b(magic|spells?|wizards?|sorcer\w*|enchant\w*|runes?|dragons?|elves|dwarves|witch\w*|necromanc\w*|demons?|gods?|curse[sd]?|haunted|ghosts?|spirits?|rites?|fae|prophecy|undead)\b/i;
const MACHINE_WORDS =
  /\b(drones?|cyber\w*|computers?|data|neon|lasers?|guns?|pistols?|rifles?|revolvers?|engines?|steam|clockwork|station|starships?|network|hack\w*|implants?|robots?|androids?|AI|radio|electric\w*|trains?|cars?|submersibles?|machines?|cannon)\b/;
/** Genres whose stock pools assume magic, or machines: a world says otherwise in its own words. */
const MAGIC_GENRES = new Set(['highFantasy', 'darkFantasy', 'mythic', 'horror', 'urban']);
const MACHINE_GENRES = new Set(['sciFi', 'spaceOpera', 'cyberpunk', 'postApocalyptic', 'steampunk', 'noir', 'urban', 'western', 'pirate']);

const TONE_WORDS = [
  'grim',
  'gothic',
  'dread',
  'hopeful',
  'lawless',
  'whimsical',
  'melancholy',
  'desperate',
  'dying',
  'haunted',
  'cozy',
  'wondrous',
  'heroic',
  'bleak',
  'hungry',
  'cruel',
  'gentle',
  'strange',
  'mysterious',
  'eerie',
  'brutal',
  'rain-soaked',
  'fog-bound',
  'luminous',
  'sacred',
  'ancient',
  'corrupt',
];

/** Words in a threat's sentence that show it is the danger, not the scenery. */
const THREAT_CUE =
  /\b(hunts?|hunted|burns?|feeds?|feed on|hungry|plague\w*|undead|curse[sd]?|demons?|rogue|enforce|raid\w*|invad\w*|devour\w*|calls? from|wears? the faces|vanish\w*|crack\w*|rot\w*|bargain\w*|rule[sd]?|wants|bioweapons?|waiting in the dark|learning|hungry|war|threat\w*|danger\w*|march\w*)\b/i;
/** Unnamed dangers a description names in its own words ("a rogue AI", "something in the deep"). */
const THREAT_PHRASE =
  /\b(?:(?:a|an|the)\s+(?:[a-z-]+\s+){0,2}(?:AI|presence|plague|undead|demons?|drones?|curse|beasts?|monsters?|creatures?|horde|gangs?|raiders?|storms?|dead|swarm|fever|blight)|something (?:in|beneath|under) the [a-z]+)\b/g;

/** Reads a world into its material (pure and deterministic: the same world always reads the same). */
export function buildWorldMaterial(src: WorldSource): WorldMaterial {
  const description = src.description.trim();
  const questions = (src.questions ?? []).map((q) => q.trim()).filter(Boolean);
  // The questions name the world's people and places too ("the Tidewell Institute", "Ravenscar Hall").
  const model = readWorld([description, ...questions].join(' '));
  const worldName = (src.name ?? '').trim();
  const named = new Set(model.namedInText);
  const isWorld = (n: string) => worldName !== '' && n.replace(/^the\s+/i, '').toLowerCase() === worldName.replace(/^the\s+/i, '').toLowerCase();
  const places = model.places.filter((p) => named.has(p) && !isWorld(p));
  const factions = model.factions.filter((f) => named.has(f) && !isWorld(f));
  const text = [description, ...questions].join(' ');
  const people: string[] = [];
  for (const p of model.people.filter((x) => named.has(x))) {
    const m = PLACE_OF(p).exec(text);
    // A saint's chapel or a drowned city is a place, never someone who speaks.
    if (m) places.push(m[0].replace(/^(\w+) of (Old )?/, (_all, noun: string, old?: string) => `the ${noun.toLowerCase()} of ${old ?? ''}`));
    // One person per first name: "Empress Solenne IX" and "Empress Solenne" are the same woman.
    else if (!people.some((q) => shortName(q) === shortName(p) || lastWord(q) === lastWord(p))) people.push(p);
  }

  const sentences = description.split(/(?<=[.!?])\s+/);
  const threats: string[] = [];
  const addThreat = (t: string) => {
    const clean = t.trim().replace(/[,.;:]+$/, '');
    if (clean && !threats.some((x) => x.toLowerCase() === clean.toLowerCase())) threats.push(clean);
  };
  for (const s of sentences) {
    if (!THREAT_CUE.test(s)) continue;
    for (const f of factions) if (s.includes(f.replace(/^the\s+/, ''))) addThreat(f);
    for (const m of s.matchAll(THREAT_PHRASE)) addThreat(m[0]);
  }
  const lower = description.toLowerCase();
  const tone = TONE_WORDS.filter((w) => new RegExp(`\\b${w}\\b`).test(lower)).slice(0, 6);

  const constraints: string[] = [];
  if (SKY_HIDDEN.test(description)) constraints.push(CONSTRAINTS.noSky.text);
  const genre = model.genre.id;
  if (!MAGIC_GENRES.has(genre) && !MAGIC_WORDS.test(description)) constraints.push(CONSTRAINTS.noMagic.text);
  if (!MACHINE_GENRES.has(genre) && !MACHINE_WORDS.test(description)) constraints.push(CONSTRAINTS.noMachines.text);
  if (!/\b(two|twin|binary) suns\b/i.test(description)) constraints.push(CONSTRAINTS.oneSun.text);

  const answers: Array<{ question: string; answer: string }> = [];
  (src.answers ?? []).forEach((a, i) => {
    const answer = a.replace(/\s+/g, ' ').trim();
    const question = questions[i] ?? '';
    if (answer) answers.push({ question, answer });
  });

  return {
    name: worldName || (model.namedInText[0] ?? 'the world'),
    ...(answers.length > 0 ? { answers } : {}),
    places,
    factions,
    people,
    threats,
    tone,
    constraints,
  };
}

const lastWord = (name: string) => name.split(/\s+/).pop() ?? name;

/** The constraint keys a material's constraint sentences stand for. */
export function constraintKeys(material: WorldMaterial | undefined): ConstraintKey[] {
  const texts = new Set(material?.constraints ?? []);
  return (Object.keys(CONSTRAINTS) as ConstraintKey[]).filter((k) => texts.has(CONSTRAINTS[k].text));
}

/** Whether a stock phrase breaks the world (its constraints, or a name from another fiction). */
export function breaksWorld(phrase: string, keys: readonly ConstraintKey[]): boolean {
  return FOREIGN_NAMES.test(phrase) || keys.some((k) => CONSTRAINTS[k].breaks.test(phrase));
}

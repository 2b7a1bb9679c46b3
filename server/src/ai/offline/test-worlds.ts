/**
 * Random worlds, characters and actions for property tests and the bench. Built from the genre
 * vocabulary plus invented proper nouns so the generator sees names it has never seen before.
 */
import { collectChapter, type ChapterCharacter, type ChapterResult, type PointOfView, type StoryAI, type WorldMaterial } from '../story-ai';
import { buildWorldMaterial } from '../world-material';
import { GENRES } from './genres';
import { Rng } from './prng';

const SYL = ['ka', 'ri', 'mor', 'tha', 'vel', 'is', 'an', 'dor', 'lu', 'sen', 'gar', 'oth', 'ys', 'qua', 'ne', 'bra', 'zu', 'el'];
function properNoun(rng: Rng): string {
  const n = 2 + rng.int(2);
  let s = '';
  for (let i = 0; i < n; i++) s += rng.pick(SYL);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function randomWorld(rng: Rng): { description: string; genreId: string; names: string[] } {
  const g = rng.pick(GENRES);
  const person = properNoun(rng);
  const place = properNoun(rng);
  const kws = rng.sample(g.keywords, 4);
  const openers = [
    `In the ${kws[0]} lands of ${place}, ${rng.pick(['Queen', 'Captain', 'Doctor', 'Lord', 'Sheriff'])} ${person} rules with an iron will.`,
    `${place} is a place of ${kws[0]} and ${kws[1]}, where ${person} keeps the old secrets.`,
    `Welcome to ${place}. Here ${kws[0]} and ${kws[1]} shape every life, and ${person}'s name is spoken softly.`,
  ];
  const description = [
    rng.pick(openers),
    `Travellers speak of ${kws[2]} and ${rng.pick(g.threats)}.`,
    `Everyone wants ${rng.pick(g.artifacts)}, and ${rng.pick(g.factions)} will do anything to get it.`,
    rng.chance(0.5) ? `The ${kws[3]} never sleeps in ${place}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return { description, genreId: g.id, names: [person, place] };
}

export const SAMPLE_ACTIONS = [
  'I search the abandoned library for clues',
  'Attack the guard at the gate',
  'Talk to the old innkeeper about the missing map',
  'sneak past the sleeping sentries',
  'I want to climb the northern tower',
  "Let's rest by the fire and tend my wounds",
  'Use my special ability to open the sealed door',
  'I will follow the stranger into the market',
  'Ask the captain what she knows about the storm',
  'Run!',
  'the red door',
  'I carefully examine the strange coin',
  'Bribe the customs officer with my last silver',
  'Head west toward the mountains',
  'I try to hack the security terminal',
  'Challenge the champion to a duel',
  'Hide in the cellar until nightfall',
  'Sing a song to calm the crowd',
];

export function randomCharacter(rng: Rng): ChapterCharacter {
  const name = rng.pick(['Mara', 'Tobin Vale', 'Ketra', 'Oswin', 'Lio', 'Sunniva Crane', 'Dax', 'Idris', 'Wren', 'Quill']);
  return {
    name,
    description: `${name} is a wanderer with a long memory and a short temper.`,
    stats: {
      strength: rng.range(4, 17),
      agility: rng.range(4, 17),
      endurance: rng.range(4, 17),
      intellect: rng.range(4, 17),
      wisdom: rng.range(4, 17),
      charisma: rng.range(4, 17),
    },
    traits: rng.sample(['Brave', 'Curious', 'Stubborn', 'Kind', 'Reckless', 'Witty', 'Loyal'], 3),
    special: { name: rng.pick(['Iron Ward', 'Swift Exploit', 'Silver Tongue']), description: 'A gift used sparingly.' },
  };
}

/** One chapter of a story played offline in process (see playOfflineStory). */
export interface PlayedChapter {
  action: string | null;
  /** The mission the chapter was written under. */
  mission: string | null;
  result: ChapterResult;
}

/**
 * Plays a story the way the engine feeds the storyteller (a mission first when there is none, its
 * age, every past objective, the last three chapters verbatim and a rolling summary of the rest, the
 * cast the chapters reported), choosing each action with `choose`. For tests of what a reader sees
 * over a whole story; the API suites play real stories through the server.
 */
export async function playOfflineStory(
  ai: StoryAI,
  opts: {
    world: { name: string; description: string; questions: string[] };
    answers?: string[];
    hero: ChapterCharacter;
    chapters: number;
    seed: number;
    readingLevel?: number;
    pointOfView?: PointOfView;
    authorsNote?: string;
    plotEssentials?: string;
    choose: (n: number, last: ChapterResult | null, mission: string | null, missionAge: number) => string | null;
  },
): Promise<{ chapters: PlayedChapter[]; missions: string[]; summary: string; material: WorldMaterial }> {
  const material = buildWorldMaterial({ ...opts.world, answers: opts.answers ?? [] });
  const chapters: PlayedChapter[] = [];
  const missions: string[] = [];
  let mission: string | null = null;
  let missionStarted = 0;
  let missionsCompleted = 0;
  let summary = '';
  let summarized = 0;
  const cast = new Map<string, string | null>();
  let last: ChapterResult | null = null;
  for (let n = 0; n < opts.chapters; n++) {
    if (!mission) {
      mission = (
        await ai.generateMission({
          worldDescription: opts.world.description,
          character: { name: opts.hero.name },
          previousMission: missions[missions.length - 1] ?? null,
          seed: opts.seed + n,
          world: material,
          pastMissions: [...missions],
        })
      ).objective;
      missions.push(mission);
      missionStarted = n;
    }
    const action = n === 0 ? null : opts.choose(n, last, mission, n - missionStarted);
    // Chapters older than the last three are folded into the summary, as the engine does.
    if (n - 3 > summarized) {
      const fold = chapters.slice(summarized, n - 3).map((c) => ({ text: c.result.text, playerChoice: c.action }));
      summary = (
        await ai.summarize({ previousSummary: summary, chapters: fold, story: { worldDescription: opts.world.description, character: opts.hero, mission } })
      ).summary;
      summarized = n - 3;
    }
    const { result } = await collectChapter(
      ai.streamChapter({
        worldDescription: opts.world.description,
        world: material,
        character: opts.hero,
        mission,
        missionAge: n - missionStarted,
        missionsCompleted,
        pastMissions: [...missions],
        setting: null,
        summary,
        recentChapters: chapters.slice(Math.max(summarized, n - 3)).map((c) => ({ text: c.result.text, playerChoice: c.action })),
        chapterNumber: n + 1,
        action,
        readingLevel: opts.readingLevel ?? 8,
        seed: opts.seed * 1000 + n,
        maxContextTokens: 8000,
        castList: [...cast].map(([name, role]) => ({ name, role })),
        ...(opts.pointOfView ? { pointOfView: opts.pointOfView } : {}),
        ...(opts.authorsNote ? { authorsNote: opts.authorsNote } : {}),
        ...(opts.plotEssentials ? { plotEssentials: opts.plotEssentials } : {}),
      }),
    );
    chapters.push({ action, mission, result });
    for (const m of result.cast) if (!cast.has(m.name)) cast.set(m.name, m.role);
    if (result.missionCompleted) missionsCompleted++;
    if (result.missionCompleted || !mission) {
      mission = result.newMission;
      if (mission) {
        missions.push(mission);
        missionStarted = n + 1;
      }
    }
    last = result;
  }
  return { chapters, missions, summary, material };
}

/**
 * The offline story's arcs: missions chain, three at a time, into a larger goal. The first mission of
 * an arc names the goal; each one after raises the stakes; the one that completes the third is the
 * climax, where the goal is met and the next arc's goal appears. Where a story stands comes from the
 * stored missions (ChapterInput.missionsCompleted), never from what fits the prompt, and the goals
 * from the world and the hero (the same story always has the same arcs).
 */
import type { WorldMaterial } from '../story-ai';
import type { Genre } from './genres';
import type { Family } from './chapter-templates';
import { Rng, mixSeed } from './prng';
import { render, type Slots } from './text';
import type { WorldModel } from './world-model';

/** Missions per arc: the third one completed is the climax. */
export const ARC_MISSIONS = 3;

const GOALS = [
  'end the danger of {threat} to {placeName} for good',
  'find out who in {faction} stands behind {threat}',
  "break {faction}'s hold over {placeName}",
  'bring {artifact} safely to {placeName}',
  'keep {threat} away from {placeName}',
  'bring peace back to {placeName}',
];

export interface Arc {
  /** 0-based arc number. */
  arc: number;
  /** Missions of this arc completed before this chapter (0–2): how high the stakes are. */
  step: number;
  /** The arc's goal, as a verb phrase ("stop a pack of blight-hounds before…"). */
  goal: string;
  /** The next arc's goal, named at this arc's climax. */
  nextGoal: string;
}

export function arcOf(world: WorldModel, storyKey: number, missionsCompleted: number): Arc {
  const done = Math.max(0, Math.floor(missionsCompleted));
  const arc = Math.floor(done / ARC_MISSIONS);
  return { arc, step: done % ARC_MISSIONS, goal: goalOf(world, storyKey, arc), nextGoal: goalOf(world, storyKey, arc + 1) };
}

function goalOf(world: WorldModel, storyKey: number, arc: number): string {
  const g: Genre = world.genre;
  const rng = new Rng(mixSeed(storyKey, 'arc', arc));
  // The story's own order through the templates: consecutive arcs never share one.
  const template = GOALS[(mixSeed(storyKey, 'arcs') + arc) % GOALS.length] as string;
  const faction = world.factions.length > 0 ? rng.pick(world.factions) : rng.pick(g.factions);
  // The world's own dangers first (a goal is the story's refrain: a stock danger would be the
  // story's stock phrase); never the faction the goal also names ("who in X stands behind X").
  const own = ((world as { material?: WorldMaterial | null }).material?.threats ?? []).filter(
    (t) => !template.includes('{faction}') || t.toLowerCase() !== faction.toLowerCase(),
  );
  const stock = g.threats.filter((t) => t.toLowerCase() !== faction.toLowerCase());
  return render(
    template,
    {
      threat: own.length > 0 ? rng.pick(own) : rng.pick(stock.length > 0 ? stock : g.threats),
      placeName: world.places.length > 0 ? rng.pick(world.places) : rng.pick(g.places),
      faction,
      artifact: rng.pick(g.artifacts),
    },
    8,
  );
}

/**
 * The stakes, one family per mission of the arc (chapter.ts picks a core and a modifier by chapter
 * number, as for every family: 6 × 5 combinations, so no sentence repeats within a story's 30 chapters).
 */
export const STAKES: readonly Family[] = [
  // First mission of an arc: the larger task is there, still far off.
  {
    pos: 'pre',
    cores: [
      '{name} sensed that this was only the first thread of something larger',
      'a bigger task was waiting behind this one, and {name} knew it',
      'this was where it started, though {name} could not yet see where it would end',
      'it felt like the first move in a much longer game',
      'there was more at stake here than anyone had said out loud',
      '{name} had the feeling that the real trouble had not even shown itself yet',
    ],
    mods: ['Even so,', 'Already,', 'Quietly,', 'For all that,', 'Somehow,'],
  },
  // Second: the danger grows.
  {
    pos: 'pre',
    cores: [
      'the danger was growing, and {name} could feel it closing in',
      'every hour made the stakes a little higher',
      'there would be no easy way back from here',
      'whatever was coming, it was coming faster now',
      'the people who stood in the way were no longer hiding it',
      'what had begun as a small task had become something dangerous',
    ],
    mods: ['By now,', 'And worse,', 'More and more,', 'Day by day,', 'Clearly,'],
  },
  // Third: the last step before the climax.
  {
    pos: 'pre',
    cores: [
      'everything came down to this last stretch',
      'one mistake now and all of it would be for nothing',
      'the end was close, and {name} could feel it',
      'there was no more time to waste: it would be decided soon',
      'all the roads of the past days were meeting in one place',
      'the final test was near, and there would be no second chance',
    ],
    mods: ['Now,', 'At last,', 'This time,', 'From here on,', 'Above all,'],
  },
];

const STEP_DONE = [
  'It was one more step toward the real task: to {goal}',
  '{name} could see how it all connected: each step led toward one end, to {goal}',
  'The larger goal was clearer now: to {goal}',
  'And it brought {name} nearer to what truly mattered: to {goal}',
];

const CLIMAX = [
  ['It all came down to this moment', 'This was what every step had been building toward', 'Everything had led here'],
  [
    '{name} stood firm when it mattered most, and did not look away',
    '{name} gave it everything {they} had, and it was enough',
    'For one long breath it could have gone either way; then {name} won through',
  ],
  [
    'When it was over, the greater task was finished: {name} had found a way to {goal}',
    'At last the long road was behind {them}: {name} had found a way to {goal}',
  ],
  ['But one ending opened another road: now {name} had to {nextGoal}', 'Yet a new trouble was already stirring, and the next task was plain: to {nextGoal}'],
];

const OPENING = ['And beyond it lay a greater task: to {goal}', 'In time, {name} would have to {goal}', 'Somewhere ahead waited a harder task: to {goal}'];

const pick = (list: readonly string[], n: number) => list[((n % list.length) + list.length) % list.length] as string;

/**
 * After a mission that is not the arc's last: how it leads on. Picked by the step (the goal differs
 * from arc to arc), so no two missions of a story say it alike.
 */
export function stepDoneLine(arc: Arc, slots: Slots, level: number): string {
  return render(pick(STEP_DONE, arc.arc + arc.step), slots, level, { goal: `\u0004${arc.goal}\u0005` });
}

/** The climax: the arc's goal met, and the next arc's goal. Picked by arc: each climax reads its own way. */
export function climaxLines(arc: Arc, slots: Slots, level: number): string[] {
  return CLIMAX.map((variants) => render(pick(variants, arc.arc), slots, level, { goal: `\u0004${arc.goal}\u0005`, nextGoal: `\u0004${arc.nextGoal}\u0005` }));
}

/** The opening chapter names the first arc's goal. */
export function openingArcLine(arc: Arc, seed: number, slots: Slots, level: number): string {
  return render(pick(OPENING, seed), slots, level, { goal: `\u0004${arc.goal}\u0005` });
}

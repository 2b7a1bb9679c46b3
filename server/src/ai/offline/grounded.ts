/**
 * The world a story is written in, grounded in its own material (issue 32): the world's named people,
 * places, factions and threats come first, the genre's stock pools only fill in, and nothing from a
 * pool that the world rules out (a sky under forty kilometres of ice, a brand from another fiction,
 * magic in a world without any) is kept. Invented people get unique first names that are not the
 * hero's, and never the hero's surname.
 */
import type { WorldMaterial } from '../story-ai';
import { breaksWorld, constraintKeys, type ConstraintKey } from '../world-material';
import type { Genre } from './genres';
import { Rng, mixSeed } from './prng';
import { inventPlace, readWorld, shortName, TITLES, type WorldModel } from './world-model';

export interface GroundedWorld extends WorldModel {
  /** What the world rules out: every stock phrase is checked against these. */
  constraints: ConstraintKey[];
  /** The material it was grounded in (absent: the description alone). */
  material: WorldMaterial | null;
}

/** Clauses for a world with no sky (they stand where a sky clause would). */
const ENCLOSED = [
  'the lights dimmed to their night cycle',
  'somewhere far above, the ice groaned and settled',
  'the walls ticked as the pressure shifted',
  'the dark beyond the ports was absolute',
  'a pump laboured somewhere below the floor',
  'the air vents sighed and fell quiet',
  'frost crept along the inside of the viewport',
  'a faint glow pulsed in the black water outside',
];

const groundedCache = new Map<string, GroundedWorld>();

/** The grounded world of a story (memoised: every chapter of a story asks for the same one). */
export function groundedWorld(description: string, material: WorldMaterial | null | undefined, heroName: string): GroundedWorld {
  const key = `${description}\u0000${heroName}\u0000${material ? JSON.stringify(material) : ''}`;
  const hit = groundedCache.get(key);
  if (hit) return hit;
  const g = ground(readWorld(description), material ?? null, heroName);
  if (groundedCache.size > 200) groundedCache.delete(groundedCache.keys().next().value as string);
  groundedCache.set(key, g);
  return g;
}

function ground(base: WorldModel, material: WorldMaterial | null, heroName: string): GroundedWorld {
  const keys = constraintKeys(material ?? undefined);
  const ok = (s: string) => !breaksWorld(s, keys);
  const keep = (pool: readonly string[], fallback: readonly string[]) => {
    const kept = pool.filter(ok);
    return kept.length > 0 ? kept : fallback.filter(ok).length > 0 ? fallback.filter(ok) : [...fallback];
  };
  const src = base.genre;
  // A world that names its dangers is threatened by those; the genre's stock ones only fill a gap.
  const own = material?.threats ?? [];
  const threats = own.length >= 2 ? own : [...own, ...src.threats.filter(ok)];
  const genre: Genre = {
    ...src,
    places: keep(src.places, ['the narrow passage', 'the old storeroom']),
    sky: keys.includes('noSky') ? ENCLOSED : keep(src.sky, ['the light changed by slow degrees']),
    sensory: keep(src.sensory, ['a silence that pressed on the ears']),
    threats: threats.length > 0 ? threats : ['whatever waited in the dark'],
    allies: keep(src.allies, ['a stranger']),
    artifacts: keep(src.artifacts, ['a sealed letter']),
    oaths: keep(src.oaths, ['Hold fast']),
    factions: material?.factions?.length ? material.factions : src.factions.filter(ok),
    missions: keep(src.missions, ['Find out who stands behind {threat}']),
  };

  const hero = heroName.trim().split(/\s+/);
  const heroFirst = shortName(heroName);
  const heroLast = hero.length > 1 ? (hero[hero.length - 1] as string) : '';
  const people: string[] = [];
  const firstNames = new Set<string>([heroFirst]);
  const surnames = new Set<string>(heroLast ? [heroLast] : []);
  const addPerson = (p: string) => {
    const words = p.split(/\s+/);
    const first = shortName(p);
    const last = words[words.length - 1] as string;
    // Never a bare title ("Dr.", "Director"), never two people with one first name, never the hero's surname.
    if (words.every((w) => TITLES.has(w.toLowerCase().replace(/\.$/, '')))) return;
    // Invented people never share a surname either (two Ashgraves read as kin the story never made).
    if (firstNames.has(first) || (words.length > 1 && surnames.has(last))) return;
    firstNames.add(first);
    if (words.length > 1) surnames.add(last);
    people.push(p);
  };
  const named = new Set(base.namedInText);
  for (const p of material?.people ?? []) addPerson(p);
  for (const p of base.people) if (!material || !named.has(p)) addPerson(p);
  const rng = new Rng(mixSeed(base.key, heroName, 'cast'));
  for (let i = 0; people.length < 6 && i < 60; i++) addPerson(`${rng.pick(src.firstNames)} ${rng.pick(src.lastNames)}`);

  // The world's own places; invented ones only when it names too few to travel between.
  const places = [...(material?.places ?? []), ...base.places.filter((p) => named.has(p))].filter((p, i, all) => all.indexOf(p) === i);
  const placeRng = new Rng(mixSeed(base.key, 'places'));
  for (let i = 0; places.length < 3 && i < 30; i++) {
    const p = inventPlace(src, placeRng);
    if (!places.includes(p) && ok(p)) places.push(p);
  }
  const factions = genre.factions.length > 0 ? genre.factions : base.factions;
  return { ...base, genre, people, places, factions, constraints: keys, material };
}

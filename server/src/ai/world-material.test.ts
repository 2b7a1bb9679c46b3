/**
 * A world's own material (issue 32): what the featured worlds name is read back as people, places,
 * factions and threats; what a world rules out becomes a constraint; the player's answers are kept
 * with the questions they answer.
 */
import { FEATURED_WORLDS } from '../db/seed-data';
import { breaksWorld, buildWorldMaterial, constraintKeys } from './world-material';

const world = (name: string) => {
  const w = FEATURED_WORLDS.find((x) => x.name === name);
  if (!w) throw new Error(name);
  return w;
};

describe('buildWorldMaterial', () => {
  it("reads Hollowmere's own manor, vicar, choir and dangers, and a saint's chapel as a place", () => {
    const m = buildWorldMaterial(world('Hollowmere'));
    expect(m.places).toEqual(expect.arrayContaining(['Ravenscar Hall', 'the chapel of Saint Ebba']));
    expect(m.people).toEqual(['Vicar Thorne']);
    expect(m.factions).toEqual(expect.arrayContaining(['the Drowned Choir', 'the Ashworths']));
    expect(m.threats).toEqual(expect.arrayContaining(['the Drowned Choir']));
    expect(m.tone).toEqual(expect.arrayContaining(['gothic', 'dread']));
  });

  it('a station under forty kilometres of ice has no sky; its director is a person, not a title', () => {
    const m = buildWorldMaterial(world('The Glass Reef'));
    expect(constraintKeys(m)).toEqual(expect.arrayContaining(['noSky', 'noMagic']));
    expect(m.people).toEqual(['Director Imani Oduya']);
    expect(breaksWorld('dust storms crawled along the skyline', constraintKeys(m))).toBe(true);
    expect(breaksWorld('the hum of air scrubbers', constraintKeys(m))).toBe(false);
  });

  it('a sunken city inside a world is not a world under water; a drowned city is a place, not a person', () => {
    const m = buildWorldMaterial(world('The Drowned Expanse'));
    expect(constraintKeys(m)).not.toContain('noSky');
    expect(m.places).toContain('the city of Old Marisol');
    expect(m.people).not.toContain('Marisol');
  });

  it('a name that begins with an adjective keeps it in mid-sentence: "the High Throne of Lys", not "the Throne of Lys"', () => {
    const m = buildWorldMaterial(world('Aethermoor'));
    expect(m.places).toContain('the High Throne of Lys');
    expect(m.places).not.toContain('the Throne of Lys');
  });

  it('one person per name: a title and a full name of the same person are one', () => {
    expect(buildWorldMaterial(world('Saltbone Crossing')).people).toEqual(['Marshal Eliza Crane']);
    expect(buildWorldMaterial(world('Throne of Nine Suns')).people).toEqual(['Empress Solenne IX']);
  });

  it('a megacity of corporations has no magic, and no brand from another fiction passes', () => {
    const m = buildWorldMaterial(world('Neon Requiem'));
    expect(constraintKeys(m)).toContain('noMagic');
    expect(m.factions).toEqual(['Hoshida Biotech', 'Castellan Security', 'Veridian Data']);
    expect(breaksWorld('Arasaka-grade security', constraintKeys(m))).toBe(true);
  });

  it("keeps the player's answers with the questions they answer, and drops blank ones", () => {
    const w = world('Hollowmere');
    const m = buildWorldMaterial({ ...w, answers: ['A letter from my dead sister', '', 'Salt on every sill'] });
    expect(m.answers).toEqual([
      { question: w.questions[0], answer: 'A letter from my dead sister' },
      { question: w.questions[2], answer: 'Salt on every sill' },
    ]);
    expect(buildWorldMaterial(w).answers).toBeUndefined();
  });
});

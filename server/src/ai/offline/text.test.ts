/**
 * Templates filled with the world's names (issue 32): a family or faction named in the plural ("the
 * Ashworths", "the Reclaimers") takes a plural verb and a plural possessive; one named in the singular
 * ("the Drowned Choir") keeps the template's words.
 */
import { GENRES } from './genres';
import { render } from './text';

describe('render', () => {
  it.each([
    ['Win {npc} over before {faction} does', 'the Ashworths', 'Win Draven over before the Ashworths do'],
    ['Find out what {faction} wants with {placeName}', 'the Reclaimers', 'Find out what the Reclaimers want with Ravenscar Hall'],
    ['Bring proof of what {faction} is hiding to {npc}', 'the Ashworths', 'Bring proof of what the Ashworths are hiding to Draven'],
    ["break {faction}'s hold over {placeName}", 'the Ashworths', "break the Ashworths' hold over Ravenscar Hall"],
    ['find out who in {faction} stands behind it', 'the Ashworths', 'find out who in the Ashworths stands behind it'],
    ['Find out what {faction} wants with {placeName}', 'the Drowned Choir', 'Find out what the Drowned Choir wants with Ravenscar Hall'],
    ['{faction} was there first', 'the Thorn Court', 'the Thorn Court was there first'],
    ['{faction} was there first', 'the Ashworths', 'the Ashworths were there first'],
    // A danger from the genre's pool, many by its head noun.
    ['they say {faction} is waiting', "a railroad baron's hired guns", "they say a railroad baron's hired guns are waiting"],
    ['{faction} has been closer than anyone admits', 'the hounds of the underworld', 'the hounds of the underworld have been closer than anyone admits'],
    [
      '{faction} has been closer than anyone admits',
      'a troll who guards the toll roads',
      'a troll who guards the toll roads has been closer than anyone admits',
    ],
    ['{faction} is about', 'the thing in the water', 'the thing in the water is about'],
    ['{faction} has been closer than anyone admits', 'the dead', 'the dead have been closer than anyone admits'],
  ])('%s with %s', (template, faction, out) => {
    expect(render(template, { faction, npc: 'Draven', placeName: 'Ravenscar Hall' }, 8)).toBe(out);
  });
});

describe('the genres’ people and dangers', () => {
  // They are said in speech too ("watch a troll who guarded the toll road, because…"), where the
  // narration's tense is not applied: a standing fact about them is in the present.
  it('carry no past-tense clause', () => {
    const past = /\b(?:who|that) (?:had \w+|\w+ed|knew|saw|took|was|were)\b/;
    const found = GENRES.flatMap((g) => [...g.threats, ...g.allies].filter((x) => past.test(x)).map((x) => `${g.id}: ${x}`));
    expect(found).toEqual([]);
  });
});

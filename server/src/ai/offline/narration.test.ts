/**
 * Point of view and tense offline (issue 32): second person present by default, first person past,
 * third person past by name — sentence by sentence, and over whole 30-chapter stories.
 */
import { FEATURED_WORLDS } from '../../db/seed-data';
import type { PointOfView } from '../story-ai';
import { pastOf } from './answer';
import { HERO, narrate } from './narration';
import { EXTRA_VERBS, KIND_VERBS } from './text';
import { OfflineStoryAI } from './offline-story-ai';
import { playOfflineStory } from './test-worlds';

const names = ['Edmund Hale', 'Edmund'];
const second = (s: string) => narrate(s, 'second', names);

describe('narrate', () => {
  it.each([
    [`Edmund wiped the grime from ${HERO.their} face and pressed on.`, 'You wipe the grime from your face and press on.'],
    [`${HERO.they} had a gift called Blood-craft.`, 'You have a gift called Blood-craft.'],
    ['Thorne was small, and most people in Ravenscar Hall knew it.', 'Thorne is small, and most people in Ravenscar Hall know it.'],
    ['Edmund recalled an old tale, and frowned at the memory.', 'You recall an old tale, and frown at the memory.'],
    ['Before long, Garran called Edmund’s name.', 'Before long, Garran calls your name.'],
    ['Little went as planned, and yet it half worked.', 'Little goes as planned, and yet it half works.'],
    [`Something in ${HERO.them} had changed, and Amos noticed it too.`, 'Something in you has changed, and Amos notices it too.'],
    ['The door slammed shut behind Edmund, and the stars were hidden.', 'The door slams shut behind you, and the stars are hidden.'],
    ['Edmund stopped, tried the latch, and hoped.', 'You stop, try the latch, and hope.'],
    // Slips seen in whole stories: an inverted "neither did", a manner after a speech tag, adjectives
    // after "if not", and the hero as the object of a relative clause ahead of the sentence's verb.
    ['Thorne did not need to be told, and neither did Edmund.', 'Thorne does not need to be told, and neither do you.'],
    ['Thorne had not forgotten it, and nor had Edmund.', 'Thorne has not forgotten it, and nor have you.'],
    ['“Well,” Imani said, amused.', '“Well,” Imani says, amused.'],
    ['Thorne seemed, if not pleased, at least satisfied.', 'Thorne seems, if not pleased, at least satisfied.'],
    [`The purpose that had carried ${HERO.them} this far had not changed.`, 'The purpose that has carried you this far has not changed.'],
    [
      'Above Edmund, dust devils walked across the plain, and everything went quiet.',
      'Above you, dust devils walk across the plain, and everything goes quiet.',
    ],
    ['Abigail wore black, neatly mended.', 'Abigail wears black, neatly mended.'],
    ['Edmund remembered the day Edmund first came to Lune.', 'You remember the day you first come to Lune.'],
    ['What the data core told Edmund was worth the asking.', 'What the data core tells you is worth the asking.'],
    // Slips found in played stories (issue 32): a relative clause agrees with the noun it follows,
    // the sentence's own verb after a relative clause is in the present too, a family or a faction
    // named in the plural is plural, and a subject after its verb decides the verb.
    ['And out of the dark came footsteps that stopped when Edmund stopped.', 'And out of the dark come footsteps that stop when you stop.'],
    ['Then, in the dark, a sound: footsteps that stopped when Edmund stopped.', 'Then, in the dark, a sound: footsteps that stop when you stop.'],
    ['Those who knew Edmund called Edmund curious, and wary as well.', 'Those who know you call you curious, and wary as well.'],
    ['Edmund met a troll who guarded the toll road.', 'You meet a troll who guards the toll road.'],
    ['Near the gate stood a troll who guarded the toll road.', 'Near the gate stands a troll who guards the toll road.'],
    ['The Ashworths had been at the chapel before Edmund.', 'The Ashworths have been at the chapel before you.'],
    ['Word of it reached the Reclaimers, and the Reclaimers were not pleased.', 'Word of it reaches the Reclaimers, and the Reclaimers are not pleased.'],
    ['Someone in the Ashworths was paying for silence.', 'Someone in the Ashworths is paying for silence.'],
    ['Edmund took stock of what was left, then nodded to Edmund.', 'You take stock of what is left, then nod to you.'],
    ['It was frightening, but Edmund was curious, and pressed on.', 'It is frightening, but you are curious, and press on.'],
    ['It all came down to this moment; Edmund stood firm.', 'It all comes down to this moment; you stand firm.'],
    ['It was frightening, but Edmund was curious, which was just as well.', 'It is frightening, but you are curious, which is just as well.'],
    ['Edmund heard the hum of old wards in the stones, which was not a good sign.', 'You hear the hum of old wards in the stones, which is not a good sign.'],
    ['Somewhere nearby, a hedge-witch who asks no questions was arguing loudly.', 'Somewhere nearby, a hedge-witch who asks no questions is arguing loudly.'],
    ['The Drowned Choir had a friend where Edmund least expected one.', 'The Drowned Choir has a friend where you least expect one.'],
    // A subordinate clause's subject is not the one a clause after the comma goes on with.
    ['Edmund stood firm when it mattered most, and did not look away.', 'You stand firm when it matters most, and do not look away.'],
    ['When it mattered most, Edmund stood firm, and did not look away.', 'When it matters most, you stand firm, and do not look away.'],
    [
      'Thorne kept both hands where they could be seen, and did not seem to know it.',
      'Thorne keeps both hands where they can be seen, and does not seem to know it.',
    ],
    ['“Fine,” Corvin grunted, arms crossed.', '“Fine,” Corvin grunts, arms crossed.'],
    ['Edmund completed the task.', 'You complete the task.'],
    // Read in a 30-chapter Hollowmere story (issue 32): "that" after "and" is a clause's own subject.
    ['Edmund now had a real lead, and that was not nothing.', 'You now have a real lead, and that is not nothing.'],
    ['Edmund now had a lead, but that was all.', 'You now have a lead, but that is all.'],
    // A name ending in -s after a comma is one person ("Elias breathe" was read in a story).
    [
      'Beside Edmund, Tomas questioned the innkeeper, and Mira searched the cellar.',
      'Beside you, Tomas questions the innkeeper, and Mira searches the cellar.',
    ],
    ['Later, Elias breathed out.', 'Later, Elias breathes out.'],
  ])('second person present: %s', (from, to) => {
    expect(second(from)).toBe(to);
  });

  it('every verb a player types comes back in the present after the storyteller put it in the past', () => {
    const verbs = [...new Set([...Object.values(KIND_VERBS).flat(), ...EXTRA_VERBS])].filter((v) => !v.includes(' ') && v !== 'be');
    const wrong = verbs.filter((v) => second(`Edmund ${pastOf(v)} the thing.`) !== `You ${v} the thing.`);
    expect(wrong).toEqual([]);
  });

  it('leaves speech as it was spoken, and an objective as the player reads it', () => {
    expect(second('“Edmund, you came,” Thorne said.')).toBe('“Edmund, you came,” Thorne says.');
    expect(second('Edmund kept the task in mind: \u0004find out what the presence took\u0005.')).toBe(
      'You keep the task in mind: find out what the presence took.',
    );
  });

  it('a sentence that starts with the hero mid-line starts with a capital (a recalled memory after its frame)', () => {
    expect(second('Some of it had happened before. Edmund asked the nearest stranger about the chapel; Edmund waited... nobody came.')).toBe(
      'Some of it has happened before. You ask the nearest stranger about the chapel; you wait... nobody comes.',
    );
  });

  it('first person past: I for the subject, me for the object, my for the possessive', () => {
    expect(narrate(`Garran called Edmund’s name and handed Edmund ${HERO.their} knife; Edmund thanked him.`, 'first', names)).toBe(
      'Garran called my name and handed me my knife; I thanked him.',
    );
  });

  it('third person past by name: the text as composed', () => {
    expect(narrate(`Edmund wiped ${HERO.their} face.`, 'third', names)).toBe('Edmund wiped their face.');
  });
});

describe('whole stories keep their point of view', () => {
  const hero = {
    name: 'Edmund Hale',
    description: 'A clerk.',
    stats: { strength: 9, agility: 10, endurance: 10, intellect: 13, wisdom: 12, charisma: 9 },
    traits: ['Wary', 'Kind'],
  };
  const play = (world: (typeof FEATURED_WORLDS)[number], pointOfView?: PointOfView) =>
    playOfflineStory(new OfflineStoryAI(), {
      world,
      hero,
      chapters: 30,
      seed: 9,
      ...(pointOfView ? { pointOfView } : {}),
      choose: (n, last) => (last ? (last.choices[n % last.choices.length] as string) : null),
    });
  const narration = (text: string) => text.replace(/“[^”]*”/g, '');

  it.each(['Hollowmere', 'The Glass Reef', 'Neon Requiem', 'Saltbone Crossing'])('%s: second person present by default, over 30 chapters', async (name) => {
    const story = await play(FEATURED_WORLDS.find((w) => w.name === name) as (typeof FEATURED_WORLDS)[number]);
    const text = narration(story.chapters.map((c) => c.result.text).join('\n'));
    expect(text).not.toMatch(/\bEdmund\b/);
    const sentences = text.split(/(?<=[.!?])\s+/);
    // Past tense left in the narration: at most one sentence in fifty.
    const past = sentences.filter((s) => /\b(?:was|were|had|did)\b/.test(s));
    expect(past.length / sentences.length).toBeLessThanOrEqual(0.02);
    expect(sentences.filter((s) => /\byou\b/i.test(s)).length / sentences.length).toBeGreaterThan(0.4);
  });

  it('first person past and third person past when the player chose them', async () => {
    const world = FEATURED_WORLDS[3] as (typeof FEATURED_WORLDS)[number];
    const first = narration((await play(world, 'first')).chapters.map((c) => c.result.text).join('\n'));
    expect(first).toMatch(/\bI (?:was|had|stood|noticed)\b/);
    expect(first).not.toMatch(/\bEdmund\b|\byou (?:are|have)\b/);
    const third = narration((await play(world, 'third')).chapters.map((c) => c.result.text).join('\n'));
    expect(third).toMatch(/\bEdmund (?:was|had)\b/);
    expect(third).not.toMatch(/\u0002/);
  });
});

/**
 * The storyteller's sentence families, rendered at every reading level: slips a reader of played
 * stories found ("you find Rowan there Rowan", "one more piece of the puzzle fit" in the present).
 */
import * as T from './chapter-templates';
import type { Family } from './chapter-templates';
import { narrate } from './narration';
import { render } from './text';

const families = Object.entries(T).filter((e): e is [string, Family] => typeof e[1] === 'object' && e[1] !== null && 'cores' in e[1] && 'mods' in e[1]);
const slots = new Proxy({ name: 'Edmund', npcFull: 'Rowan Vale', npc: 'Rowan' } as Record<string, string>, {
  get: (t, k: string) => t[k] ?? `${k}-slot`,
});

describe('sentence families', () => {
  it('are many', () => expect(families.length).toBeGreaterThan(15));

  // A chapter is filled out with these; a family's core comes round once in as many chapters as it
  // has cores. With five, "you wipe the grime from your face" and "you recall an old tale" were each
  // in 6–8 of a story's 30 chapters (lint:story: no 4-word phrase in more than 25%).
  it.each(['SENSORY', 'PLACE', 'INNER', 'BODY', 'MEMORY', 'PLAN', 'ASIDE', 'WEATHER'] as const)(
    'the texture family %s has cores enough that none comes round in more than 4 of 30 chapters',
    (name) => expect([name, T[name].cores.length >= 8]).toEqual([name, true]),
  );
  // Their modifiers too: with six, "then let the memory fade", "for good or ill" and "which feels
  // like an omen" were each in 6 of a story's 30 chapters.
  it.each(['SENSORY', 'PLACE', 'INNER', 'BODY', 'MEMORY', 'SKY'] as const)('the texture family %s has 8 modifiers or more', (name) =>
    expect([name, T[name].mods.length >= 8]).toEqual([name, true]),
  );

  // Every chapter ends on a hook. Under the ice (no sky: no light going, no wind, no night) the hooks
  // that remained were few, and "and no one else came" closed 7–8 of a Glass Reef story's chapters.
  it('the hook has at least 8 modifiers that any world allows', () => {
    expect(T.HOOK.mods.filter((m) => !/\b(?:light|wind|night|sky|sun)\b/.test(m)).length).toBeGreaterThanOrEqual(8);
  });

  // Read in a lint:story dump: "You look toward the Red Canyon for now, at least" (and a hook that
  // begins "Now you have to choose" cannot end "for now").
  it('no hook says "now" twice', () => {
    for (const core of T.HOOK.cores)
      for (const mod of T.HOOK.mods) {
        const text = narrate(render(`${core}${mod}`, slots, 6), 'second', ['Edmund']);
        expect([text, /\bnow\b.*\bfor now\b/i.test(text)]).toEqual([text, false]);
      }
  });

  it.each([2, 6, 10])('at reading level %i: nobody is named twice in one core', (level) => {
    for (const [family, f] of families)
      for (const core of f.cores) {
        const text = render(core, slots, level);
        expect([family, text, text.split('Rowan').length - 1 <= 1]).toEqual([family, text, true]);
      }
  });

  it('a person who is gone does not wait in the same sentence', () => {
    const gone = T.HOOK.cores.filter((c) => c.includes('no sign of {npc}'));
    const waits = T.HOOK.mods.filter((m) => m.includes('{npc}'));
    expect(gone.length * waits.length).toBeGreaterThan(0);
    for (const c of gone) for (const m of waits) expect(T.clashes(c, m)).toBe(true);
  });

  it.each([2, 6, 10])('at reading level %i: every core told in the present has no past verb left', (level) => {
    for (const [family, f] of families)
      for (const core of f.cores) {
        const text = narrate(render(core, slots, level), 'second', ['Edmund']);
        expect([family, text, /\b(?:fit)\b/.test(text)]).toEqual([family, text, false]);
      }
  });
});

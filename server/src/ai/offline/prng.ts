/**
 * Seeded randomness for the offline storyteller. Math.random is never used: the same inputs must give
 * the same story on every machine (tests, replays, and "regenerate" being a deliberate new seed).
 */

// Bound once for the module: a global lookup per call is slow in a vm context (jest), and these run
// per pixel when pictures are painted (see image.ts).
const { floor, imul } = Math;

/** xmur3 string hash → 32-bit seed (Bryc's public-domain mixer). */
export function hashString(str: string, seed = 0x9e3779b9): number {
  let h = (1779033703 ^ str.length ^ seed) >>> 0;
  for (let i = 0; i < str.length; i++) {
    h = imul(h ^ str.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = imul(h ^ (h >>> 16), 2246822507);
  h = imul(h ^ (h >>> 13), 3266489909);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Combines several values into one 32-bit seed. */
export function mixSeed(...parts: Array<string | number>): number {
  return hashString(parts.map(String).join('\u241f'));
}

/** mulberry32: tiny, fast, good enough statistical quality for storytelling. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(maxExclusive: number): number {
    return floor(this.next() * maxExclusive);
  }
  range(min: number, maxInclusive: number): number {
    return min + this.int(maxInclusive - min + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from empty list');
    return items[this.int(items.length)] as T;
  }
  /** k distinct items (or all of them if fewer). */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffle(items).slice(0, k);
  }
  shuffle<T>(items: readonly T[]): T[] {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [a[i], a[j]] = [a[j] as T, a[i] as T];
    }
    return a;
  }
  fork(label: string | number): Rng {
    return new Rng(mixSeed(this.state, label));
  }
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * A bijection over [0, n) chosen by `key`: i ↦ (a·i + b) mod n with gcd(a, n) = 1. Used to schedule
 * template variants by chapter number so that n consecutive chapters never reuse a variant — the
 * structural reason a story does not repeat a sentence verbatim for at least n chapters.
 */
export function affinePermutation(key: number, n: number): (i: number) => number {
  if (n <= 1) return () => 0;
  let a = 1 + (key % (n - 1));
  while (gcd(a, n) !== 1) a = (a % (n - 1)) + 1;
  const b = (key >>> 8) % n;
  return (i: number) => (((a * i + b) % n) + n) % n;
}

/**
 * Variant indices for turn `turn` over lists of the given sizes (a family's cores and modifiers, a
 * line's opener, closer and tag): any prod(sizes) consecutive turns get distinct combinations (no
 * sentence repeats verbatim), and every list cycles fast — each of its entries comes round once in
 * every `size` turns or so. (A permutation of the whole product read in mixed radix does not: with a
 * small step its high digits change slowly, and one modifier filled a third of a story.)
 *
 * How: with the turn's mixed-radix digits d0, d1, …, list k takes (d0 + … + dk) mod size_k. d0 moves
 * every turn, so every list does; and (d0, d1, …) ↦ (d0, d0 + d1, …) is a bijection (each digit is
 * recovered from the sums in turn). Each list's entries are then relabelled by a permutation keyed by
 * `key`, so stories differ.
 */
export function spreadIndices(key: number, turn: number, sizes: readonly number[]): number[] {
  const n = sizes.reduce((a, x) => a * Math.max(1, x), 1);
  let j = (((turn + (key % n)) % n) + n) % n;
  let sum = 0;
  return sizes.map((size, k) => {
    const s = Math.max(1, size);
    sum += j % s;
    j = floor(j / s);
    return affinePermutation(mixSeed(key, k), s)(sum % s);
  });
}

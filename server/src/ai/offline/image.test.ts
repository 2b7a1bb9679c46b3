import sharp from 'sharp';
import { renderWorldImage } from './image';
import { readWorld } from './world-model';

// The issue: "The Horror and Dark-fantasy procedural art is nearly identical." Two worlds of each genre
// are painted with the same seeds and compared small (64×36, what a glance at two cards takes in).
const HORROR = [
  'A haunted mansion at the edge of a fog-bound town, where the occult society meets in the cellar and ghosts whisper in the walls.',
  'A nightmare asylum on the moor: patients scream at night, a creature stalks the flooded cellar, and the dread never lifts.',
];
const DARK_FANTASY = [
  'A cursed kingdom of plague and rot, ruled by a necromancer tyrant whose undead legions burn the last free villages.',
  'A grimdark realm of blood and ash where fallen knights serve a demon, and witches barter souls for one more winter.',
];

async function thumbnail(description: string, seed: number): Promise<Buffer> {
  const { bytes } = await renderWorldImage(description, seed);
  return sharp(bytes).resize(64, 36, { fit: 'fill' }).removeAlpha().raw().toBuffer();
}

/** Mean per-pixel colour distance (RGB, 0–441) between two thumbnails. */
function pixelDistance(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 3) sum += Math.hypot(a[i]! - b[i]!, a[i + 1]! - b[i + 1]!, a[i + 2]! - b[i + 2]!);
  return sum / (a.length / 3);
}

function meanColor(a: Buffer): [number, number, number] {
  const m = [0, 0, 0];
  for (let i = 0; i < a.length; i += 3) for (let c = 0; c < 3; c++) m[c]! += a[i + c]!;
  return m.map((v) => v / (a.length / 3)) as [number, number, number];
}

describe('procedural world art', () => {
  it('reads the test worlds as the genres they are meant to be', () => {
    for (const d of HORROR) expect(readWorld(d).genre.id).toBe('horror');
    for (const d of DARK_FANTASY) expect(readWorld(d).genre.id).toBe('darkFantasy');
  });

  it('paints horror and dark fantasy distinctly: different overall colour, and different pixel by pixel', async () => {
    const distances: number[] = [];
    const overall: number[] = [];
    for (const seed of [1, 2]) {
      for (const h of HORROR) {
        for (const d of DARK_FANTASY) {
          const [a, b] = await Promise.all([thumbnail(h, seed), thumbnail(d, seed)]);
          distances.push(pixelDistance(a, b));
          const [ma, mb] = [meanColor(a), meanColor(b)];
          overall.push(Math.hypot(ma[0] - mb[0], ma[1] - mb[1], ma[2] - mb[2]));
        }
      }
    }
    // Measured before the fix (both dark, dead trees under a moon): pixels 31–35 apart, mean colours
    // 20–23 apart. After it (a white fog-bound day against a red night): ~150 for both.
    expect(Math.min(...distances)).toBeGreaterThan(70);
    expect(Math.min(...overall)).toBeGreaterThan(60);
  });
});

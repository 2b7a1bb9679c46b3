/**
 * Procedural world art: a raw RGB canvas painted back to front — sky gradient, stars, sun or moon
 * with a glow, far and near landforms from seeded 1-D noise with atmospheric haze, genre silhouettes
 * (castles, pines, skylines, ships, mesas, temples…), then a vignette — encoded as JPEG by sharp.
 * 1024×576 at quality 82 lands around 40–120 KB; we step quality down if it ever exceeds 200 KB.
 */
import { sharp } from '../../common/lazy-modules';
import type { Genre, Motif } from './genres';
import { Rng, mixSeed } from './prng';
import { readWorld } from './world-model';

// Math's functions bound once for the module: under jest each test file runs in a vm context, where
// every lookup of a global such as `Math` goes through the context's interceptor. Per pixel that made
// a picture take ~3 s instead of ~0.2 s (and the test database's seeding ~40 s); the output is the same.
const { ceil, floor, hypot, max, min, sin, sqrt } = Math;

export const IMAGE_WIDTH = 1024;
export const IMAGE_HEIGHT = 576;
export const IMAGE_MAX_BYTES = 200 * 1024;

type Color = [number, number, number];

function hex(c: string): Color {
  const h = c.replace('#', '');
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}
function mix(a: Color, b: Color, t: number): Color {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

class Canvas {
  readonly data: Buffer;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {
    this.data = Buffer.alloc(w * h * 3);
  }
  set(x: number, y: number, c: Color, alpha = 1): void {
    if (x < 0 || y < 0 || x >= this.w || y >= this.h) return;
    const i = ((y | 0) * this.w + (x | 0)) * 3;
    const d = this.data;
    if (alpha >= 1) {
      d[i] = c[0];
      d[i + 1] = c[1];
      d[i + 2] = c[2];
    } else {
      d[i] = (d[i] as number) + (c[0] - (d[i] as number)) * alpha;
      d[i + 1] = (d[i + 1] as number) + (c[1] - (d[i + 1] as number)) * alpha;
      d[i + 2] = (d[i + 2] as number) + (c[2] - (d[i + 2] as number)) * alpha;
    }
  }
  rect(x0: number, y0: number, x1: number, y1: number, c: Color, alpha = 1): void {
    const xa = max(0, floor(min(x0, x1)));
    const xb = min(this.w, ceil(max(x0, x1)));
    const ya = max(0, floor(min(y0, y1)));
    const yb = min(this.h, ceil(max(y0, y1)));
    for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) this.set(x, y, c, alpha);
  }
  circle(cx: number, cy: number, r: number, c: Color, alpha = 1): void {
    for (let y = floor(cy - r); y <= cy + r; y++)
      for (let x = floor(cx - r); x <= cx + r; x++) {
        const d = hypot(x - cx, y - cy);
        if (d <= r) this.set(x, y, c, alpha * min(1, r - d + 0.5));
      }
  }
  glow(cx: number, cy: number, r: number, c: Color, strength: number): void {
    for (let y = max(0, floor(cy - r)); y < min(this.h, cy + r); y++)
      for (let x = max(0, floor(cx - r)); x < min(this.w, cx + r); x++) {
        const d = hypot(x - cx, y - cy) / r;
        if (d < 1) this.set(x, y, c, strength * (1 - d) * (1 - d));
      }
  }
  /** Filled triangle via barycentric test over its bounding box (shapes here are small). */
  tri(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, c: Color): void {
    const minX = max(0, floor(min(ax, bx, cx)));
    const maxX = min(this.w - 1, ceil(max(ax, bx, cx)));
    const minY = max(0, floor(min(ay, by, cy)));
    const maxY = min(this.h - 1, ceil(max(ay, by, cy)));
    const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (area === 0) return;
    for (let y = minY; y <= maxY; y++)
      for (let x = minX; x <= maxX; x++) {
        const w0 = ((bx - x) * (cy - y) - (cx - x) * (by - y)) / area;
        const w1 = ((cx - x) * (ay - y) - (ax - x) * (cy - y)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 >= 0 && w1 >= 0 && w2 >= 0) this.set(x, y, c);
      }
  }
  line(x0: number, y0: number, x1: number, y1: number, width: number, c: Color): void {
    const steps = ceil(hypot(x1 - x0, y1 - y0));
    for (let i = 0; i <= steps; i++) {
      const t = steps === 0 ? 0 : i / steps;
      this.rect(x0 + (x1 - x0) * t - width / 2, y0 + (y1 - y0) * t - width / 2, x0 + (x1 - x0) * t + width / 2, y0 + (y1 - y0) * t + width / 2, c);
    }
  }
}

/** Smooth 1-D value noise with octaves: ridge lines for mountains, hills and dunes. */
function ridge(rng: Rng, width: number, base: number, amp: number, roughness: number, octaves = 4): Float32Array {
  const out = new Float32Array(width);
  let a = amp;
  let freq = 2 + rng.int(3);
  for (let o = 0; o < octaves; o++) {
    const pts = Array.from({ length: freq + 2 }, () => rng.next() * 2 - 1);
    for (let x = 0; x < width; x++) {
      const fx = (x / width) * freq;
      const i = floor(fx);
      const t = fx - i;
      const s = t * t * (3 - 2 * t);
      out[x] = (out[x] as number) + ((pts[i] as number) * (1 - s) + (pts[i + 1] as number) * s) * a;
    }
    a *= roughness;
    freq *= 2;
  }
  for (let x = 0; x < width; x++) out[x] = base + (out[x] as number);
  return out;
}

function fillBelow(cv: Canvas, line: Float32Array, top: Color, bottom: Color, haze: Color, hazeAmt: number): void {
  for (let x = 0; x < cv.w; x++) {
    const y0 = max(0, floor(line[x] as number));
    for (let y = y0; y < cv.h; y++) {
      const t = (y - y0) / max(1, cv.h - y0);
      cv.set(x, y, mix(mix(top, bottom, t), haze, hazeAmt * (1 - t)));
    }
  }
}

function drawMotif(cv: Canvas, motif: Motif, rng: Rng, g: Genre, horizon: number): void {
  const sil = hex(g.palette.silhouette);
  const light = hex(g.palette.light);
  const W = cv.w;
  const H = cv.h;
  switch (motif) {
    case 'castle': {
      const x = W * (0.55 + rng.next() * 0.3);
      const base = horizon + 40;
      const w = 120 + rng.int(60);
      cv.rect(x - w / 2, base - 70, x + w / 2, H, sil);
      for (let i = -w / 2; i < w / 2; i += 16) cv.rect(x + i, base - 82, x + i + 9, base - 70, sil);
      for (const tx of [x - w / 2 - 10, x + w / 2 - 14, x - 12]) {
        const th = 110 + rng.int(70);
        cv.rect(tx, base - th, tx + 24, H, sil);
        cv.tri(tx - 6, base - th, tx + 30, base - th, tx + 12, base - th - 40, sil);
        cv.rect(tx + 9, base - th + 20, tx + 15, base - th + 32, light);
      }
      break;
    }
    case 'pines':
    case 'deadTrees': {
      const n = 18 + rng.int(14);
      for (let i = 0; i < n; i++) {
        const x = rng.next() * W;
        const base = H - rng.next() * 90;
        const h = 60 + rng.next() * 110;
        if (motif === 'pines') {
          cv.rect(x - 2, base - h * 0.2, x + 2, base, sil);
          for (let k = 0; k < 3; k++)
            cv.tri(
              x - h * (0.28 - k * 0.06),
              base - h * (0.15 + k * 0.25),
              x + h * (0.28 - k * 0.06),
              base - h * (0.15 + k * 0.25),
              x,
              base - h * (0.5 + k * 0.25),
              sil,
            );
        } else {
          cv.line(x, base, x + rng.next() * 10 - 5, base - h, 4, sil);
          for (let k = 0; k < 4; k++) {
            const by = base - h * (0.4 + k * 0.15);
            const dir = k % 2 === 0 ? 1 : -1;
            cv.line(x, by, x + dir * (20 + rng.next() * 30), by - 20 - rng.next() * 25, 2, sil);
          }
        }
      }
      break;
    }
    case 'skyline':
    case 'neonSkyline':
    case 'chimneys': {
      let x = -10;
      const neon: Color[] = [hex(g.palette.light), hex(g.palette.skyHorizon), [255, 60, 200]];
      while (x < W) {
        const bw = 30 + rng.int(60);
        const bh = 80 + rng.int(motif === 'chimneys' ? 120 : 220);
        const top = H - bh;
        cv.rect(x, top, x + bw, H, sil);
        if (motif === 'chimneys' && rng.chance(0.5)) {
          cv.rect(x + bw / 2 - 5, top - 60, x + bw / 2 + 5, top, sil);
          for (let k = 0; k < 5; k++) cv.circle(x + bw / 2 + k * 9, top - 70 - k * 16, 8 + k * 3, mix(sil, hex(g.palette.skyHorizon), 0.6), 0.35);
        }
        for (let wy = top + 8; wy < H - 8; wy += 14)
          for (let wx = x + 5; wx < x + bw - 8; wx += 11)
            if (rng.chance(motif === 'neonSkyline' ? 0.35 : 0.22)) cv.rect(wx, wy, wx + 5, wy + 7, motif === 'neonSkyline' ? rng.pick(neon) : light, 0.85);
        x += bw + rng.int(8);
      }
      break;
    }
    case 'mesas': {
      for (let i = 0; i < 3; i++) {
        const cx = W * (0.15 + i * 0.33 + rng.next() * 0.1);
        const w = 120 + rng.int(120);
        const top = horizon - 40 - rng.int(80);
        const c = mix(sil, hex(g.palette.near), 0.4 + i * 0.2);
        cv.rect(cx - w / 2, top, cx + w / 2, horizon + 60, c);
        cv.tri(cx - w / 2 - 40, horizon + 60, cx - w / 2, top, cx - w / 2, horizon + 60, c);
        cv.tri(cx + w / 2, horizon + 60, cx + w / 2, top, cx + w / 2 + 40, horizon + 60, c);
      }
      break;
    }
    case 'ships': {
      const n = 1 + rng.int(3);
      for (let i = 0; i < n; i++) {
        const x = W * (0.2 + rng.next() * 0.6);
        const y = horizon + 66 + rng.int(40);
        const s = 0.6 + rng.next() * 0.7;
        cv.tri(x - 70 * s, y, x + 70 * s, y, x + 50 * s, y + 20 * s, sil);
        cv.rect(x - 70 * s, y - 2, x + 50 * s, y + 8 * s, sil);
        for (const mx of [-30, 5, 38]) {
          cv.line(x + mx * s, y, x + mx * s, y - 110 * s, 2, sil);
          cv.tri(x + mx * s + 3, y - 100 * s, x + mx * s + 3, y - 35 * s, x + mx * s + 32 * s, y - 45 * s, mix(light, sil, 0.35));
        }
      }
      break;
    }
    case 'temple': {
      const x = W * (0.3 + rng.next() * 0.4);
      const base = horizon + 20;
      const w = 220;
      cv.rect(x - w / 2, base - 10, x + w / 2, base + 6, sil);
      for (let c = 0; c < 7; c++) cv.rect(x - w / 2 + 10 + c * 32, base - 95, x - w / 2 + 22 + c * 32, base - 10, sil);
      cv.rect(x - w / 2, base - 108, x + w / 2, base - 95, sil);
      cv.tri(x - w / 2 - 6, base - 108, x + w / 2 + 6, base - 108, x, base - 150, sil);
      break;
    }
    case 'ruins': {
      for (let i = 0; i < 9; i++) {
        const x = rng.next() * W;
        const h = 40 + rng.int(140);
        const base = H - rng.int(60);
        cv.rect(x, base - h, x + 14 + rng.int(20), base, sil);
        if (rng.chance(0.4)) cv.tri(x - 10, base - h, x + 30, base - h, x + 5, base - h - 15, sil);
      }
      break;
    }
    case 'domes': {
      for (let i = 0; i < 4; i++) {
        const x = W * (0.1 + rng.next() * 0.8);
        const r = 30 + rng.int(60);
        const base = H - 30 - rng.int(50);
        // Upper half-disc on a plinth: a habitat dome, not a ball.
        for (let yy = -r; yy <= 0; yy++) {
          const half = sqrt(r * r - yy * yy);
          cv.rect(x - half, base + yy, x + half, base + yy + 1, sil);
        }
        cv.rect(x - r - 6, base, x + r + 6, base + 10, sil);
        cv.rect(x - r - 6, base + 10, x + r + 6, H, mix(sil, hex(g.palette.near), 0.5));
        cv.circle(x - r * 0.3, base - r * 0.5, r * 0.15, light, 0.5);
      }
      break;
    }
    case 'dunes': {
      const line = ridge(rng.fork('dunes'), W, H - 90, 40, 0.35, 2);
      fillBelow(cv, line, mix(hex(g.palette.near), light, 0.2), hex(g.palette.near), hex(g.palette.skyHorizon), 0.1);
      break;
    }
    case 'waves': {
      const sea = mix(hex(g.palette.far), hex(g.palette.skyTop), 0.4);
      for (let y = floor(horizon + 60); y < H; y++) {
        const t = (y - horizon - 60) / (H - horizon - 60);
        for (let x = 0; x < W; x++) {
          const wave = sin(x * 0.05 + y * 0.9) * sin(y * 0.3) > 0.92 ? 0.35 : 0;
          cv.set(x, y, mix(mix(sea, sil, t * 0.6), light, wave * (1 - t)));
        }
      }
      break;
    }
    case 'planet': {
      const x = W * (0.15 + rng.next() * 0.7);
      const y = H * (0.12 + rng.next() * 0.2);
      const r = 50 + rng.int(70);
      const c = hex(g.palette.skyHorizon);
      for (let yy = -r; yy <= r; yy++) {
        const band = sin(yy * 0.25) * 0.15;
        for (let xx = -r; xx <= r; xx++) if (xx * xx + yy * yy <= r * r) cv.set(x + xx, y + yy, mix(c, sil, 0.3 + band + (xx / r) * 0.3));
      }
      break;
    }
    case 'airships': {
      const n = 1 + rng.int(3);
      for (let i = 0; i < n; i++) {
        const x = W * (0.1 + rng.next() * 0.8);
        const y = horizon * (0.2 + rng.next() * 0.45);
        const s = 0.5 + rng.next() * 0.8;
        const rx = 90 * s;
        const ry = 28 * s;
        for (let yy = -ry; yy <= ry; yy++)
          for (let xx = -rx; xx <= rx; xx++) if ((xx * xx) / (rx * rx) + (yy * yy) / (ry * ry) <= 1) cv.set(x + xx, y + yy, mix(sil, light, yy < 0 ? 0.15 : 0));
        cv.tri(x + rx * 0.8, y, x + rx * 1.15, y - ry * 0.9, x + rx * 1.15, y + ry * 0.9, sil);
        cv.rect(x - 25 * s, y + ry + 6 * s, x + 25 * s, y + ry + 16 * s, sil);
        cv.line(x - 20 * s, y + ry, x - 18 * s, y + ry + 6 * s, 1.5, sil);
        cv.line(x + 20 * s, y + ry, x + 18 * s, y + ry + 6 * s, 1.5, sil);
        for (let k = 0; k < 3; k++) cv.rect(x - 18 * s + k * 14 * s, y + ry + 9 * s, x - 14 * s + k * 14 * s, y + ry + 13 * s, light, 0.8);
      }
      break;
    }
    case 'starships': {
      const n = 2 + rng.int(4);
      for (let i = 0; i < n; i++) {
        const x = W * (0.05 + rng.next() * 0.9);
        const y = horizon * (0.1 + rng.next() * 0.6);
        const s = 0.4 + rng.next() * 1.1;
        const dir = rng.chance(0.5) ? 1 : -1;
        cv.tri(x - dir * 60 * s, y - 12 * s, x - dir * 60 * s, y + 12 * s, x + dir * 50 * s, y, sil);
        cv.tri(x - dir * 40 * s, y, x - dir * 55 * s, y - 26 * s, x - dir * 10 * s, y, sil);
        cv.glow(x - dir * 64 * s, y, 18 * s, light, 0.9);
      }
      break;
    }
    case 'house': {
      // A lone gabled house on the near ground, one window lit: the horror genre's boarded-up farmhouse.
      const x = W * (0.3 + rng.next() * 0.4);
      const base = horizon + 70;
      const w = 150 + rng.int(50);
      const h = 90 + rng.int(25);
      cv.rect(x - w / 2, base - h, x + w / 2, H, sil);
      cv.tri(x - w / 2 - 14, base - h, x + w / 2 + 14, base - h, x, base - h - 70, sil);
      cv.rect(x + w * 0.22, base - h - 58, x + w * 0.22 + 16, base - h - 10, sil);
      const lit = rng.int(3);
      for (let k = 0; k < 3; k++) {
        const wx = x - w / 2 + 22 + k * ((w - 60) / 2);
        cv.rect(wx, base - h + 26, wx + 18, base - h + 52, k === lit ? light : mix(sil, light, 0.08));
      }
      if (rng.chance(0.5)) cv.glow(x - w / 2 + 31 + lit * ((w - 60) / 2), base - h + 39, 40, light, 0.35);
      break;
    }
    case 'fog': {
      // Bands of the horizon's white drifting over the ground and the feet of the trees.
      const fog = hex(g.palette.skyHorizon);
      const bands = 4 + rng.int(3);
      for (let b = 0; b < bands; b++) {
        const y0 = horizon - 20 + b * ((H - horizon) / bands);
        const phase = rng.next() * 6.28;
        for (let y = max(0, floor(y0)); y < min(H, y0 + 60); y++) {
          const t = (y - y0) / 60;
          for (let x = 0; x < W; x++) cv.set(x, y, fog, 0.4 * sin(t * 3.14) * (0.6 + 0.4 * sin(x * 0.006 + phase)));
        }
      }
      break;
    }
    case 'stars':
    case 'moon':
    case 'mountains':
      // Drawn as part of the sky and landform passes.
      break;
    default: {
      const exhaustive: never = motif;
      void exhaustive;
    }
  }
}

export async function renderWorldImage(worldDescription: string, seed = 0): Promise<{ bytes: Buffer; width: number; height: number }> {
  const world = readWorld(worldDescription);
  const g = world.genre;
  const rng = new Rng(mixSeed('image', world.key, seed));
  const W = IMAGE_WIDTH;
  const H = IMAGE_HEIGHT;
  const cv = new Canvas(W, H);
  const p = g.palette;
  const skyTop = hex(p.skyTop);
  const skyHorizon = hex(p.skyHorizon);
  const light = hex(p.light);
  const horizon = H * (0.5 + rng.next() * 0.12);

  // Sky
  for (let y = 0; y < H; y++) {
    const t = min(1, y / horizon);
    const c = mix(skyTop, skyHorizon, t * t);
    for (let x = 0; x < W; x++) cv.set(x, y, c);
  }
  const dark = skyTop[0] + skyTop[1] + skyTop[2] < 200;
  if (dark || g.motifs.includes('stars')) {
    const n = 250 + rng.int(300);
    for (let i = 0; i < n; i++) {
      const y = rng.next() * horizon * 0.9;
      cv.set(rng.next() * W, y, [255, 255, 240], 0.3 + rng.next() * 0.7 * (1 - y / horizon));
    }
  }
  // Sun or moon, with a wide glow that also tints the horizon.
  const sx = W * (0.15 + rng.next() * 0.7);
  const sy = horizon * (0.25 + rng.next() * 0.5);
  cv.glow(sx, sy, 260, light, 0.45);
  cv.circle(sx, sy, g.motifs.includes('moon') || dark ? 26 : 38, mix(light, [255, 255, 255], 0.4));
  for (const m of g.motifs) if (m === 'planet') drawMotif(cv, m, rng.fork(m), g, horizon);

  // Far mountains/hills, then nearer land, with haze toward the horizon colour.
  const far = ridge(rng.fork('far'), W, horizon - 40, g.motifs.includes('mountains') ? 90 : 35, 0.5);
  fillBelow(cv, far, hex(p.far), mix(hex(p.far), hex(p.near), 0.5), skyHorizon, 0.45);
  const near = ridge(rng.fork('near'), W, horizon + 50, 30, 0.55);
  fillBelow(cv, near, hex(p.near), mix(hex(p.near), hex(p.silhouette), 0.6), skyHorizon, 0.12);

  for (const m of g.motifs) if (m !== 'planet') drawMotif(cv, m, rng.fork(m), g, horizon);

  // Vignette and a faint film grain, so flat fills read as painted rather than vector.
  const cx = W / 2;
  const cy = H / 2;
  const maxD = hypot(cx, cy);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const d = hypot(x - cx, y - cy) / maxD;
      const v = 1 - 0.45 * d * d;
      const i = (y * W + x) * 3;
      const n = (rng.next() - 0.5) * 6;
      cv.data[i] = max(0, min(255, (cv.data[i] as number) * v + n));
      cv.data[i + 1] = max(0, min(255, (cv.data[i + 1] as number) * v + n));
      cv.data[i + 2] = max(0, min(255, (cv.data[i + 2] as number) * v + n));
    }

  let quality = 82;
  let bytes = await sharp(cv.data, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality, mozjpeg: true })
    .toBuffer();
  while (bytes.length > IMAGE_MAX_BYTES && quality > 40) {
    quality -= 12;
    bytes = await sharp(cv.data, { raw: { width: W, height: H, channels: 3 } })
      .jpeg({ quality, mozjpeg: true })
      .toBuffer();
  }
  return { bytes, width: W, height: H };
}

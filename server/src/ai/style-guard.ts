/**
 * Immersive styles are design tokens from an untrusted source (a model, or a stored row written by
 * an older version). They end up in the browser's CSS, so each field is checked on its own against a
 * strict pattern and anything that fails falls back to the SPEC §3 default for that field. Text and
 * background pairs must also keep WCAG AA contrast (4.5:1) so an immersive theme is always readable.
 */
import { STYLE_FIELDS, type StyleField, type StyleSet } from './story-ai';

/** SPEC §3 defaults: a dark navy theme, light cyan text, a sans-serif stack and an 8px radius. */
export const DEFAULT_STYLES: Readonly<StyleSet> = Object.freeze({
  containerBackground: '#0b1426',
  contentBackground: '#101d36',
  contentTextColor: '#c8f4ff',
  ContainerTextColor: '#aeeeff',
  statsPanelBackground: '#0e1a30',
  statsPanelTextColor: '#c8f4ff',
  statsItemBackground: '#16264a',
  statsItemTextColor: '#e0faff',
  buttonBackground: '#1d3a66',
  buttonTextColor: '#e0faff',
  borderColor: '#2d5a8c',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  borderRadius: '8px',
});

/** The only font stacks a style set may name. All are local/system fonts: no web-font fetches. */
export const FONT_STACKS: readonly string[] = Object.freeze([
  DEFAULT_STYLES.fontFamily,
  'Georgia, "Times New Roman", serif',
  '"Palatino Linotype", Palatino, "Book Antiqua", serif',
  'Garamond, Baskerville, "Times New Roman", serif',
  '"Courier New", Courier, monospace',
  'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
  '"Trebuchet MS", Helvetica, sans-serif',
  'Verdana, Geneva, sans-serif',
  '"Gill Sans", "Gill Sans MT", Calibri, sans-serif',
  'Impact, "Arial Narrow", sans-serif',
  '"Copperplate", "Copperplate Gothic Light", fantasy',
  'Didot, "Bodoni MT", serif',
]);

export const RADIUS_MAX_PX = 24;

/**
 * The web client's copy of the defaults, the font allow-list and the radius bound, as TypeScript
 * source: `npm run schema:emit` writes it to client/src/lib/styles.generated.ts (and the CI freshness
 * check compares it), so the client re-checks tokens against exactly these and never retypes them.
 */
export function clientStylesSource(): string {
  return [
    '// Generated from server/src/ai/style-guard.ts by `npm run schema:emit`. Do not edit.',
    `export const DEFAULT_STYLE_SET = ${JSON.stringify(DEFAULT_STYLES, null, 2)};`,
    `export const FONT_STACKS: readonly string[] = ${JSON.stringify(FONT_STACKS, null, 2)};`,
    `export const RADIUS_MAX_PX = ${RADIUS_MAX_PX};`,
    '',
  ].join('\n');
}
const MIN_CONTRAST = 4.5;

/** Text colour field → the background it is drawn on. */
// The container pair goes first: other backgrounds are composited over the container background.
const CONTRAST_PAIRS: ReadonlyArray<[StyleField, StyleField]> = [
  ['ContainerTextColor', 'containerBackground'],
  ['contentTextColor', 'contentBackground'],
  ['statsPanelTextColor', 'statsPanelBackground'],
  ['statsItemTextColor', 'statsItemBackground'],
  ['buttonTextColor', 'buttonBackground'],
];

const COLOR_FIELDS: ReadonlySet<StyleField> = new Set(STYLE_FIELDS.filter((f) => f !== 'fontFamily' && f !== 'borderRadius'));

/** Defence in depth: even if a pattern below were too lax, these never reach CSS. */
const FORBIDDEN = /url\(|expression|@import|[;<>{}\\]|\/\*|javascript:/i;

// CSS named colours (CSS Color 4), as 6-digit hex. Needed to compute contrast for named colours.
const NAMED_HEX =
  'aliceblue:f0f8ff,antiquewhite:faebd7,aqua:00ffff,aquamarine:7fffd4,azure:f0ffff,beige:f5f5dc,bisque:ffe4c4,black:000000,' +
  'blanchedalmond:ffebcd,blue:0000ff,blueviolet:8a2be2,brown:a52a2a,burlywood:deb887,cadetblue:5f9ea0,chartreuse:7fff00,' +
  'chocolate:d2691e,coral:ff7f50,cornflowerblue:6495ed,cornsilk:fff8dc,crimson:dc143c,cyan:00ffff,darkblue:00008b,' +
  'darkcyan:008b8b,darkgoldenrod:b8860b,darkgray:a9a9a9,darkgreen:006400,darkgrey:a9a9a9,darkkhaki:bdb76b,' +
  'darkmagenta:8b008b,darkolivegreen:556b2f,darkorange:ff8c00,darkorchid:9932cc,darkred:8b0000,darksalmon:e9967a,' +
  'darkseagreen:8fbc8f,darkslateblue:483d8b,darkslategray:2f4f4f,darkslategrey:2f4f4f,darkturquoise:00ced1,' +
  'darkviolet:9400d3,deeppink:ff1493,deepskyblue:00bfff,dimgray:696969,dimgrey:696969,dodgerblue:1e90ff,' +
  'firebrick:b22222,floralwhite:fffaf0,forestgreen:228b22,fuchsia:ff00ff,gainsboro:dcdcdc,ghostwhite:f8f8ff,gold:ffd700,' +
  'goldenrod:daa520,gray:808080,green:008000,greenyellow:adff2f,grey:808080,honeydew:f0fff0,hotpink:ff69b4,' +
  'indianred:cd5c5c,indigo:4b0082,ivory:fffff0,khaki:f0e68c,lavender:e6e6fa,lavenderblush:fff0f5,lawngreen:7cfc00,' +
  'lemonchiffon:fffacd,lightblue:add8e6,lightcoral:f08080,lightcyan:e0ffff,lightgoldenrodyellow:fafad2,lightgray:d3d3d3,' +
  'lightgreen:90ee90,lightgrey:d3d3d3,lightpink:ffb6c1,lightsalmon:ffa07a,lightseagreen:20b2aa,lightskyblue:87cefa,' +
  'lightslategray:778899,lightslategrey:778899,lightsteelblue:b0c4de,lightyellow:ffffe0,lime:00ff00,limegreen:32cd32,' +
  'linen:faf0e6,magenta:ff00ff,maroon:800000,mediumaquamarine:66cdaa,mediumblue:0000cd,mediumorchid:ba55d3,' +
  'mediumpurple:9370db,mediumseagreen:3cb371,mediumslateblue:7b68ee,mediumspringgreen:00fa9a,mediumturquoise:48d1cc,' +
  'mediumvioletred:c71585,midnightblue:191970,mintcream:f5fffa,mistyrose:ffe4e1,moccasin:ffe4b5,navajowhite:ffdead,' +
  'navy:000080,oldlace:fdf5e6,olive:808000,olivedrab:6b8e23,orange:ffa500,orangered:ff4500,orchid:da70d6,' +
  'palegoldenrod:eee8aa,palegreen:98fb98,paleturquoise:afeeee,palevioletred:db7093,papayawhip:ffefd5,peachpuff:ffdab9,' +
  'peru:cd853f,pink:ffc0cb,plum:dda0dd,powderblue:b0e0e6,purple:800080,rebeccapurple:663399,red:ff0000,rosybrown:bc8f8f,' +
  'royalblue:4169e1,saddlebrown:8b4513,salmon:fa8072,sandybrown:f4a460,seagreen:2e8b57,seashell:fff5ee,sienna:a0522d,' +
  'silver:c0c0c0,skyblue:87ceeb,slateblue:6a5acd,slategray:708090,slategrey:708090,snow:fffafa,springgreen:00ff7f,' +
  'steelblue:4682b4,tan:d2b48c,teal:008080,thistle:d8bfd8,tomato:ff6347,turquoise:40e0d0,violet:ee82ee,wheat:f5deb3,' +
  'white:ffffff,whitesmoke:f5f5f5,yellow:ffff00,yellowgreen:9acd32';
const NAMED_COLORS: ReadonlyMap<string, RGB> = new Map(
  NAMED_HEX.split(',').map((pair) => {
    const [name, hex] = pair.split(':') as [string, string];
    return [name, hexToRgb(hex)];
  }),
);

export interface RGB {
  r: number;
  g: number;
  b: number;
  /** 0–1 */
  a: number;
}

function hexToRgb(hex: string): RGB {
  const h = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
  return {
    r: parseInt(h.slice(0, 2), 16),
    g: parseInt(h.slice(2, 4), 16),
    b: parseInt(h.slice(4, 6), 16),
    a: h.length === 8 ? parseInt(h.slice(6, 8), 16) / 255 : 1,
  };
}

const NUM = String.raw`(\d{1,3}(?:\.\d+)?)`;
const PCT = String.raw`(\d{1,3}(?:\.\d+)?)%`;
const ALPHA = String.raw`(?:\s*[,/]\s*(\d{0,3}(?:\.\d+)?%?))?`;
const RGB_RE = new RegExp(String.raw`^rgba?\(\s*${NUM}\s*,?\s*${NUM}\s*,?\s*${NUM}${ALPHA}\s*\)$`, 'i');
const HSL_RE = new RegExp(String.raw`^hsla?\(\s*${NUM}(?:deg)?\s*,?\s*${PCT}\s*,?\s*${PCT}${ALPHA}\s*\)$`, 'i');
const HEX_RE = /^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

function parseAlpha(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return 1;
  const pct = raw.endsWith('%');
  const n = Number(pct ? raw.slice(0, -1) : raw);
  if (!Number.isFinite(n)) return null;
  const a = pct ? n / 100 : n;
  return a >= 0 && a <= 1 ? a : null;
}

/**
 * Parses a colour written as #hex, rgb()/rgba(), hsl()/hsla() or a CSS named colour. Anything else
 * (var(), currentColor, gradients, functions we do not know) returns null and is rejected.
 */
export function parseColor(value: string): RGB | null {
  const v = value.trim().toLowerCase();
  if (v.length === 0 || v.length > 64 || FORBIDDEN.test(v)) return null;
  if (HEX_RE.test(v)) return hexToRgb(v.slice(1));
  const named = NAMED_COLORS.get(v);
  if (named) return named;
  let m = RGB_RE.exec(v);
  if (m) {
    const [r, g, b] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const a = parseAlpha(m[4]);
    if (r > 255 || g > 255 || b > 255 || a === null) return null;
    return { r, g, b, a };
  }
  m = HSL_RE.exec(v);
  if (m) {
    const h = Number(m[1]);
    const s = Number(m[2]);
    const l = Number(m[3]);
    const a = parseAlpha(m[4]);
    if (h > 360 || s > 100 || l > 100 || a === null) return null;
    return { ...hslToRgb(h, s / 100, l / 100), a };
  }
  return null;
}

export function hslToRgb(h: number, s: number, l: number): { r: number; g: number; b: number } {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const hp = (h % 360) / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  const [r1, g1, b1] = hp < 1 ? [c, x, 0] : hp < 2 ? [x, c, 0] : hp < 3 ? [0, c, x] : hp < 4 ? [0, x, c] : hp < 5 ? [x, 0, c] : [c, 0, x];
  const m = l - c / 2;
  return { r: Math.round((r1 + m) * 255), g: Math.round((g1 + m) * 255), b: Math.round((b1 + m) * 255) };
}

export function toHex(c: { r: number; g: number; b: number }): string {
  const h = (n: number) =>
    Math.max(0, Math.min(255, Math.round(n)))
      .toString(16)
      .padStart(2, '0');
  return `#${h(c.r)}${h(c.g)}${h(c.b)}`;
}

function channel(v: number): number {
  const s = v / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}
function relativeLuminance(c: { r: number; g: number; b: number }): number {
  return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}
/** WCAG 2.x contrast ratio, 1–21. */
export function contrastRatio(a: { r: number; g: number; b: number }, b: { r: number; g: number; b: number }): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Composites a translucent colour over an opaque one (what the eye sees). */
function over(top: RGB, bottom: RGB): RGB {
  return {
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a),
    a: 1,
  };
}

function normaliseFont(v: string): string {
  return v
    .replace(/\s+/g, ' ')
    .replace(/\s*,\s*/g, ', ')
    .replace(/'/g, '"')
    .trim()
    .toLowerCase();
}
const FONT_LOOKUP: ReadonlyMap<string, string> = new Map(FONT_STACKS.map((f) => [normaliseFont(f), f]));

/** Returns the canonical allow-listed font stack, or null. */
function checkFont(value: string): string | null {
  if (FORBIDDEN.test(value) || value.length > 200) return null;
  return FONT_LOOKUP.get(normaliseFont(value)) ?? null;
}

/** Accepts "Npx" (or a bare number, read as px) with 0 ≤ N ≤ RADIUS_MAX_PX. */
function checkRadius(value: string | number): string | null {
  const raw = typeof value === 'number' ? String(value) : value.trim();
  const m = /^(\d{1,2}(?:\.\d{1,2})?)(px)?$/i.exec(raw);
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 0 && n <= RADIUS_MAX_PX ? `${n}px` : null;
}

export interface SanitizeReport {
  styles: StyleSet;
  /** Fields that were missing or failed a check and now hold the default value, with the reason. */
  rejected: Array<{ field: StyleField; reason: string }>;
}

/**
 * Field-by-field validation of an untrusted style set. Never throws: whatever comes in, a complete,
 * safe, readable StyleSet comes out.
 */
export function sanitizeStylesWithReport(input: unknown): SanitizeReport {
  const src: Record<string, unknown> = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const out = { ...DEFAULT_STYLES } as StyleSet;
  const rejected: SanitizeReport['rejected'] = [];
  const colors = new Map<StyleField, RGB>();

  for (const field of STYLE_FIELDS) {
    const raw = src[field];
    if (raw === undefined || raw === null) {
      rejected.push({ field, reason: 'missing' });
      continue;
    }
    if (typeof raw !== 'string' && !(field === 'borderRadius' && typeof raw === 'number')) {
      rejected.push({ field, reason: 'not a string' });
      continue;
    }
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (typeof value === 'string' && FORBIDDEN.test(value)) {
      rejected.push({ field, reason: 'forbidden token' });
      continue;
    }
    if (field === 'fontFamily') {
      const f = checkFont(String(value));
      if (f) out.fontFamily = f;
      else rejected.push({ field, reason: 'font not in allow-list' });
    } else if (field === 'borderRadius') {
      const r = checkRadius(value);
      if (r) out.borderRadius = r;
      else rejected.push({ field, reason: `radius must be 0–${RADIUS_MAX_PX}px` });
    } else if (COLOR_FIELDS.has(field)) {
      const c = parseColor(String(value));
      if (c) {
        out[field] = String(value).toLowerCase();
        colors.set(field, c);
      } else rejected.push({ field, reason: 'not a hex/rgb()/hsl()/named colour' });
    }
  }

  // Contrast: a text/background pair that fails 4.5:1 is unreadable; fall back for both fields of
  // the pair (the defaults are known to pass together) rather than guess which one the model meant.
  const navy = parseColor(DEFAULT_STYLES.containerBackground) as RGB;
  for (const [textField, bgField] of CONTRAST_PAIRS) {
    const container = colors.get('containerBackground') ?? navy;
    const bgRaw = colors.get(bgField) ?? (parseColor(DEFAULT_STYLES[bgField]) as RGB);
    const bg = over(bgRaw, over(container, { r: 255, g: 255, b: 255, a: 1 }));
    const fgRaw = colors.get(textField) ?? (parseColor(DEFAULT_STYLES[textField]) as RGB);
    const fg = over(fgRaw, bg);
    if (contrastRatio(fg, bg) < MIN_CONTRAST) {
      out[textField] = DEFAULT_STYLES[textField];
      out[bgField] = DEFAULT_STYLES[bgField];
      colors.set(textField, parseColor(DEFAULT_STYLES[textField]) as RGB);
      colors.set(bgField, parseColor(DEFAULT_STYLES[bgField]) as RGB);
      rejected.push({ field: textField, reason: `contrast below ${MIN_CONTRAST}:1 with ${bgField}` });
    }
  }
  return { styles: out, rejected };
}

export function sanitizeStyles(input: unknown): StyleSet {
  return sanitizeStylesWithReport(input).styles;
}

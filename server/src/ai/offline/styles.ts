/**
 * Offline immersive styles: a palette that fits the setting. The hue comes from what the setting
 * describes (forest → green, desert → sand, ice → pale blue, neon → magenta…) or, failing that, from
 * its genre's light colour; lightness is fixed per field so text always stays readable. The result
 * still goes through sanitizeStyles like any untrusted style set.
 */
import type { StyleSet } from '../story-ai';
import { FONT_STACKS, hslToRgb, parseColor, sanitizeStyles, toHex } from '../style-guard';
import { readWorld } from './world-model';

const HUE_WORDS: Array<[RegExp, number]> = [
  [/\b(forest|grove|jungle|swamp|moss|leaf|leaves|meadow|garden|elven)\b/i, 130],
  [/\b(desert|sand|dune|dust|mesa|canyon|wasteland|rust)\b/i, 32],
  [/\b(ice|snow|frost|glacier|winter|frozen|tundra)\b/i, 200],
  [/\b(fire|lava|volcano|forge|ember|inferno|burn)\b/i, 12],
  [/\b(ocean|sea|water|harbou?r|reef|tide|coast|river|lake)\b/i, 190],
  [/\b(neon|cyber|hologram|holo)\b/i, 315],
  [/\b(gold|golden|sun|temple|throne)\b/i, 45],
  [/\b(blood|crimson|plague|gallows)\b/i, 355],
  [/\b(void|space|stars|nebula|galaxy|night)\b/i, 255],
  [/\b(brass|copper|steam|clockwork|gear)\b/i, 28],
  [/\b(fog|mist|ghost|grave|haunted)\b/i, 165],
];

function hueOf(hex: string): number {
  const c = parseColor(hex);
  if (!c) return 220;
  const r = c.r / 255,
    g = c.g / 255,
    b = c.b / 255;
  const max = Math.max(r, g, b),
    min = Math.min(r, g, b);
  if (max === min) return 220;
  const d = max - min;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return Math.round((h * 60 + 360) % 360);
}

const hsl = (h: number, s: number, l: number) => toHex(hslToRgb(((h % 360) + 360) % 360, s, l));

export function offlineStyles(settingDescription: string): StyleSet {
  const genre = readWorld(settingDescription).genre;
  const hit = HUE_WORDS.find(([re]) => re.test(settingDescription));
  const h = hit ? hit[1] : hueOf(genre.palette.light === '#fff1c1' ? genre.palette.skyTop : genre.palette.skyHorizon);
  const accent = (h + 25) % 360;
  return sanitizeStyles({
    containerBackground: hsl(h, 0.35, 0.08),
    contentBackground: hsl(h, 0.3, 0.12),
    contentTextColor: hsl(h, 0.6, 0.88),
    ContainerTextColor: hsl(h, 0.55, 0.82),
    statsPanelBackground: hsl(h, 0.32, 0.1),
    statsPanelTextColor: hsl(h, 0.6, 0.86),
    statsItemBackground: hsl(h, 0.28, 0.17),
    statsItemTextColor: hsl(h, 0.7, 0.92),
    buttonBackground: hsl(accent, 0.45, 0.28),
    buttonTextColor: hsl(accent, 0.8, 0.94),
    borderColor: hsl(accent, 0.45, 0.45),
    fontFamily: FONT_STACKS[genre.font] ?? FONT_STACKS[0],
    borderRadius: `${[4, 6, 8, 10, 12][genre.font % 5]}px`,
  });
}

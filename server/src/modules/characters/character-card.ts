/**
 * Character Card V2/V3 (the community format of SillyTavern, RisuAI, chub…): export our characters
 * so they travel, import theirs into a world. A card PNG carries the JSON base64-encoded in tEXt
 * chunks: `ccv3` (V3) and `chara` (V2, for older readers). Our own fields (stats, traits, strengths,
 * weaknesses, special) ride under `data.extensions.taleforge`, which the format reserves for apps.
 *
 * Cards are untrusted: size-capped, schema-checked with zod, stripped of markup, and then saved
 * through CharacterService.save, which applies every rule a hand-typed character meets.
 */
import zlib from 'node:zlib';
import { sharp } from '../../common/lazy-modules';
import { z } from 'zod';
import { STAT_MAX, STAT_MIN, STAT_NAMES, STORY_CARD_KINDS, type Stats, type StoryCardKind } from '../../ai/story-ai';
import { AppError } from '../../common/app-error';
import { STORY_CARD_ALIASES_MAX, STORY_CARD_DESCRIPTION_MAX, STORY_CARD_LINE_MAX, STORY_CARD_NAME_MAX } from '../shared/limits';
import type { CardSnapshot } from '../stories/chapter.entity';
import type { Character } from './character.entity';

export const CARD_MAX_BYTES = 5 * 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const APP = 'taleforge';

const str = (max: number) => z.string().max(max);
const cardDataSchema = z.object({
  name: str(200),
  description: str(20_000).optional().default(''),
  personality: str(5_000).optional().default(''),
  scenario: str(20_000).optional(),
  first_mes: str(20_000).optional(),
  tags: z.array(str(100)).max(100).optional().default([]),
  creator: str(200).optional(),
  extensions: z.record(z.string(), z.unknown()).optional().default({}),
  character_book: z
    .object({
      entries: z
        .array(
          z.object({
            keys: z.array(str(200)).max(50).optional().default([]),
            content: str(20_000).optional().default(''),
            name: str(200).optional(),
            comment: str(2_000).optional(),
            enabled: z.boolean().optional(),
            constant: z.boolean().optional(),
            use_regex: z.boolean().optional(),
            extensions: z.record(z.string(), z.unknown()).optional().default({}),
          }),
        )
        .max(1000),
    })
    .optional(),
});
const cardSchema = z.object({
  spec: z.enum(['chara_card_v2', 'chara_card_v3']),
  spec_version: z.string().max(10),
  data: cardDataSchema,
});
const ourExtension = z.object({
  // Any numbers: cardStats keeps the six names and clamps them (a foreign card is not refused for it).
  stats: z.record(z.string().max(32), z.number().finite()).optional(),
  traits: z.array(str(200)).max(10).optional(),
  strengths: z.array(str(200)).max(10).optional(),
  weaknesses: z.array(str(200)).max(10).optional(),
  special: z.object({ name: str(60), description: str(1000) }).optional(),
});

/** Our story-card fields on a character_book entry (extensions.taleforge). */
const ourEntryExtension = z.object({
  kind: z.enum(STORY_CARD_KINDS).optional(),
  role: str(200).nullable().optional(),
  status: str(200).nullable().optional(),
});

/** A character_book entry, as a story card to import (checked again when written). */
interface ImportedCard {
  name: string;
  kind: StoryCardKind;
  aliases: string[];
  description: string;
  role: string | null;
  status: string | null;
  pinned: boolean;
}

/** What an imported card becomes: the fields of a saved character (checked again on save). */
export interface ImportedCharacter {
  name: string;
  description: string;
  stats: Record<string, number>;
  traits: string[];
  strengths: string[];
  weaknesses: string[];
  special: { name: string; description: string };
  /** The card's character_book (lorebook) entries, as story cards. */
  book: ImportedCard[];
}

/**
 * The story's cards as a character_book (the V2/V3 lorebook): keys are the name and aliases, content
 * the description, `constant` a pinned card; kind, role and status ride under extensions.taleforge.
 */
function characterBook(c: Character, cards: readonly CardSnapshot[]) {
  return {
    name: `${c.name}'s story`,
    description: 'Story cards from Taleforge.',
    extensions: {},
    entries: cards.map((k, i) => ({
      id: i,
      keys: [k.name, ...k.aliases],
      content: [k.role ? `${k.name}, ${k.role}.` : '', k.description, k.status ? `Now: ${k.status}.` : ''].filter(Boolean).join(' '),
      name: k.name,
      comment: k.name,
      enabled: true,
      insertion_order: i,
      case_sensitive: false,
      use_regex: false,
      constant: k.pinned,
      selective: false,
      secondary_keys: [] as string[],
      position: 'before_char',
      extensions: { [APP]: { kind: k.kind, role: k.role, status: k.status, description: k.description } },
    })),
  };
}

export function cardJson(c: Character, spec: 'v2' | 'v3', cards: readonly CardSnapshot[] = []) {
  const data = {
    name: c.name,
    description: c.description,
    personality: c.traits.join(', '),
    scenario: '',
    first_mes: '',
    mes_example: '',
    creator_notes: `Exported from Taleforge. Special ability: ${c.special.name}${c.special.description ? ` — ${c.special.description}` : ''}`,
    system_prompt: '',
    post_history_instructions: '',
    alternate_greetings: [] as string[],
    tags: c.traits,
    creator: 'Taleforge',
    character_version: '1',
    extensions: {
      [APP]: { stats: c.stats, traits: c.traits, strengths: c.strengths, weaknesses: c.weaknesses, special: c.special },
    },
    ...(cards.length ? { character_book: characterBook(c, cards) } : {}),
  };
  if (spec === 'v2') return { spec: 'chara_card_v2', spec_version: '2.0', data };
  const now = Math.floor(Date.now() / 1000);
  return {
    spec: 'chara_card_v3',
    spec_version: '3.0',
    data: { ...data, group_only_greetings: [] as string[], creation_date: Math.floor(c.createdAt.getTime() / 1000), modification_date: now },
  };
}

/** A card PNG: the picture (or a plain portrait) with `ccv3` and `chara` tEXt chunks before IEND. */
export async function cardPng(c: Character, picture: Buffer | null, cards: readonly CardSnapshot[] = []): Promise<Buffer> {
  const base = picture
    ? await sharp(picture).resize({ width: 512, height: 768, fit: 'cover' }).png().toBuffer()
    : await sharp({ create: { width: 512, height: 768, channels: 3, background: { r: 20, g: 28, b: 48 } } })
        .png()
        .toBuffer();
  const chunks = [
    textChunk('ccv3', Buffer.from(JSON.stringify(cardJson(c, 'v3', cards))).toString('base64')),
    textChunk('chara', Buffer.from(JSON.stringify(cardJson(c, 'v2', cards))).toString('base64')),
  ];
  const iend = base.length - 12; // IEND is always the last 12 bytes of a PNG sharp wrote
  return Buffer.concat([base.subarray(0, iend), ...chunks, base.subarray(iend)]);
}

function textChunk(keyword: string, text: string): Buffer {
  const data = Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]);
  const type = Buffer.from('tEXt', 'latin1');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([type, data])) >>> 0);
  return Buffer.concat([len, type, data, crc]);
}

/** The tEXt chunks of a PNG, by keyword; stops at IEND and refuses truncated files. */
function pngTextChunks(png: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 8;
  while (at + 12 <= png.length) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (at + 12 + len > png.length) throw AppError.badInput('The card PNG is truncated.', 'card');
    if (type === 'tEXt') {
      const data = png.subarray(at + 8, at + 8 + len);
      const nul = data.indexOf(0);
      if (nul > 0) out.set(data.toString('latin1', 0, nul), data.toString('latin1', nul + 1));
    }
    if (type === 'IEND') break;
    at += 12 + len;
  }
  return out;
}

/** Parses a V2/V3 card from PNG bytes or JSON text into the fields of a saved character. */
export function parseCard(input: Buffer): ImportedCharacter {
  if (input.length === 0) throw AppError.badInput('The card is empty.', 'card');
  if (input.length > CARD_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', 'Cards must be at most 5 MB.', { field: 'card' });
  let jsonText: string;
  if (input.subarray(0, 8).equals(PNG_SIGNATURE)) {
    const chunks = pngTextChunks(input);
    const b64 = chunks.get('ccv3') ?? chunks.get('chara');
    if (!b64) throw AppError.badInput('This PNG carries no character card (no ccv3 or chara chunk).', 'card');
    jsonText = Buffer.from(b64, 'base64').toString('utf8');
  } else {
    jsonText = input.toString('utf8');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(jsonText);
  } catch {
    throw AppError.badInput('The card is neither a card PNG nor card JSON.', 'card');
  }
  const parsed = cardSchema.safeParse(raw);
  if (!parsed.success) throw AppError.badInput('The card does not match the Character Card V2/V3 format.', 'card');
  const d = parsed.data.data;
  // The format's macros: {{char}} is the character, {{user}} the player; anything else is dropped.
  const name = cardName(d.name);
  const expand = (t: string) => t.replace(/\{\{\s*char\s*\}\}/gi, name).replace(/\{\{\s*user\s*\}\}/gi, 'the traveller');
  d.description = expand(d.description);
  d.personality = expand(d.personality);
  const ours = ourExtension.safeParse(d.extensions[APP]);
  const ext = ours.success ? ours.data : {};
  const fromPersonality = d.personality
    .split(/[,;\n]/)
    .map((s) => plain(s, 40))
    .filter(Boolean);
  return {
    name,
    description: plain(d.description, 4000) || plain(d.personality, 4000) || `${name} arrived from another story.`,
    stats: cardStats(ext.stats),
    traits: (ext.traits ?? (fromPersonality.length ? fromPersonality : d.tags))
      .map((s) => plain(s, 200))
      .filter(Boolean)
      .slice(0, 5),
    strengths: (ext.strengths ?? []).map((s) => plain(s, 200)).filter(Boolean),
    weaknesses: (ext.weaknesses ?? []).map((s) => plain(s, 200)).filter(Boolean),
    special: ext.special ? { name: plain(ext.special.name, 60), description: plain(ext.special.description, 1000) } : { name: '', description: '' },
    book: bookOf(d.character_book?.entries ?? [], expand),
  };
}

/**
 * A lorebook's entries as story cards: enabled entries with a usable name (the entry's name, its
 * comment or its first key); regular-expression keys are not names and are left out; constant
 * entries are pinned. Our own export's extension restores kind, role, status and description.
 */
function bookOf(entries: NonNullable<z.infer<typeof cardDataSchema>['character_book']>['entries'], expand: (t: string) => string): ImportedCard[] {
  const out: ImportedCard[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    if (e.enabled === false) continue;
    const keys = e.use_regex ? [] : e.keys.map((k) => safeName(k)).filter(Boolean);
    const name = safeName(e.name ?? '') || safeName(e.comment ?? '') || keys[0] || '';
    if (!name || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const ours = ourEntryExtension.safeParse(e.extensions[APP]);
    const ext = ours.success ? ours.data : {};
    const ourDescription = typeof (e.extensions[APP] as { description?: unknown } | undefined)?.description === 'string';
    out.push({
      name,
      kind: ext.kind ?? 'lore',
      aliases: [...new Set(keys.filter((k) => k.toLowerCase() !== name.toLowerCase()))].slice(0, STORY_CARD_ALIASES_MAX),
      description: plain(expand(ourDescription ? String((e.extensions[APP] as { description: string }).description) : e.content), STORY_CARD_DESCRIPTION_MAX),
      role: ext.role ? plain(ext.role, STORY_CARD_LINE_MAX).replace(/\n/g, ' ') || null : null,
      status: ext.status ? plain(ext.status, STORY_CARD_LINE_MAX).replace(/\n/g, ' ') || null : null,
      pinned: e.constant === true,
    });
  }
  return out;
}

/** A name from someone else's file, or '' when nothing usable is left. */
function safeName(s: string): string {
  try {
    return cardName(s).slice(0, STORY_CARD_NAME_MAX).trim();
  } catch {
    return '';
  }
}

/**
 * Plain text from card prose: tags and comments removed, template macros ({{char}}, {{user}})
 * removed, control characters dropped, whitespace tidied, length capped at a word boundary.
 */
function plain(s: string, max: number): string {
  const t = s
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?[a-z!?][^>]*>?/gi, ' ')
    .replace(/\{\{[^}]{0,40}\}\}/g, ' ')
    .replace(/<(?=\/?[a-z!?])/gi, ' ')
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if ([...t].length <= max) return t;
  const cut = [...t].slice(0, max).join('');
  const sp = cut.lastIndexOf(' ');
  return (sp > max * 0.6 ? cut.slice(0, sp) : cut).trim();
}

/** Card names are free-form; ours are letters, digits, spaces and a little punctuation. */
function cardName(s: string): string {
  const name = plain(s, 60)
    .replace(/[^\p{L}\p{N}\p{M} '’.,:!?&()#-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.!?)]+$/gu, '')
    .trim();
  if (!name) throw AppError.badInput('The card has no usable name.', 'card');
  return name;
}

/** Every stat at 10, "a capable adult": a card without ours, or a missing stat. */
export function defaultStats(): Stats {
  return { strength: 10, agility: 10, endurance: 10, intellect: 10, wisdom: 10, charisma: 10 };
}

/**
 * A card's stats as ours: a card is someone else's file, so instead of refusing it the six known names
 * (any case) are kept, clamped to 1–20, and anything else is dropped, the same bounds as a save.
 */
function cardStats(raw: Record<string, number> | undefined): Stats {
  const out = defaultStats();
  for (const [k, v] of Object.entries(raw ?? {})) {
    const name = STAT_NAMES.find((n) => n === k.toLowerCase());
    if (name) out[name] = Math.min(STAT_MAX, Math.max(STAT_MIN, Math.round(v)));
  }
  return out;
}

/**
 * What we ask the model to produce (response_format json_schema, strict) and how it maps to our
 * result types. Wire schemas are strict-mode friendly: every property required, nullable instead of
 * optional, no maps (stat increases are a list of {stat, amount}). The domain schemas in story-ai.ts
 * (with their plain-text and distinctness refinements) still validate the converted result.
 */
import { z } from 'zod';
import {
  CAST_MAX,
  chapterResultSchema,
  MEMORIES_PER_CHAPTER_MAX,
  MEMORY_KINDS,
  STAT_NAMES,
  STYLE_FIELDS,
  type ChapterResult,
  type StyleField,
} from '../story-ai';
import { plainAngles } from './model-output';

const castShape = z
  .array(
    z.object({
      name: z.string().min(1).max(60),
      role: z.string().max(80).nullable(),
      description: z.string().max(400).nullable(),
      status: z.string().max(80).nullable(),
    }),
  )
  .max(CAST_MAX);
const recordShape = z.object({
  statIncreases: z.array(z.object({ stat: z.enum(STAT_NAMES), amount: z.number().int().min(1).max(3) })).max(3),
  newSetting: z.string().max(800).nullable(),
  missionCompleted: z.boolean(),
  newMission: z.string().max(240).nullable(),
  cast: castShape,
  memories: z.array(z.object({ kind: z.enum(MEMORY_KINDS), text: z.string().min(1).max(200) })).max(MEMORIES_PER_CHAPTER_MAX),
  itemsGained: z.array(z.object({ name: z.string().min(1).max(60), description: z.string().min(1).max(300) })).max(3),
  itemsLost: z.array(z.string().min(1).max(60)).max(3),
  healthRestored: z.number().int().min(0).max(10),
  choiceChecks: z.array(z.object({ choice: z.number().int().min(1).max(4), stat: z.enum(STAT_NAMES), difficulty: z.number().int().min(1).max(30) })).max(4),
});

export const wire = {
  worldDescription: z.object({ description: z.string().min(40).max(1200) }),
  worldQuestions: z.object({ questions: z.array(z.string().min(5).max(200)).min(3).max(5) }),
  character: z.object({
    username: z.string().min(1).max(60),
    stats: z.object(Object.fromEntries(STAT_NAMES.map((s) => [s, z.number().int().min(1).max(20)])) as Record<(typeof STAT_NAMES)[number], z.ZodNumber>),
    description: z.string().min(80).max(3000),
    traits: z.array(z.string().min(1).max(40)).min(3).max(5),
    strengths: z.array(z.string().min(1).max(120)).min(2).max(5),
    weaknesses: z.array(z.string().min(1).max(120)).min(1).max(4),
    special: z.object({ name: z.string().min(1).max(60), description: z.string().min(10).max(400) }),
  }),
  // `text` is first on purpose: models emit properties in schema order, so the prose streams first
  // and can be shown/persisted while the rest of the object is still being written.
  chapter: z.object({
    text: z.string().min(200).max(6000),
    choices: z.array(z.string().min(1).max(160)).min(3).max(4),
    statIncreases: z.array(z.object({ stat: z.enum(STAT_NAMES), amount: z.number().int().min(1).max(3) })).max(3),
    newSetting: z.string().max(800).nullable(),
    missionCompleted: z.boolean(),
    newMission: z.string().max(240).nullable(),
    cast: z
      .array(
        z.object({
          name: z.string().min(1).max(60),
          role: z.string().max(80).nullable(),
          description: z.string().max(400).nullable(),
          status: z.string().max(80).nullable(),
        }),
      )
      .max(CAST_MAX),
  }),
  // A chapter's record (after its prose: chapter-answer.ts), and the same with the actions, for a
  // repair of an answer that had none.
  record: recordShape,
  recordWithChoices: recordShape.extend({ choices: z.array(z.string().min(1).max(160)).min(3).max(4) }),
  mission: z.object({ objective: z.string().min(5).max(240) }),
  styles: z.object(Object.fromEntries(STYLE_FIELDS.map((f) => [f, z.string().max(120)])) as Record<StyleField, z.ZodString>),
  summary: z.object({ summary: z.string().min(1).max(4000) }),
} as const;

/** A chapter's record as the domain checks it: everything but the prose (and the actions, unless repaired with them). */
export const chapterRecordSchema = chapterResultSchema.omit({ text: true, choices: true }).extend({ choices: chapterResultSchema.shape.choices.optional() });
export type ChapterRecord = z.infer<typeof chapterRecordSchema>;

export function recordFromWire(w: z.infer<typeof wire.record> & { choices?: string[] }): z.input<typeof chapterRecordSchema> {
  const statIncreases: ChapterResult['statIncreases'] = {};
  for (const { stat, amount } of w.statIncreases) statIncreases[stat] = Math.min(3, (statIncreases[stat] ?? 0) + amount);
  const nullIfBlank = (s: string | null) => (s && s.trim() ? s.trim() : null);
  return {
    statIncreases,
    newSetting: nullIfBlank(w.newSetting),
    missionCompleted: w.missionCompleted,
    newMission: nullIfBlank(w.newMission),
    cast: w.cast.map((m) => ({ name: m.name.trim(), role: nullIfBlank(m.role), description: nullIfBlank(m.description), status: nullIfBlank(m.status) })),
    memories: w.memories.map((m) => ({ kind: m.kind, text: m.text.replace(/\s+/g, ' ').trim() })),
    itemsGained: w.itemsGained.map((i) => ({ name: i.name.trim(), description: i.description.trim() })),
    itemsLost: w.itemsLost.map((n) => n.trim()),
    healthRestored: w.healthRestored,
    // A difficulty outside 8–20 is brought within it (the engine's bounds), not refused.
    choiceChecks: w.choiceChecks.map((c) => ({ choice: c.choice, stat: c.stat, difficulty: Math.min(20, Math.max(8, c.difficulty)) })),
    ...(w.choices ? { choices: w.choices.map((c) => c.trim()) } : {}),
  };
}

export function chapterFromWire(w: z.infer<typeof wire.chapter>): ChapterResult {
  const statIncreases: ChapterResult['statIncreases'] = {};
  for (const { stat, amount } of w.statIncreases) statIncreases[stat] = Math.min(3, (statIncreases[stat] ?? 0) + amount);
  const nullIfBlank = (s: string | null) => (s && s.trim() ? s.trim() : null);
  return {
    text: w.text.trim(),
    choices: w.choices.map((c) => c.trim()),
    statIncreases,
    newSetting: nullIfBlank(w.newSetting),
    missionCompleted: w.missionCompleted,
    newMission: nullIfBlank(w.newMission),
    cast: w.cast.map((m) => ({ name: m.name.trim(), role: nullIfBlank(m.role), description: nullIfBlank(m.description), status: nullIfBlank(m.status) })),
    memories: [],
    itemsGained: [],
    itemsLost: [],
    healthRestored: 0,
    choiceChecks: [],
  };
}

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Local repair, before validation and without another call: what models commonly get slightly wrong
 * is put right here — a stat named "Strength" or "STR"-free variants in another case, numbers sent
 * as strings ("2"), booleans as strings, a fifth or sixth choice, repeated choices, "" for "none",
 * an increase sent as a map instead of a list, angle brackets in prose (plainAngles). Anything this
 * cannot fix still fails validation and gets a repair request.
 */
export function normaliseWire(name: keyof typeof wire, value: unknown): unknown {
  const v = plainStrings(value);
  if (!isObject(v)) return v;
  if (name === 'chapter' || name === 'record' || name === 'recordWithChoices') {
    v.statIncreases = increasesOf(v.statIncreases);
    if (Array.isArray(v.choices)) v.choices = distinct(v.choices).slice(0, 4);
    v.missionCompleted = booleanOf(v.missionCompleted);
    v.newSetting = blankToNull(v.newSetting);
    v.newMission = blankToNull(v.newMission);
    v.cast = castOf(v.cast);
    // The newer fields are forgiven when missing (a record that leaves out items is not wrong).
    v.memories = memoriesOf(v.memories);
    v.itemsGained = Array.isArray(v.itemsGained) ? v.itemsGained.filter(isObject).slice(0, 3) : [];
    v.itemsLost = Array.isArray(v.itemsLost) ? v.itemsLost.filter((x) => typeof x === 'string' && x.trim()).slice(0, 3) : [];
    v.healthRestored = Math.max(0, Math.min(10, numberOf(v.healthRestored) ?? 0));
    v.choiceChecks = choiceChecksOf(v.choiceChecks);
  } else if (name === 'character') {
    if (isObject(v.stats)) v.stats = statsOf(v.stats);
    for (const [k, max] of [
      ['traits', 5],
      ['strengths', 5],
      ['weaknesses', 4],
    ] as const)
      if (Array.isArray(v[k])) v[k] = distinct(v[k]).slice(0, max);
  } else if (name === 'worldQuestions' && Array.isArray(v.questions)) {
    v.questions = distinct(v.questions).slice(0, 5);
  }
  return v;
}

/**
 * The cast as a list of people with a name (a model that leaves it out, or sends a name list or a
 * map of name → description, still reports who was there); over-long fields are cut, not refused.
 */
/** Proposals with a stat of ours and numbers (sent as strings too); anything else is left out. */
function choiceChecksOf(v: unknown): unknown[] {
  if (!Array.isArray(v)) return [];
  const out: unknown[] = [];
  for (const x of v) {
    if (!isObject(x)) continue;
    const stat = statName(x.stat);
    const choice = numberOf(x.choice);
    const difficulty = numberOf(x.difficulty);
    if (!stat || choice === null || difficulty === null || choice < 1 || choice > 4) continue;
    out.push({ choice: Math.round(choice), stat, difficulty: Math.round(difficulty) });
  }
  return out.slice(0, 4);
}

function castOf(v: unknown): unknown {
  const entries: unknown[] = Array.isArray(v)
    ? v
    : isObject(v)
      ? Object.entries(v).map(([name, d]) => (isObject(d) ? { name, ...d } : { name, description: d }))
      : [];
  const seen = new Set<string>();
  const out: JsonObject[] = [];
  for (const e of entries) {
    const m: JsonObject = typeof e === 'string' ? { name: e } : isObject(e) ? e : {};
    const name = typeof m.name === 'string' ? m.name.trim().slice(0, 60) : '';
    if (!name || name.includes('\n') || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const field = (x: unknown, max: number, oneLine: boolean) => {
      if (typeof x !== 'string') return null;
      const t = (oneLine ? x.replace(/\s+/g, ' ') : x).trim();
      return t ? t.slice(0, max).trim() : null;
    };
    out.push({ name, role: field(m.role, 80, true), description: field(m.description, 400, false), status: field(m.status, 80, true) });
  }
  return out.slice(0, CAST_MAX);
}

/** Memories as {kind, text}: a bare string is an event; an unknown kind a fact; over-long ones cut at a word. */
function memoriesOf(v: unknown): unknown[] {
  if (!Array.isArray(v)) return [];
  const out: JsonObject[] = [];
  for (const m of v) {
    const raw = typeof m === 'string' ? { kind: 'event', text: m } : isObject(m) ? m : null;
    if (!raw || typeof raw.text !== 'string' || !raw.text.trim()) continue;
    const kind = typeof raw.kind === 'string' && (MEMORY_KINDS as readonly string[]).includes(raw.kind.toLowerCase()) ? raw.kind.toLowerCase() : 'fact';
    let text = raw.text.replace(/\s+/g, ' ').trim();
    if (text.length > 200) text = `${text.slice(0, 199).replace(/\s+\S*$/, '')}…`;
    out.push({ kind, text });
  }
  return out.slice(0, MEMORIES_PER_CHAPTER_MAX);
}

function plainStrings(v: unknown): unknown {
  if (typeof v === 'string') return plainAngles(v);
  if (Array.isArray(v)) return v.map(plainStrings);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainStrings(x)]));
  return v;
}

function statName(s: unknown): (typeof STAT_NAMES)[number] | null {
  if (typeof s !== 'string') return null;
  const key = s.trim().toLowerCase();
  return STAT_NAMES.find((n) => n === key) ?? null;
}

function numberOf(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? Math.round(n) : null;
}

function increasesOf(v: unknown): unknown {
  const entries: Array<[unknown, unknown]> = Array.isArray(v)
    ? v.map((x) => (isObject(x) ? [x.stat, x.amount] : [null, null]))
    : isObject(v)
      ? Object.entries(v)
      : [];
  const out = new Map<string, number>();
  for (const [stat, amount] of entries) {
    const name = statName(stat);
    const n = numberOf(amount);
    if (name && n !== null && n > 0) out.set(name, Math.min(3, (out.get(name) ?? 0) + n));
  }
  return [...out].slice(0, 3).map(([stat, amount]) => ({ stat, amount }));
}

function statsOf(v: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    const name = statName(k);
    const n = numberOf(x);
    out[name ?? k] = n === null ? x : Math.max(1, Math.min(20, n));
  }
  return out;
}

function booleanOf(v: unknown): unknown {
  if (v === 'true' || v === 1) return true;
  if (v === 'false' || v === 0 || v === null) return false;
  return v;
}

function blankToNull(v: unknown): unknown {
  return typeof v === 'string' && v.trim() === '' ? null : v;
}

/** Trimmed, non-empty, without repeats (case-insensitive); non-strings are left for validation. */
function distinct(list: unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const x of list) {
    if (typeof x !== 'string') {
      out.push(x);
      continue;
    }
    const t = x.trim();
    if (t === '' || seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t);
  }
  return out;
}

type JsonSchema = { [k: string]: unknown };

/**
 * What strict structured outputs accept: every property required, nullable instead of optional,
 * additionalProperties false — and no numeric or length limits (minimum, maxLength, minItems…),
 * which strict mode has rejected. The limits still hold: zod validates every answer locally.
 */
const UNSUPPORTED_IN_STRICT = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'format',
];

/** JSON schema for response_format, hardened for strict mode whatever the zod version emits. */
export function strictJsonSchema(schema: z.ZodType): JsonSchema {
  const raw = z.toJSONSchema(schema, { target: 'draft-7' }) as JsonSchema;
  delete raw.$schema;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const o = node as JsonSchema;
    // Schema nodes only (they have a type); a `properties` map's keys are field names.
    if (typeof o.type === 'string' || Array.isArray(o.type)) for (const k of UNSUPPORTED_IN_STRICT) delete o[k];
    if (o.type === 'object' && o.properties && typeof o.properties === 'object') {
      o.additionalProperties = false;
      o.required = Object.keys(o.properties as object);
    }
    for (const v of Object.values(o)) walk(v);
  };
  walk(raw);
  return raw;
}

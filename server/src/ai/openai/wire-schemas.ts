/**
 * What we ask the model to produce (response_format json_schema, strict) and how it maps to our
 * result types. Wire schemas are strict-mode friendly: every property required, nullable instead of
 * optional, no maps (stat increases are a list of {stat, amount}). The domain schemas in story-ai.ts
 * (with their plain-text and distinctness refinements) still validate the converted result.
 */
import { z } from 'zod';
import { STAT_NAMES, STYLE_FIELDS, type ChapterResult, type StyleField } from '../story-ai';

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
  }),
  mission: z.object({ objective: z.string().min(5).max(240) }),
  styles: z.object(Object.fromEntries(STYLE_FIELDS.map((f) => [f, z.string().max(120)])) as Record<StyleField, z.ZodString>),
  summary: z.object({ summary: z.string().min(1).max(4000) }),
} as const;

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
  };
}

type JsonSchema = { [k: string]: unknown };

/** JSON schema for response_format, hardened for strict mode whatever the zod version emits. */
export function strictJsonSchema(schema: z.ZodType): JsonSchema {
  const raw = z.toJSONSchema(schema, { target: 'draft-7' }) as JsonSchema;
  delete raw.$schema;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const o = node as JsonSchema;
    if (o.type === 'object' && o.properties && typeof o.properties === 'object') {
      o.additionalProperties = false;
      o.required = Object.keys(o.properties as object);
    }
    for (const v of Object.values(o)) walk(v);
  };
  walk(raw);
  return raw;
}

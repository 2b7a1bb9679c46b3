/**
 * "What the storyteller remembered" (issue 30, item 3): what a chapter was written from, section by
 * section, with token counts, and what was left out and why — the prompt report its take keeps
 * (chapters.prompt_report, written by commit_chapter for the latest three chapters only: a report
 * holds the whole prompt, so older ones are dropped as the story moves on).
 */
import type { DataSource } from 'typeorm';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { AppError } from '../../../common/app-error';
import type { PromptOmission, PromptReport, PromptSection } from '../../../ai/story-ai';
import { findOwnedCharacter } from '../../characters/owned-character';
import { isUuid } from '../../shared/input';

@ObjectType({ description: 'One part of what the storyteller was sent, exactly as it was sent.' })
export class RememberedSection implements PromptSection {
  @Field({
    description:
      'rules, world, world_material, character, essentials, pinned_cards, summary, memories, cards, people, history or turn (what the turn asked: the action, the state).',
  })
  key: string;

  @Field()
  title: string;

  @Field(() => Int, { description: "Tokens, as the tier's tokenizer counts them (an estimate where none is known)." })
  tokens: number;

  @Field({ description: 'The section as sent (for the offline storyteller: what it read).' })
  text: string;
}

@ObjectType({ description: 'Something of the story that was not sent, and why.' })
export class RememberedOmission implements PromptOmission {
  @Field({ description: 'The section it would have been in.' })
  section: string;

  @Field({ description: 'What it was, in words ("Mara\'s card", "Chapter 3").' })
  what: string;

  @Field(() => Int)
  tokens: number;

  @Field({ description: 'Why it was left out ("cut to fit", "no room left", …).' })
  reason: string;
}

@ObjectType({ description: "What the storyteller remembered for a chapter: its prompt, section by section, within the tier's context." })
export class Remembered {
  @Field(() => ID)
  chapterId: string;

  @Field(() => Int, { description: 'The chapter (0-based index).' })
  chapterIndex: number;

  @Field(() => Int)
  take: number;

  @Field({ description: 'openai (a model server) or offline.' })
  provider: string;

  @Field()
  model: string;

  @Field(() => Int, { description: "The tier's context, in tokens." })
  maxContextTokens: number;

  @Field(() => Int, { description: 'Kept free for the answer.' })
  reservedTokens: number;

  @Field(() => Int, { description: 'The whole prompt.' })
  promptTokens: number;

  @Field(() => [RememberedSection])
  sections: RememberedSection[];

  @Field(() => [RememberedOmission])
  omitted: RememberedOmission[];
}

/**
 * The report of the story's latest chapter (its selected take), or of the chapter given; null when
 * that chapter keeps none (older than the latest three, or written before reports were kept).
 */
export async function rememberedFor(dataSource: DataSource, userId: string, characterId: unknown, chapterId?: unknown): Promise<Remembered | null> {
  const c = await findOwnedCharacter(dataSource, userId, characterId);
  const given = chapterId !== undefined && chapterId !== null;
  if (given && !isUuid(chapterId)) throw AppError.notFound('Chapter');
  const [row] = (await dataSource.query(
    `SELECT id, "index", take, prompt_report FROM chapters
      WHERE character_id = $1 AND status = 'complete' AND ${given ? 'id = $2' : 'is_selected'}
      ORDER BY "index" DESC LIMIT 1`,
    given ? [c.id, chapterId] : [c.id],
  )) as Array<{ id: string; index: number; take: number; prompt_report: PromptReport | string | null }>;
  if (!row) {
    if (given) throw AppError.notFound('Chapter');
    return null;
  }
  const r = typeof row.prompt_report === 'string' ? (JSON.parse(row.prompt_report) as PromptReport) : row.prompt_report;
  if (!r) return null;
  return {
    chapterId: row.id,
    chapterIndex: row.index,
    take: row.take,
    provider: r.provider,
    model: r.model,
    maxContextTokens: r.maxContextTokens,
    reservedTokens: r.reservedTokens,
    promptTokens: r.promptTokens,
    sections: r.sections.map((s) => ({ key: s.key, title: s.title, tokens: s.tokens, text: s.text })),
    omitted: r.omitted.map((o) => ({ section: o.section, what: o.what, tokens: o.tokens, reason: o.reason })),
  };
}

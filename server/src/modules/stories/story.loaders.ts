import DataLoader from 'dataloader';
import { In, type DataSource } from 'typeorm';
import { Chapter } from './chapter.entity';
import { Mission } from './missions/mission.entity';
import { BRANCH_LIST_COLUMNS, StoryBranch } from './editing/story-branch.entity';
import { StoryCard } from './memory/story-card.entity';

interface StorylineMeta {
  totalChapters: number;
  currentChapter: number | null;
  generatingChapterId: string | null;
}

/**
 * Per-request batch loaders for storyline relations: a list of N characters with their storylines
 * and mission histories costs a fixed number of queries, not N. Kept next to the stories module and
 * attached to the request's loaders object lazily, so the shared loaders file needs no stories code.
 */
export interface StoryLoaders {
  meta: DataLoader<string, StorylineMeta>;
  missions: DataLoader<string, Mission[]>;
  cards: DataLoader<string, StoryCard[]>;
  branches: DataLoader<string, StoryBranch[]>;
  latestTakes: DataLoader<string, Chapter[]>;
  /** Key: `${characterId}|${limit}|${beforeIndex ?? ''}`. */
  page: DataLoader<string, Chapter[]>;
}

const perRequest = new WeakMap<object, StoryLoaders>();

export function storyLoaders(requestScope: object, dataSource: DataSource): StoryLoaders {
  let l = perRequest.get(requestScope);
  if (!l) {
    l = createStoryLoaders(dataSource);
    perRequest.set(requestScope, l);
  }
  return l;
}

function createStoryLoaders(dataSource: DataSource): StoryLoaders {
  const chapters = dataSource.getRepository(Chapter);
  return {
    meta: new DataLoader(async (ids) => {
      const rows = (await dataSource.query(
        `SELECT character_id, COUNT(*) FILTER (WHERE is_selected) AS total, MAX("index") FILTER (WHERE is_selected) AS current,
                (ARRAY_AGG(id) FILTER (WHERE status = 'generating'))[1] AS generating
           FROM chapters WHERE character_id = ANY($1::uuid[]) GROUP BY character_id`,
        [[...ids]],
      )) as Array<{ character_id: string; total: string | number; current: number | null; generating: string | null }>;
      const by = new Map(rows.map((r) => [r.character_id, r]));
      return ids.map((id) => {
        const r = by.get(id);
        return { totalChapters: Number(r?.total ?? 0), currentChapter: r?.current ?? null, generatingChapterId: r?.generating ?? null };
      });
    }),
    missions: new DataLoader(async (ids) => {
      const rows = await dataSource.getRepository(Mission).find({ where: { characterId: In([...ids]) }, order: { startedAt: 'ASC', createdAt: 'ASC' } });
      return ids.map((id) => rows.filter((m) => m.characterId === id));
    }),
    cards: new DataLoader(async (ids) => {
      const rows = await dataSource.getRepository(StoryCard).find({ where: { characterId: In([...ids]) }, order: { pinned: 'DESC', name: 'ASC' } });
      return ids.map((id) => rows.filter((c) => c.characterId === id));
    }),
    branches: new DataLoader(async (ids) => {
      const rows = await dataSource
        .getRepository(StoryBranch)
        .find({ where: { characterId: In([...ids]) }, order: { createdAt: 'DESC' }, select: BRANCH_LIST_COLUMNS });
      return ids.map((id) => rows.filter((b) => b.characterId === id));
    }),
    latestTakes: new DataLoader(async (ids) => {
      const rows = await chapters
        .createQueryBuilder('c')
        .where('c.characterId IN (:...ids)', { ids: [...ids] })
        .andWhere(`c.status = 'complete'`)
        .andWhere('c.index = (SELECT MAX(x.index) FROM chapters x WHERE x.character_id = c.character_id AND x.is_selected)')
        .orderBy('c.take', 'ASC')
        .getMany();
      return ids.map((id) => rows.filter((c) => c.characterId === id));
    }),
    page: new DataLoader(async (keys) => {
      // Keys that share (limit, beforeIndex) are fetched together with one window query.
      const groups = new Map<string, string[]>();
      for (const k of keys) {
        const [id, rest] = [k.slice(0, k.indexOf('|')), k.slice(k.indexOf('|') + 1)];
        groups.set(rest, [...(groups.get(rest) ?? []), id]);
      }
      const result = new Map<string, Chapter[]>();
      for (const [rest, ids] of groups) {
        const [limitRaw, beforeRaw] = rest.split('|');
        const limit = Number(limitRaw);
        const before = beforeRaw === '' ? null : Number(beforeRaw);
        const ranked = (await dataSource.query(
          `SELECT id FROM (
             SELECT id, ROW_NUMBER() OVER (PARTITION BY character_id ORDER BY "index" DESC) AS rn
               FROM chapters WHERE character_id = ANY($1::uuid[]) AND is_selected AND ($2::int IS NULL OR "index" < $2::int)
           ) t WHERE rn <= $3`,
          [ids, before, limit],
        )) as Array<{ id: string }>;
        const rows = ranked.length ? await chapters.find({ where: { id: In(ranked.map((r) => r.id)) }, order: { index: 'ASC' } }) : [];
        for (const id of ids)
          result.set(
            `${id}|${rest}`,
            rows.filter((c) => c.characterId === id),
          );
      }
      return keys.map((k) => result.get(k) ?? []);
    }),
  };
}

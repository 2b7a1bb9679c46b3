import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useChapterStakes_characterQuery, type StakesChapterFieldsFragment } from '../../../gql/graphql';

/**
 * Every chapter's check and stakes, and the hero's health, inventory and difficulty (issue 31), read
 * beside the story page's query and read again whenever the story's chapters change (a new chapter,
 * another take, undo, rewind): `storyKey` names them (their ids, in order).
 */
export function useChapterStakes(characterId: string, storyKey: string) {
  const q = useChapterStakes_characterQuery({ variables: { id: characterId }, fetchPolicy: 'cache-and-network', skip: !characterId });
  const { refetch } = q;
  const seen = useRef(storyKey);
  useEffect(() => {
    if (seen.current === storyKey) return;
    seen.current = storyKey;
    void refetch().catch(() => undefined);
  }, [storyKey, refetch]);
  const byId = useMemo(() => new Map((q.data?.character?.chapterStakes ?? []).map((c) => [c.id, c])), [q.data]);
  const stakesOf = useCallback((chapterId: string): StakesChapterFieldsFragment | null => byId.get(chapterId) ?? null, [byId]);
  const reload = useCallback(() => void refetch().catch(() => undefined), [refetch]);
  return { hero: q.data?.character ?? null, stakesOf, reload };
}

import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { StakesChapterFieldsFragmentDoc, useChapterStakes_characterQuery, type StakesChapterFieldsFragment } from '../../../gql/graphql';

/**
 * Every chapter's check and stakes, and the hero's health, inventory and difficulty (issue 31), read
 * beside the story page's query and read again whenever the story's chapters change (a new chapter,
 * another take, undo, rewind): `storyKey` names them (their ids, in order).
 *
 * A take's dice never change once it is written, and the cache keeps every take's dice it has seen by
 * the chapter's id (an earlier read, or the version picked, whose mutation answers with them): a
 * chapter the latest read does not hold yet is looked up there, so its line shows at once rather than
 * after the read that follows (seconds on a busy server).
 */
export function useChapterStakes(characterId: string, storyKey: string) {
  const client = useApolloClient();
  const q = useChapterStakes_characterQuery({ variables: { id: characterId }, fetchPolicy: 'cache-and-network', skip: !characterId });
  const { refetch } = q;
  const seen = useRef(storyKey);
  useEffect(() => {
    if (seen.current === storyKey) return;
    seen.current = storyKey;
    void refetch().catch(() => undefined);
  }, [storyKey, refetch]);
  const byId = useMemo(() => new Map((q.data?.character?.chapterStakes ?? []).map((c) => [c.id, c])), [q.data]);
  const stakesOf = useCallback(
    (chapterId: string): StakesChapterFieldsFragment | null =>
      byId.get(chapterId) ??
      client.readFragment({ id: client.cache.identify({ __typename: 'Chapter', id: chapterId }), fragment: StakesChapterFieldsFragmentDoc }),
    [byId, client],
  );
  const reload = useCallback(() => void refetch().catch(() => undefined), [refetch]);
  return { hero: q.data?.character ?? null, stakesOf, reload };
}

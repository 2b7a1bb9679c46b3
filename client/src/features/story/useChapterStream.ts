import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Subscription } from 'rxjs';
import {
  ChapterStream_followDocument,
  ChapterStream_partyDocument,
  ChapterStream_playDocument,
  type ChapterStream_followSubscription,
  type ChapterStream_partySubscription,
  type ChapterStream_playSubscription,
  type GenerateChapterInput,
  type StoryChapterResultFieldsFragment,
  type StoryStreamEventFieldsFragment,
} from '../../gql/graphql';
import { errorHint } from '../../apollo/graphql-errors';
import { applyDelta } from './story-rules';

/**
 * What a stream follows: a chapter being written (after a reload), or a chapter this page starts —
 * one playChapter operation starts it and streams it, so its first words come one round trip sooner
 * than a mutation followed by a subscription. If the socket drops, graphql-ws sends the operation
 * again on reconnect; with expectedIndex the server joins the running chapter (text so far, then the
 * rest) or replays the finished one, and never writes a second.
 */
export type StreamSource =
  | { kind: 'follow'; chapterId: string | null }
  | { kind: 'play'; input: GenerateChapterInput }
  /** A party's story (party/PartyPage.tsx): its round's chapter, written by the server when the round closes. */
  | { kind: 'party'; partyId: string; chapterId: string | null };

/** The chapter being written, as this page shows it. */
export interface LiveChapter {
  chapterId: string | null;
  text: string;
  action: string | null;
  first: boolean;
  /** A new take of the latest chapter: shown in its place while it is written. */
  replacing: boolean;
  /** The next actions as the storyteller writes them, before the chapter is stored (not choosable yet). */
  choices: string[];
}

/**
 * How a stream ended: the chapter's result, or failed (the player is told by the caller) — `stopped`
 * when the player stopped it. `action` is the action a new chapter answered, to give back to the
 * composer (null for a new take of the latest chapter: its action is already in the story).
 */
export type StreamEnd =
  { failed: false; result: StoryChapterResultFieldsFragment | null } | { failed: true; hint?: string; stopped?: boolean; action: string | null };

/**
 * Follows one chapter at a time over graphql-ws: text so far, then each piece, then the result.
 * `onEnd` runs once per stream, before `live` goes back to null; unmounting stops the stream (the
 * chapter itself goes on being written on the server).
 */
export function useChapterStream(characterId: string, onEnd: (end: StreamEnd) => Promise<void>) {
  const client = useApolloClient();
  const [live, setLive] = useState<LiveChapter | null>(null);
  const stream = useRef<Subscription | null>(null);
  const onEndRef = useRef(onEnd);
  useEffect(() => {
    onEndRef.current = onEnd;
  }, [onEnd]);
  useEffect(
    () => () => {
      stream.current?.unsubscribe();
    },
    [],
  );

  const follow = useCallback(
    (source: StreamSource, action: string | null, first: boolean, replacing = false) => {
      stream.current?.unsubscribe();
      let chapterId = source.kind === 'play' ? null : source.chapterId;
      setLive({ chapterId, text: '', action, first, replacing, choices: [] });
      let done = false;
      // A new take (regenerate, continue) answers the latest chapter's action: nothing to give back.
      const giveBack = replacing ? null : action;
      const finish = async (end: StreamEnd) => {
        if (done) return;
        done = true;
        stream.current?.unsubscribe();
        stream.current = null;
        await onEndRef.current(end);
        setLive(null);
      };
      const onEvent = (event: StoryStreamEventFieldsFragment | undefined, frameError: unknown) => {
        if (frameError) return void finish({ failed: true, hint: errorHint(frameError), action: giveBack });
        if (!event || (chapterId && event.chapterId !== chapterId)) return;
        chapterId = event.chapterId;
        setLive((l) =>
          l ? { ...l, chapterId: event.chapterId, text: applyDelta(l.text, event.offset, event.delta), choices: event.choices ?? l.choices } : l,
        );
        if (event.status === 'complete') void finish({ failed: false, result: event.result });
        else if (event.status === 'failed')
          void finish({ failed: true, hint: event.errorHint ?? undefined, stopped: event.errorCode === 'STOPPED', action: giveBack });
      };
      const handlers = {
        error: (e: unknown) => void finish({ failed: true, hint: errorHint(e), action: giveBack }),
        complete: () => void finish({ failed: false, result: null }),
      };
      stream.current =
        source.kind === 'party'
          ? client
              .subscribe<ChapterStream_partySubscription>({
                query: ChapterStream_partyDocument,
                variables: { partyId: source.partyId, chapterId: source.chapterId },
              })
              .subscribe({ next: ({ data, error }) => onEvent(data?.partyChapterStream, error), ...handlers })
          : source.kind === 'play'
            ? client
                .subscribe<ChapterStream_playSubscription>({ query: ChapterStream_playDocument, variables: { input: source.input } })
                .subscribe({ next: ({ data, error }) => onEvent(data?.playChapter, error), ...handlers })
            : client
                .subscribe<ChapterStream_followSubscription>({ query: ChapterStream_followDocument, variables: { characterId, chapterId: source.chapterId } })
                .subscribe({ next: ({ data, error }) => onEvent(data?.chapterStream, error), ...handlers });
    },
    [client, characterId],
  );

  return { live, follow };
}

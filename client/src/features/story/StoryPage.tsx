import { useApolloClient } from '@apollo/client/react';
import { Fragment, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import type { Subscription } from 'rxjs';
import { errorCode } from '../../apollo/graphql-errors';
import { PageLoader } from '../../components/layout/PageLoader';
import { ConfirmDialog } from '../../components/ui/Modal';
import {
  StoryPage_chapterStreamDocument,
  StoryPage_exportStoryDocument,
  StoryPage_playChapterDocument,
  useStoryPage_characterQuery,
  useStoryPage_regenerateChapterMutation,
  useStoryPage_selectChapterTakeMutation,
  useStoryPage_settingStylesQuery,
  useStoryPage_settingsQuery,
  useStoryPage_undoLastChapterMutation,
  useStoryPage_updateMissionObjectiveMutation,
  type StoryChapterResultFieldsFragment,
  type StoryStreamEventFieldsFragment,
  type GenerateChapterInput,
  type StoryPage_chapterStreamSubscription,
  type StoryPage_playChapterSubscription,
} from '../../gql/graphql';
import { ACTION_MAX, DEFAULT_READING_LEVEL } from '../../lib/constants';
import { MESSAGES } from '../../lib/messages';
import { rememberSelectedCharacter } from '../characters/selected-character';
import { MissionPanel, useMissionCompleteHighlight } from './MissionPanel';
import { StatsPanel } from './StatsPanel';
import { applyDelta, currentAction, positiveIncreases, sendDisabled } from './story-rules';
import { immersiveActive, sanitizeStyleSet, styleVars, DEFAULT_STYLE_SET } from './story-styles';
import './story.css';

/**
 * What a stream follows: a chapter being written (after a reload), or a chapter this page starts —
 * one playChapter operation starts it and streams it, so its first words come one round trip sooner
 * than a mutation followed by a subscription. If the socket drops, graphql-ws sends the operation
 * again on reconnect; with expectedIndex the server joins the running chapter (text so far, then the
 * rest) or replays the finished one, and never writes a second.
 */
type StreamSource = { kind: 'follow'; chapterId: string | null } | { kind: 'play'; input: GenerateChapterInput };

interface LiveChapter {
  chapterId: string | null;
  text: string;
  action: string | null;
  first: boolean;
}

/** Downloads a text file (the story export) without any server round trip of the browser. */
function download(filename: string, mimeType: string, content: string) {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export default function StoryPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const client = useApolloClient();
  const ids = useId();
  const { data, error, refetch } = useStoryPage_characterQuery({ variables: { id }, fetchPolicy: 'cache-and-network' });
  const settings = useStoryPage_settingsQuery({ fetchPolicy: 'cache-and-network' });
  const character = data?.character;
  const storyline = character?.storyline;
  const setting = storyline?.currentSetting ?? character?.currentSetting ?? null;
  const immersive = immersiveActive(settings.data?.settings.immersiveUi, setting);
  const styles = useStoryPage_settingStylesQuery({ variables: { settingDescription: setting ?? '' }, skip: !immersive });

  const [live, setLive] = useState<LiveChapter | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [confirmUndo, setConfirmUndo] = useState(false);
  const { completed, trigger } = useMissionCompleteHighlight();
  const stream = useRef<Subscription | null>(null);
  const bottom = useRef<HTMLDivElement>(null);

  const [regenerate, regenerateState] = useStoryPage_regenerateChapterMutation();
  const [selectTake, selectTakeState] = useStoryPage_selectChapterTakeMutation();
  const [undo, undoState] = useStoryPage_undoLastChapterMutation();
  const [updateMission] = useStoryPage_updateMissionObjectiveMutation();

  const chapters = useMemo(() => (storyline?.chapters ?? []).filter((c) => c.status === 'complete'), [storyline]);
  const latest = chapters[chapters.length - 1];
  const busy = live !== null || regenerateState.loading || selectTakeState.loading || undoState.loading;
  const increases = positiveIncreases(latest?.statIncreases);
  const action = currentAction(selected, typed);
  const readingLevel = settings.data?.settings.readingLevel ?? DEFAULT_READING_LEVEL;

  useEffect(() => {
    if (character) rememberSelectedCharacter(character.id);
  }, [character]);
  useEffect(
    () => () => {
      stream.current?.unsubscribe();
    },
    [],
  );

  /** After a chapter: highlight a completed mission, clear the action, reload the storyline. */
  const settle = useCallback(
    async (result: StoryChapterResultFieldsFragment | null, previousMission: string | null) => {
      if (result && previousMission && (result.missionCompleted || (result.newMission && result.newMission.objective !== previousMission))) {
        trigger(previousMission);
      }
      setSelected(null);
      setTyped('');
      await refetch().catch(() => undefined);
      if (result?.newSettingGenerated) await styles.refetch?.().catch(() => undefined);
    },
    [refetch, styles, trigger],
  );

  /** Follows a chapter as it is written (graphql-ws): text so far, then each piece, then the result. */
  const follow = useCallback(
    (source: StreamSource, actionText: string | null, first: boolean, previousMission: string | null) => {
      stream.current?.unsubscribe();
      let chapterId = source.kind === 'follow' ? source.chapterId : null;
      setLive({ chapterId, text: '', action: actionText, first });
      let done = false;
      const finish = async (result: StoryChapterResultFieldsFragment | null, failed: boolean) => {
        if (done) return;
        done = true;
        stream.current?.unsubscribe();
        stream.current = null;
        if (failed) toast.error(MESSAGES.chapterFailed);
        await settle(failed ? null : result, previousMission);
        setLive(null);
      };
      const onEvent = (event: StoryStreamEventFieldsFragment | undefined, frameError: unknown) => {
        if (frameError) return void finish(null, true);
        if (!event || (chapterId && event.chapterId !== chapterId)) return;
        chapterId = event.chapterId;
        setLive((l) => (l ? { ...l, chapterId: event.chapterId, text: applyDelta(l.text, event.offset, event.delta) } : l));
        if (event.status === 'complete') void finish(event.result, false);
        else if (event.status === 'failed') void finish(null, true);
      };
      const handlers = { error: () => void finish(null, true), complete: () => void finish(null, false) };
      stream.current =
        source.kind === 'play'
          ? client
              .subscribe<StoryPage_playChapterSubscription>({ query: StoryPage_playChapterDocument, variables: { input: source.input } })
              .subscribe({ next: ({ data: frame, error: frameError }) => onEvent(frame?.playChapter, frameError), ...handlers })
          : client
              .subscribe<StoryPage_chapterStreamSubscription>({ query: StoryPage_chapterStreamDocument, variables: { characterId: id, chapterId: source.chapterId } })
              .subscribe({ next: ({ data: frame, error: frameError }) => onEvent(frame?.chapterStream, frameError), ...handlers });
    },
    [client, id, settle],
  );

  // Reloaded while a chapter is being written: pick the stream up where it is.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current || !storyline?.generatingChapterId || live) return;
    resumed.current = true;
    const generatingRow = storyline.chapters.find((c) => c.id === storyline.generatingChapterId);
    follow({ kind: 'follow', chapterId: storyline.generatingChapterId }, generatingRow?.playerChoice ?? null, chapters.length === 0, character?.currentMission?.objective ?? null);
  }, [storyline, live, follow, chapters.length, character]);

  useEffect(() => {
    if (live?.text) bottom.current?.scrollIntoView({ block: 'end', behavior: 'smooth' });
  }, [live?.text]);

  if (error && !data) {
    const code = errorCode(error);
    if (code === 'NOT_FOUND' || code === 'BAD_USER_INPUT') return <Navigate to="/characters" replace />;
    return (
      <main className="page">
        <div className="notice" role="alert">
          <p>The story could not be loaded.</p>
          <button type="button" className="btn btn-ghost" onClick={() => void refetch()}>
            Try Again
          </button>
        </div>
      </main>
    );
  }
  if (!character || !storyline) return <PageLoader label="Loading your story…" />;

  const generate = (userChoice: string) => {
    if (busy) return;
    const input = { characterId: character.id, userChoice, readingLevel, expectedIndex: chapters.length };
    follow({ kind: 'play', input }, userChoice || null, chapters.length === 0, character.currentMission?.objective ?? null);
  };

  const onSend = () => {
    if (sendDisabled(busy, action)) return;
    generate(action);
  };

  const onRegenerate = async () => {
    const previousMission = character.currentMission?.objective ?? null;
    try {
      const { data: r } = await regenerate({ variables: { input: { characterId: character.id, readingLevel } } });
      await settle(r?.regenerateChapter ?? null, previousMission);
    } catch {
      toast.error(MESSAGES.chapterFailed);
    }
  };

  const onSelectTake = async (take: number) => {
    try {
      await selectTake({ variables: { characterId: character.id, take } });
      await refetch();
    } catch {
      toast.error(MESSAGES.selectTakeFailed);
    }
  };

  const onUndo = async () => {
    setConfirmUndo(false);
    try {
      await undo({ variables: { characterId: character.id } });
      await refetch();
    } catch {
      toast.error(MESSAGES.undoFailed);
    }
  };

  const onExport = async (format: 'md' | 'html') => {
    try {
      const { data: file } = await client.query({
        query: StoryPage_exportStoryDocument,
        variables: { characterId: character.id, format },
        fetchPolicy: 'network-only',
      });
      if (file) download(file.exportStory.filename, file.exportStory.mimeType, file.exportStory.content);
    } catch (e) {
      console.error('Export failed', e);
      toast.error('Failed to export the story. Please try again.');
    }
  };

  const onSaveMission = async (objective: string) => {
    try {
      await updateMission({ variables: { characterId: character.id, objective } });
      await refetch();
      return true;
    } catch (e) {
      console.error('Mission update failed', e); // SPEC §8: only logged; edit mode stays open
      return false;
    }
  };

  const styleSet = immersive ? sanitizeStyleSet(styles.error ? DEFAULT_STYLE_SET : styles.data?.settingStyles) : null;
  const takes = storyline.latestTakes;
  const takeIndex = latest ? takes.findIndex((t) => t.take === latest.take) : -1;
  const choices = live ? [] : (latest?.choices ?? []);

  return (
    <main
      className={`story-page ${styleSet ? 'is-immersive' : ''}`}
      style={styleSet ? styleVars(styleSet) : undefined}
      data-immersive={styleSet ? 'on' : 'off'}
      aria-labelledby={`${ids}-title`}
    >
      <header className="story-top">
        <div>
          <h1 id={`${ids}-title`} className="story-title">
            {character.name}
          </h1>
          <p className="story-world">{character.worldName ?? 'Unknown World'}</p>
        </div>
        <div className="story-top-actions">
          <button type="button" className="story-button story-button-ghost" onClick={() => void onExport('md')} disabled={chapters.length === 0}>
            Export Markdown
          </button>
          <button type="button" className="story-button story-button-ghost" onClick={() => void onExport('html')} disabled={chapters.length === 0}>
            Export HTML
          </button>
          <button type="button" className="story-button" onClick={() => navigate('/profile')}>
            Close Story
          </button>
        </div>
      </header>

      <div className="story-layout">
        <aside className="story-side" aria-label="Mission and stats">
          <MissionPanel
            objective={character.currentMission?.objective ?? null}
            completedObjective={completed}
            onSave={onSaveMission}
            disabled={busy}
          />
          <StatsPanel stats={character.stats} increases={live ? {} : increases} />
        </aside>

        <section className="story-main" aria-label="Story">
          {chapters.length === 0 && !live && (
            <div className="story-start">
              <p>Your story in {character.worldName ?? 'this world'} has not begun yet.</p>
              <button type="button" className="story-button story-button-lg" onClick={() => generate('')}>
                Start your adventure!
              </button>
            </div>
          )}

          <div className="chapters">
            {chapters.map((chapter, i) => {
              const isCurrent = i === chapters.length - 1 && !live;
              return (
                <Fragment key={chapter.id}>
                  {chapter.playerChoice && (
                    <p className="player-choice">
                      <span className="visually-hidden">You chose: </span>
                      {chapter.playerChoice}
                    </p>
                  )}
                  <article className={`chapter ${isCurrent ? 'is-current' : ''}`} aria-label={`Chapter ${chapter.index + 1}`} data-testid="chapter">
                    <div className="chapter-text">{chapter.text}</div>
                  </article>
                  {!isCurrent && <hr className="chapter-divider" />}
                </Fragment>
              );
            })}

            {live && (
              <>
                {live.action && (
                  <p className="player-choice">
                    <span className="visually-hidden">You chose: </span>
                    {live.action}
                  </p>
                )}
                <article className="chapter is-current is-streaming" aria-busy="true" aria-label="Chapter being written" data-testid="live-chapter">
                  {live.first && (
                    <p className="story-status" role="status">
                      Generating initial story...
                    </p>
                  )}
                  {!live.first && !live.text && (
                    <p className="story-status" role="status">
                      The story continues…
                    </p>
                  )}
                  <div className="chapter-text">
                    {live.text}
                    <span className="caret" aria-hidden="true" />
                  </div>
                </article>
              </>
            )}
          </div>

          {latest && !live && (
            <div className="chapter-tools">
              {takes.length > 1 && takeIndex >= 0 && (
                <div className="take-switcher" role="group" aria-label="Versions of this chapter">
                  <button
                    type="button"
                    className="story-button story-button-ghost"
                    aria-label="Previous version"
                    disabled={busy || takeIndex === 0}
                    onClick={() => void onSelectTake(takes[takeIndex - 1].take)}
                  >
                    ‹
                  </button>
                  <span>
                    Version {takeIndex + 1} of {takes.length}
                  </span>
                  <button
                    type="button"
                    className="story-button story-button-ghost"
                    aria-label="Next version"
                    disabled={busy || takeIndex === takes.length - 1}
                    onClick={() => void onSelectTake(takes[takeIndex + 1].take)}
                  >
                    ›
                  </button>
                </div>
              )}
              <button type="button" className="story-button story-button-ghost" onClick={() => void onRegenerate()} disabled={busy} aria-busy={regenerateState.loading}>
                {regenerateState.loading ? 'Rewriting…' : 'Regenerate'}
              </button>
              <button type="button" className="story-button story-button-ghost" onClick={() => setConfirmUndo(true)} disabled={busy}>
                Undo
              </button>
            </div>
          )}

          {chapters.length > 0 && (
            <div className="composer">
              {choices.length > 0 && (
                <div className="choices" role="group" aria-label="Suggested choices">
                  {choices.map((choice) => (
                    <button
                      key={choice}
                      type="button"
                      className={`choice ${selected === choice && !typed.trim() ? 'is-selected' : ''}`}
                      aria-pressed={selected === choice && !typed.trim()}
                      onClick={() => {
                        setSelected(choice);
                        setTyped('');
                      }}
                      disabled={busy}
                    >
                      {choice}
                    </button>
                  ))}
                </div>
              )}
              <form
                className="action-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  onSend();
                }}
              >
                <label htmlFor={`${ids}-action`} className="visually-hidden">
                  Your action
                </label>
                <textarea
                  id={`${ids}-action`}
                  rows={2}
                  placeholder="Or type your own action..."
                  value={typed}
                  maxLength={ACTION_MAX}
                  disabled={busy}
                  onChange={(e) => {
                    setTyped(e.target.value);
                    if (e.target.value.trim()) setSelected(null);
                  }}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && !e.shiftKey) {
                      e.preventDefault();
                      onSend();
                    }
                  }}
                />
                <button type="submit" className="story-button send-button" disabled={sendDisabled(busy, action)} aria-label="Send">
                  <svg viewBox="0 0 24 24" width="1.2em" height="1.2em" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
                    <path d="M4 12h14M13 6l6 6-6 6" strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                </button>
              </form>
            </div>
          )}
          <div ref={bottom} />
        </section>
      </div>

      {confirmUndo && (
        <ConfirmDialog
          title="Undo the last chapter?"
          message="The latest chapter and all its versions will be removed, and your stats and mission go back to how they were before it."
          confirmLabel="Undo Chapter"
          onConfirm={() => void onUndo()}
          onCancel={() => setConfirmUndo(false)}
        />
      )}
    </main>
  );
}

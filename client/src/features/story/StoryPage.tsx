import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { errorCode, withHint } from '../../apollo/graphql-errors';
import { PageLoader } from '../../components/layout/PageLoader';
import { ConfirmDialog } from '../../components/ui/Modal';
import {
  useStoryPage_characterQuery,
  useStoryPage_olderChaptersLazyQuery,
  useStoryPage_startContinuationMutation,
  useStoryPage_startRegenerationMutation,
  useStoryPage_rewindStoryMutation,
  useStoryPage_selectChapterTakeMutation,
  useStoryPage_stopChapterMutation,
  useStoryPage_settingStylesQuery,
  useStoryPage_settingsQuery,
  useStoryPage_undoLastChapterMutation,
  useStoryPage_updateMissionObjectiveMutation,
  type StoryChapterFieldsFragment,
  type StoryChapterResultFieldsFragment,
} from '../../gql/graphql';
import { DEFAULT_READING_LEVEL } from '../../lib/constants';
import { MESSAGES } from '../../lib/messages';
import { rememberSelectedCharacter } from '../characters/selected-character';
import { PlayWithFriends } from '../party/CreatePartyDialog';
import { ChapterList } from './ChapterList';
import { ChapterTools } from './ChapterTools';
import { Composer, useComposerDraft } from './Composer';
import { MissionPanel, useMissionCompleteHighlight } from './MissionPanel';
import { StatsPanel } from './StatsPanel';
import { StoryExport } from './StoryExport';
import { StoryPublishPanel } from './StoryPublishPanel';
import { StoryBranchesPanel } from './StoryBranchesPanel';
import { StoryCardsPanel } from './StoryCardsPanel';
import { StoryMemoryPanel } from './StoryMemoryPanel';
import { MemoryBankPanel } from './memory/MemoryBankPanel';
import { RememberedPanel } from './memory/RememberedPanel';
import { StoryTools, type StoryTool } from './tools/StoryTools';
import { useReadAloud } from './read-aloud/useReadAloud';
import { usePlayerAction } from './player-action';
import { DefeatChoice } from './stakes/DefeatChoice';
import { DifficultySelect } from './stakes/DifficultySelect';
import { HealthMeter } from './stakes/HealthMeter';
import { InventoryPanel } from './stakes/InventoryPanel';
import { useChapterStakes } from './stakes/useChapterStakes';
import { AWAY_MS, useReadingPosition } from './reading-position';
import { positiveIncreases } from './story-rules';
import { immersiveActive, sanitizeStyleSet, styleVars, DEFAULT_STYLE_SET } from './story-styles';
import { useChapterStream, type StreamEnd } from './useChapterStream';
import './story.css';

/**
 * The storyline page (SPEC §5): the story so far and the chapter being written (ChapterList,
 * useChapterStream), the latest chapter's versions, Regenerate and Undo (ChapterTools), the next
 * move (Composer), mission and stats, export. This component holds the page's data and actions;
 * every failed action is shown to the player (usePlayerAction, or the mission panel's inline alert).
 */
export default function StoryPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const ids = useId();
  const run = usePlayerAction();
  const { data, error, refetch } = useStoryPage_characterQuery({ variables: { id }, fetchPolicy: 'cache-and-network' });
  const settings = useStoryPage_settingsQuery({ fetchPolicy: 'cache-and-network' });
  const character = data?.character;
  const storyline = character?.storyline;
  const setting = storyline?.currentSetting ?? character?.currentSetting ?? null;
  const immersive = immersiveActive(settings.data?.settings.immersiveUi, setting);
  const styles = useStoryPage_settingStylesQuery({ variables: { settingDescription: setting ?? '' }, skip: !immersive });

  const draft = useComposerDraft();
  const { clear: clearDraft, setTyped: putBackAction } = draft;
  const [confirmUndo, setConfirmUndo] = useState(false);
  /** The chapter (0-based) the player asked to rewind to, while the confirmation is open. */
  const [confirmRewind, setConfirmRewind] = useState<number | null>(null);
  const { completed, trigger } = useMissionCompleteHighlight();
  /** The defeat chapter the player chose to go on from (the composer is back for it). */
  const [goneOn, setGoneOn] = useState<string | null>(null);
  const bottom = useRef<HTMLDivElement>(null);
  /** The mission before the chapter in flight: highlighted as complete if the chapter ends it. */
  const missionBefore = useRef<string | null>(null);

  const [startRegeneration, regenerateState] = useStoryPage_startRegenerationMutation();
  const [selectTake, selectTakeState] = useStoryPage_selectChapterTakeMutation();
  const [undo, undoState] = useStoryPage_undoLastChapterMutation();
  const [rewind, rewindState] = useStoryPage_rewindStoryMutation();
  const [stopChapter, stopState] = useStoryPage_stopChapterMutation();
  const [startContinuation, continueState] = useStoryPage_startContinuationMutation();
  const [updateMission] = useStoryPage_updateMissionObjectiveMutation();

  const readAloud = useReadAloud(id);
  const { play: playAloud } = readAloud;
  const autoRead = readAloud.autoRead && readAloud.available;

  /** After a chapter: highlight a completed mission, clear the action, reload the storyline. */
  const settle = useCallback(
    async (result: StoryChapterResultFieldsFragment | null) => {
      const previous = missionBefore.current;
      if (result && previous && (result.missionCompleted || (result.newMission && result.newMission.objective !== previous))) trigger(previous);
      clearDraft();
      await refetch().catch(() => undefined);
      if (result?.newSettingGenerated) await styles.refetch?.().catch(() => undefined);
    },
    [refetch, styles, trigger, clearDraft],
  );
  const onStreamEnd = useCallback(
    async (end: StreamEnd) => {
      if (!end.failed) {
        // "Read new chapters aloud as they arrive": the finished chapter, from its first word.
        const chapter = end.result?.newChapter;
        if (chapter && autoRead) playAloud(chapter);
        return settle(end.result);
      }
      if (end.stopped) toast.info(MESSAGES.chapterStopped);
      else toast.error(withHint(MESSAGES.chapterFailed, end.hint));
      await settle(null);
      // Nothing of the chapter was kept: the action it answered goes back to the composer, to send
      // again or change.
      if (end.action) putBackAction(end.action);
    },
    [settle, autoRead, playAloud, putBackAction],
  );
  const { live, follow } = useChapterStream(id, onStreamEnd);

  const chapters = useMemo(() => (storyline?.chapters ?? []).filter((c) => c.status === 'complete'), [storyline]);
  const latest = chapters.at(-1);
  const stakes = useChapterStakes(id, chapters.map((c) => c.id).join(','));
  /** The latest chapter is a defeat the player has not yet chosen to go on from. */
  const defeated = Boolean(latest && stakes.stakesOf(latest.id)?.stakes?.defeat && !live && goneOn !== latest.id);
  // Earlier pages the player asked for, oldest first. Only those before the loaded window count
  // (after a rewind or undo the window may reach back over them).
  const [older, setOlder] = useState<{ chapters: StoryChapterFieldsFragment[]; hasOlder: boolean } | null>(null);
  const [loadOlder, olderState] = useStoryPage_olderChaptersLazyQuery({ fetchPolicy: 'network-only' });
  const firstIndex = chapters[0]?.index ?? 0;
  const earlier = storyline?.hasOlder ? (older?.chapters ?? []).filter((c) => c.index < firstIndex && c.status === 'complete') : [];
  const moreEarlier = storyline?.hasOlder ? (earlier.length > 0 ? (older?.hasOlder ?? false) : true) : false;
  const lastRead = useReadingPosition(id, chapters.length > 0, latest?.index ?? null);
  const [previouslyClosed, setPreviouslyClosed] = useState(false);
  // Back after a day or more (the first read of this visit decides; reading here moves lastRead on).
  const [away] = useState(() => lastRead !== null && Date.now() - lastRead > AWAY_MS);
  const busy = live !== null || regenerateState.loading || continueState.loading || selectTakeState.loading || undoState.loading || rewindState.loading;
  const readingLevel = settings.data?.settings.readingLevel ?? DEFAULT_READING_LEVEL;

  useEffect(() => {
    if (character) rememberSelectedCharacter(character.id);
  }, [character]);

  // The chapter being read aloud went (undo, rewind) or is being rewritten in place (a new take): the
  // voice stops with it. Only once it was shown: a chapter read as it arrives is read before the
  // story's reload shows it.
  const shown = [...earlier, ...(live?.replacing ? chapters.slice(0, -1) : chapters)];
  const readingId = readAloud.reading?.chapterId ?? null;
  const readingShown = readingId !== null && shown.some((c) => c.id === readingId);
  const seenReading = useRef<string | null>(null);
  const { stop: stopAloud } = readAloud;
  useEffect(() => {
    if (readingShown) seenReading.current = readingId;
    else if (readingId !== null && seenReading.current === readingId) stopAloud();
  }, [readingId, readingShown, stopAloud]);

  // Reloaded while a chapter is being written: pick the stream up where it is.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current || !storyline?.generatingChapterId || live) return;
    resumed.current = true;
    const generatingRow = storyline.chapters.find((c) => c.id === storyline.generatingChapterId);
    missionBefore.current = character?.currentMission?.objective ?? null;
    // A new take of the latest chapter (same index) is shown in its place.
    const replacing = Boolean(generatingRow && latest && generatingRow.index === latest.index);
    follow({ kind: 'follow', chapterId: storyline.generatingChapterId }, generatingRow?.playerChoice ?? null, chapters.length === 0, replacing);
  }, [storyline, live, follow, chapters.length, character, latest]);

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
    missionBefore.current = character.currentMission?.objective ?? null;
    const input = { characterId: character.id, userChoice, readingLevel, expectedIndex: chapters.length };
    follow({ kind: 'play', input }, userChoice || null, chapters.length === 0);
  };

  // Streamed regenerate: the new take is written in the latest chapter's place, as it comes.
  const onRegenerate = () =>
    run(MESSAGES.chapterFailed, async () => {
      missionBefore.current = character.currentMission?.objective ?? null;
      const { data: r } = await startRegeneration({ variables: { input: { characterId: character.id, readingLevel } } });
      if (r) follow({ kind: 'follow', chapterId: r.startRegeneration.chapterId }, latest?.playerChoice ?? null, false, true);
    });

  // Continue: streamed in the latest chapter's place, starting with the chapter so far.
  const onContinue = () =>
    run(MESSAGES.chapterFailed, async () => {
      missionBefore.current = character.currentMission?.objective ?? null;
      const { data: r } = await startContinuation({ variables: { input: { characterId: character.id, readingLevel } } });
      if (r) follow({ kind: 'follow', chapterId: r.startContinuation.chapterId }, latest?.playerChoice ?? null, false, true);
    });

  const onSelectTake = (take: number) =>
    run(MESSAGES.selectTakeFailed, async () => {
      await selectTake({ variables: { characterId: character.id, take } });
      await refetch();
    });

  const onUndo = () => {
    setConfirmUndo(false);
    return run(MESSAGES.undoFailed, async () => {
      await undo({ variables: { characterId: character.id } });
      await refetch();
    });
  };

  // The stream then ends as stopped (onStreamEnd); if the chapter had just finished, it simply stands.
  const onStop = () =>
    run(MESSAGES.stopFailed, async () => {
      await stopChapter({ variables: { characterId: character.id } });
    });

  const onRewind = (index: number) => {
    setConfirmRewind(null);
    return run(MESSAGES.rewindFailed, async () => {
      await rewind({ variables: { characterId: character.id, chapterIndex: index } });
      toast.success(MESSAGES.rewound(index + 1));
      await refetch();
    });
  };

  const onShowEarlier = () =>
    run(MESSAGES.olderChaptersFailed, async () => {
      const beforeIndex = earlier[0]?.index ?? firstIndex;
      const { data: page } = await loadOlder({ variables: { id: character.id, beforeIndex } });
      const got = page?.character?.storyline;
      if (!got) throw new Error('no earlier chapters returned');
      setOlder({ chapters: [...got.chapters, ...earlier], hasOlder: got.hasOlder });
    });

  const onSaveMission = async (objective: string) => {
    try {
      await updateMission({ variables: { characterId: character.id, objective } });
      await refetch();
      return true;
    } catch (e) {
      console.error('Mission update failed', e); // SPEC §8: edit mode stays open; the panel says it failed
      return false;
    }
  };

  // The story's tools, next to where the player types (StoryTools). A new tool is one entry here.
  const tools: StoryTool[] = [
    {
      id: 'mission',
      label: 'Mission',
      icon: '◎',
      badge: completed ? '✓' : null,
      content: (
        <>
          <MissionPanel
            objective={character.currentMission?.objective ?? null}
            completedObjective={completed}
            onSave={onSaveMission}
            disabled={busy}
            log={character.missionHistory.filter((m) => m.status === 'completed')}
          />
          <StatsPanel stats={character.stats} increases={live ? {} : positiveIncreases(latest?.statIncreases)} />
          {stakes.hero && <HealthMeter health={stakes.hero.health} max={stakes.hero.healthMax} />}
        </>
      ),
    },
    {
      id: 'inventory',
      label: 'Inventory',
      icon: '⚒',
      badge: stakes.hero?.inventory.length || null,
      content: stakes.hero ? <InventoryPanel items={stakes.hero.inventory} /> : null,
    },
    {
      id: 'memory',
      label: 'Memory',
      icon: '✎',
      content: (
        <>
          <StoryMemoryPanel characterId={character.id} memory={character.storyMemory}>
            {stakes.hero && <DifficultySelect characterId={character.id} difficulty={stakes.hero.storyMemory.difficulty} onChanged={stakes.reload} />}
          </StoryMemoryPanel>
          <MemoryBankPanel characterId={character.id} />
        </>
      ),
    },
    {
      id: 'remembered',
      label: 'Remembered',
      icon: '☰',
      secondary: true,
      content: <RememberedPanel characterId={character.id} chapterId={live ? null : (latest?.id ?? null)} />,
    },
    {
      id: 'cards',
      label: 'Cards',
      icon: '▦',
      badge: character.storyCards.length || null,
      content: <StoryCardsPanel characterId={character.id} cards={character.storyCards} onChanged={() => refetch().catch(() => undefined)} />,
    },
    {
      id: 'branches',
      label: 'Branches',
      icon: '⋔',
      secondary: true,
      badge: character.storyBranches.length || null,
      content: (
        <StoryBranchesPanel characterId={character.id} branches={character.storyBranches} disabled={busy} onChanged={() => refetch().catch(() => undefined)} />
      ),
    },
    {
      id: 'publish',
      label: 'Publish',
      icon: '↗',
      secondary: true,
      content: (
        <StoryPublishPanel
          characterId={character.id}
          publication={character.publication}
          chapterCount={chapters.length}
          disabled={busy}
          onChanged={() => refetch().catch(() => undefined)}
        />
      ),
    },
  ];

  const showPreviously = away && !previouslyClosed && Boolean(character.storyMemory.summary.trim());
  const previously = showPreviously ? (
    <section className="previously" aria-labelledby={`${ids}-previously`} data-reading-start>
      <h2 id={`${ids}-previously`}>Previously…</h2>
      <p>{character.storyMemory.summary}</p>
      <button type="button" className="story-button story-button-ghost" onClick={() => setPreviouslyClosed(true)}>
        Hide
      </button>
    </section>
  ) : null;

  const styleSet = immersive ? sanitizeStyleSet(styles.error ? DEFAULT_STYLE_SET : styles.data?.settingStyles) : null;
  const themeVars = styleSet ? styleVars(styleSet) : undefined;

  return (
    <main
      className={`story-page ${styleSet ? 'is-immersive' : ''}`}
      style={themeVars}
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
          <PlayWithFriends characterId={character.id} disabled={busy} />
          <StoryExport characterId={character.id} disabled={chapters.length === 0} />
          <button type="button" className="story-button" onClick={() => navigate('/profile')}>
            Close Story
          </button>
        </div>
      </header>

      <div className="story-layout">
        <section className="story-main" aria-label="Story">
          {chapters.length === 0 && !live && (
            <div className="story-start">
              <p>Your story in {character.worldName ?? 'this world'} has not begun yet.</p>
              <button type="button" className="story-button story-button-lg" onClick={() => generate('')}>
                Start your adventure!
              </button>
            </div>
          )}

          {moreEarlier && (
            <button
              type="button"
              className="story-button story-button-ghost show-earlier"
              onClick={() => void onShowEarlier()}
              disabled={olderState.loading}
              aria-busy={olderState.loading}
            >
              Show earlier chapters
            </button>
          )}
          <ChapterList
            beforeLatest={previously}
            chapters={shown}
            live={live}
            stakesOf={stakes.stakesOf}
            readAloud={readAloud}
            editing={
              busy
                ? undefined
                : {
                    characterId: character.id,
                    onEdited: () => {
                      setOlder(null); // an earlier chapter's text may have changed: loaded again on demand
                      return refetch().catch(() => undefined);
                    },
                    onRewind: (index) => setConfirmRewind(index),
                  }
            }
          />

          {live && (
            <div className="stop-bar">
              <button type="button" className="story-button" onClick={() => void onStop()} disabled={stopState.loading} aria-busy={stopState.loading}>
                Stop
              </button>
            </div>
          )}

          {latest && !live && (
            <ChapterTools
              takes={storyline.latestTakes}
              currentTake={latest.take}
              busy={busy}
              regenerating={regenerateState.loading}
              onSelectTake={(take) => void onSelectTake(take)}
              onRegenerate={() => void onRegenerate()}
              onContinue={() => void onContinue()}
              onUndo={() => setConfirmUndo(true)}
            />
          )}

          {latest && defeated && (
            <DefeatChoice
              chapterNumber={latest.index + 1}
              disabled={busy}
              onRewind={() => setConfirmRewind(latest.index - 1)}
              onGoOn={() => setGoneOn(latest.id)}
            />
          )}
          {(chapters.length > 0 || live) && !defeated && (
            <Composer
              choices={live ? live.choices : (latest?.choices ?? [])}
              pending={live !== null}
              selected={draft.selected}
              typed={draft.typed}
              busy={busy}
              onSelect={draft.onSelect}
              onType={draft.onType}
              onSend={generate}
            />
          )}
          <div ref={bottom} />
        </section>
        <StoryTools tools={tools} theme={themeVars} />
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
      {confirmRewind !== null && (
        <ConfirmDialog
          title={`Rewind to chapter ${confirmRewind + 1}?`}
          message={`The chapters after it are set aside under Branches, where you can return to them. Your stats, mission and story cards go back to how they were at chapter ${confirmRewind + 1}.`}
          confirmLabel="Rewind"
          onConfirm={() => void onRewind(confirmRewind)}
          onCancel={() => setConfirmRewind(null)}
        />
      )}
    </main>
  );
}

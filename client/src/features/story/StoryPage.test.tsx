/**
 * The story screen, driven through the real Apollo client against a scripted /graphql
 * (test/render-app.tsx): the pure story rules and the immersive-style checks first, then the mission
 * panel, then the screen itself — streaming, regenerate / continue / stop, story memory and cards,
 * edits, rewind and branches, the mission log, and every failure said to the player. One file
 * because every case drives the same page with the same fixtures.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { chapter, mission, storyCharacter } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { MissionPanel, useMissionCompleteHighlight } from './MissionPanel';
import { applyDelta, currentAction, sendDisabled } from './story-rules';
import { immersiveActive, sanitizeStyleSet, DEFAULT_STYLE_SET } from './story-styles';

describe('story rules (SPEC §5)', () => {
  it('send is disabled while generating or when the action is blank after trimming', () => {
    expect(sendDisabled(true, 'Climb')).toBe(true);
    expect(sendDisabled(false, '   ')).toBe(true);
    expect(sendDisabled(false, '')).toBe(true);
    expect(sendDisabled(false, null)).toBe(true);
    expect(sendDisabled(false, ' Climb ')).toBe(false);
  });
  it('typed text wins over a selected choice', () => {
    expect(currentAction('Climb', '')).toBe('Climb');
    expect(currentAction('Climb', ' Jump ')).toBe('Jump');
    expect(currentAction(null, '  ')).toBe('');
  });
  it('applies stream events by offset (append, or restart at 0)', () => {
    expect(applyDelta('', 0, 'The ')).toBe('The ');
    expect(applyDelta('The ', 4, 'storm')).toBe('The storm');
    expect(applyDelta('The storm', 0, 'A calm sea.')).toBe('A calm sea.');
  });
});

describe('immersive styles (SPEC §3, §4)', () => {
  it('applies only when enabled and a setting exists', () => {
    expect(immersiveActive(true, 'A harbour')).toBe(true);
    expect(immersiveActive(false, 'A harbour')).toBe(false);
    expect(immersiveActive(true, null)).toBe(false);
    expect(immersiveActive(true, '  ')).toBe(false);
  });
  it('accepts design tokens only; anything else falls back to its default', () => {
    const s = sanitizeStyleSet({
      containerBackground: '#112233',
      contentBackground: 'url(javascript:alert(1))',
      contentTextColor: 'rgb(10, 20, 30)',
      fontFamily: 'Comic Sans; } body { display:none',
      borderRadius: '400px',
      buttonBackground: 'red;background:url(x)',
    });
    expect(s.containerBackground).toBe('#112233');
    expect(s.contentTextColor).toBe('rgb(10, 20, 30)');
    expect(s.contentBackground).toBe(DEFAULT_STYLE_SET.contentBackground);
    expect(s.fontFamily).toBe(DEFAULT_STYLE_SET.fontFamily);
    expect(s.borderRadius).toBe('8px');
    expect(s.buttonBackground).toBe(DEFAULT_STYLE_SET.buttonBackground);
    expect(sanitizeStyleSet(null)).toEqual(DEFAULT_STYLE_SET);
  });
});

function Harness({ objective }: { objective: string }) {
  const { completed, trigger } = useMissionCompleteHighlight();
  return (
    <>
      <button type="button" onClick={() => trigger(objective)}>
        complete
      </button>
      <MissionPanel objective="Find the lighthouse" completedObjective={completed} onSave={async () => true} />
    </>
  );
}

describe('mission panel', () => {
  afterEach(() => jest.useRealTimers());

  it("shows the 'complete' highlight for exactly 3 seconds, then the new mission", () => {
    jest.useFakeTimers();
    render(<Harness objective="Reach the harbour" />);
    const panel = screen.getByTestId('mission-panel');
    fireEvent.click(screen.getByRole('button', { name: 'complete' }));
    expect(panel.getAttribute('data-state')).toBe('complete');
    expect(within(panel).getByText('Reach the harbour')).toBeTruthy();
    act(() => jest.advanceTimersByTime(2999));
    expect(panel.getAttribute('data-state')).toBe('complete');
    act(() => jest.advanceTimersByTime(1));
    expect(panel.getAttribute('data-state')).toBe('view');
    expect(within(panel).getByText('Find the lighthouse')).toBeTruthy();
  });

  it('pencil → textarea → Cancel returns to view; Save stays in edit when it fails', async () => {
    const onSave = jest.fn(async () => false);
    render(<MissionPanel objective="Find the lighthouse" completedObjective={null} onSave={onSave} />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit mission' }));
    const box = screen.getByLabelText('Mission objective') as HTMLTextAreaElement;
    expect(box.value).toBe('Find the lighthouse');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Mission objective')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Edit mission' }));
    fireEvent.change(screen.getByLabelText('Mission objective'), { target: { value: '  ' } });
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Mission objective'), { target: { value: 'Sink the armada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith('Sink the armada'));
    expect(screen.getByLabelText('Mission objective')).toBeTruthy(); // failed: still editing
    // …and the player is told, next to the field (not only in the console).
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to save the mission. Please try again.');
  });
});

describe('story screen', () => {
  afterEach(() => jest.restoreAllMocks());

  it("no chapter: 'Start your adventure!', then 'Generating initial story...', then the text as it streams", async () => {
    let character = storyCharacter();
    const { subscriptions } = await renderApp('/storychat/c-1', { StoryPage_character: () => ({ data: { character } }) }, { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Start your adventure!' }));
    expect(await screen.findByText('Generating initial story...')).toBeTruthy();
    // One operation starts the chapter and streams it.
    const channel = await subscriptions.channel('ChapterStream_play');
    expect(channel.variables).toEqual({ input: { characterId: 'c-1', userChoice: '', readingLevel: 8, expectedIndex: 0 } });

    const frame = (status: string, offset: number, delta: string, result: unknown = null) => ({
      playChapter: {
        __typename: 'ChapterStreamEvent',
        chapterId: 'ch-0',
        index: 0,
        take: 0,
        status,
        offset,
        delta,
        errorCode: null,
        error: null,
        errorHint: null,
        result,
      },
    });
    act(() => channel.emit(frame('generating', 0, 'The storm ')));
    const live = await screen.findByTestId('live-chapter');
    await waitFor(() => expect(live.textContent).toContain('The storm'));
    act(() => channel.emit(frame('generating', 10, 'breaks.')));
    await waitFor(() => expect(live.textContent).toContain('The storm breaks.'));
    expect(screen.getByText('Generating initial story...')).toBeTruthy(); // until the first chapter is complete

    character = storyCharacter({ chapters: [chapter(0, { text: 'The storm breaks.' })], mission: mission('Find the lighthouse') });
    act(() =>
      channel.emit(
        frame('complete', 17, '', {
          __typename: 'GenerateChapterPayload',
          newChapter: chapter(0, { text: 'The storm breaks.' }),
          updatedStats: { strength: 12 },
          newIncreases: {},
          newSettingGenerated: true,
          settingText: 'A harbour',
          missionCompleted: false,
          newMission: mission('Find the lighthouse'),
        }),
      ),
    );
    expect(await screen.findByRole('button', { name: 'Climb the mast' })).toBeTruthy();
    expect(screen.getByText('Find the lighthouse')).toBeTruthy();
    expect(screen.getAllByTestId('chapter')).toHaveLength(1);
    expect(screen.queryByText('Generating initial story...')).toBeNull();
  });

  it('earlier chapters with the choice before and a divider after; choices highlight; send rules; stat gains', async () => {
    const chapters = [chapter(0), chapter(1, { statIncreases: { strength: 2 } })];
    const { container, subscriptions } = await renderApp(
      '/storychat/c-1',
      { StoryPage_character: () => ({ data: { character: storyCharacter({ chapters, mission: mission('Find the lighthouse') }) } }) },
      { signedIn: true },
    );
    await screen.findByRole('button', { name: 'Climb the mast' });
    expect(screen.getAllByTestId('chapter').map((c) => c.textContent)).toEqual(['Chapter 1 text.', 'Chapter 2 text.']);
    expect(container.querySelectorAll('.chapter-divider')).toHaveLength(1);
    expect(screen.getByText('Action 1', { exact: false }).className).toBe('player-choice');
    expect(screen.getByText('+2 ↑')).toBeTruthy();

    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    const box = screen.getByPlaceholderText('Or type your own action...') as HTMLTextAreaElement;
    expect(send.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Dive into the clouds' }));
    expect(screen.getByRole('button', { name: 'Dive into the clouds' }).getAttribute('aria-pressed')).toBe('true');
    expect(send.disabled).toBe(false);
    fireEvent.change(box, { target: { value: '   ' } });
    expect(send.disabled).toBe(false); // blank typing keeps the chosen suggestion
    fireEvent.change(box, { target: { value: 'Jump ship' } });
    expect(screen.getByRole('button', { name: 'Dive into the clouds' }).getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(send);
    await waitFor(() => expect(box.disabled).toBe(true));
    expect(send.disabled).toBe(true);
    expect((await subscriptions.channel('ChapterStream_play')).variables).toMatchObject({ input: { userChoice: 'Jump ship', expectedIndex: 2 } });
  });

  it('a chapter bringing a new mission highlights the old one as complete, then shows the new one', async () => {
    let character = storyCharacter({ chapters: [chapter(0)], mission: mission('Find the lighthouse') });
    const { subscriptions } = await renderApp('/storychat/c-1', { StoryPage_character: () => ({ data: { character } }) }, { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Climb the mast' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const channel = await subscriptions.channel('ChapterStream_play');
    character = storyCharacter({ chapters: [chapter(0), chapter(1)], mission: mission('Sink the armada', 'm-2') });
    act(() =>
      channel.emit({
        playChapter: {
          __typename: 'ChapterStreamEvent',
          chapterId: 'ch-1',
          index: 1,
          take: 0,
          status: 'complete',
          offset: 0,
          delta: 'Chapter 2 text.',
          errorCode: null,
          error: null,
          result: {
            __typename: 'GenerateChapterPayload',
            newChapter: chapter(1),
            updatedStats: {},
            newIncreases: { strength: 1 },
            newSettingGenerated: false,
            settingText: null,
            missionCompleted: true,
            newMission: mission('Sink the armada', 'm-2'),
          },
        },
      }),
    );
    const panel = screen.getByTestId('mission-panel');
    await waitFor(() => expect(panel.getAttribute('data-state')).toBe('complete'));
    expect(within(panel).getByText('Find the lighthouse')).toBeTruthy();
    await waitFor(() => expect(panel.getAttribute('data-state')).toBe('view'), { timeout: 4000 });
    expect(within(panel).getByText('Sink the armada')).toBeTruthy();
  });

  it('reloaded while a chapter is being written: follows that chapter from the text so far', async () => {
    const character = storyCharacter({ chapters: [chapter(0)], generatingChapterId: 'ch-1' });
    const { subscriptions } = await renderApp('/storychat/c-1', { StoryPage_character: () => ({ data: { character } }) }, { signedIn: true });
    const channel = await subscriptions.channel('ChapterStream_follow');
    expect(channel.variables).toEqual({ characterId: 'c-1', chapterId: 'ch-1' });
    expect(subscriptions.channels.some((c) => c.operationName === 'ChapterStream_play')).toBe(false); // nothing new started
    const event = (chapterId: string, delta: string) => ({
      chapterStream: {
        __typename: 'ChapterStreamEvent',
        chapterId,
        index: 1,
        take: 0,
        status: 'generating',
        offset: 0,
        delta,
        errorCode: null,
        error: null,
        result: null,
      },
    });
    act(() => channel.emit(event('ch-9', 'Not this one.')));
    act(() => channel.emit(event('ch-1', 'The mast creaks as you climb.')));
    const live = await screen.findByTestId('live-chapter');
    await waitFor(() => expect(live.textContent).toContain('The mast creaks as you climb.'));
    expect(live.textContent).not.toContain('Not this one.');
  });

  it('regenerate streams: the new take is written in the latest chapter’s place, then the story reloads', async () => {
    let loads = 0;
    const { calls, subscriptions } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => {
          loads++;
          return { data: { character: storyCharacter({ chapters: [chapter(0), chapter(1)] }) } };
        },
        StoryPage_startRegeneration: () => ({ data: { startRegeneration: { __typename: 'ChapterGeneration', chapterId: 'ch-1b', take: 1 } } }),
      },
      { signedIn: true },
    );
    await screen.findByText('Chapter 2 text.');
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    const channel = await subscriptions.channel('ChapterStream_follow');
    expect(calls.find((c) => c.operationName === 'StoryPage_startRegeneration')?.variables).toEqual({ input: { characterId: 'c-1', readingLevel: 8 } });
    expect(channel.variables).toEqual({ characterId: 'c-1', chapterId: 'ch-1b' });
    const event = (status: string, delta: string) => ({
      chapterStream: {
        __typename: 'ChapterStreamEvent',
        chapterId: 'ch-1b',
        index: 1,
        take: 1,
        status,
        offset: 0,
        delta,
        errorCode: null,
        error: null,
        errorHint: null,
        result: null,
      },
    });
    act(() => channel.emit(event('generating', 'A different second chapter.')));
    const live = await screen.findByTestId('live-chapter');
    await waitFor(() => expect(live.textContent).toContain('A different second chapter.'));
    expect(screen.queryByText('Chapter 2 text.')).toBeNull(); // the old take is not shown under the new one
    expect(screen.getAllByText('Action 1')).toHaveLength(1); // its action once, above the new take
    const before = loads;
    act(() => channel.emit(event('complete', '')));
    await waitFor(() => expect(loads).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByTestId('live-chapter')).toBeNull());
  });

  it('continue streams the chapter so far and then the new part in the latest chapter’s place', async () => {
    const { calls, subscriptions } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: storyCharacter({ chapters: [chapter(0), chapter(1)] }) } }),
        StoryPage_startContinuation: () => ({ data: { startContinuation: { __typename: 'ChapterGeneration', chapterId: 'ch-1c' } } }),
      },
      { signedIn: true },
    );
    await screen.findByText('Chapter 2 text.');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const channel = await subscriptions.channel('ChapterStream_follow');
    expect(calls.find((c) => c.operationName === 'StoryPage_startContinuation')?.variables).toEqual({ input: { characterId: 'c-1', readingLevel: 8 } });
    expect(channel.variables).toEqual({ characterId: 'c-1', chapterId: 'ch-1c' });
    const event = (status: string, offset: number, delta: string) => ({
      chapterStream: {
        __typename: 'ChapterStreamEvent',
        chapterId: 'ch-1c',
        index: 1,
        take: 1,
        status,
        offset,
        delta,
        errorCode: null,
        error: null,
        errorHint: null,
        result: null,
      },
    });
    act(() => channel.emit(event('generating', 0, 'Chapter 2 text.\n\n')));
    act(() => channel.emit(event('generating', 17, 'The wind turned.')));
    const live = await screen.findByTestId('live-chapter');
    await waitFor(() => expect(live.textContent).toContain('Chapter 2 text.\n\nThe wind turned.'));
    expect(screen.getAllByText(/Chapter 2 text\./)).toHaveLength(1); // once: the live chapter replaces the old one
    act(() => channel.emit(event('complete', 33, '')));
    await waitFor(() => expect(screen.queryByTestId('live-chapter')).toBeNull());

    // A stopped continuation leaves the composer empty: its action is the chapter's own, already told.
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const again = await subscriptions.channel('ChapterStream_follow');
    act(() => again.emit({ chapterStream: { ...event('failed', 0, '').chapterStream, errorCode: 'STOPPED' } }));
    await waitFor(() => expect(screen.queryByTestId('live-chapter')).toBeNull());
    expect((screen.getByPlaceholderText('Or type your own action...') as HTMLTextAreaElement).value).toBe('');
  });

  it('reloaded while a new take of the latest chapter is written: it is followed in that chapter’s place', async () => {
    const takes = [chapter(0), chapter(1), { ...chapter(1), id: 'ch-1b', take: 1, status: 'generating', text: '' }];
    const character = storyCharacter({ chapters: takes, generatingChapterId: 'ch-1b' });
    const { subscriptions } = await renderApp('/storychat/c-1', { StoryPage_character: () => ({ data: { character } }) }, { signedIn: true });
    const channel = await subscriptions.channel('ChapterStream_follow');
    expect(channel.variables).toEqual({ characterId: 'c-1', chapterId: 'ch-1b' });
    act(() =>
      channel.emit({
        chapterStream: {
          __typename: 'ChapterStreamEvent',
          chapterId: 'ch-1b',
          index: 1,
          take: 1,
          status: 'generating',
          offset: 0,
          delta: 'The second take.',
          errorCode: null,
          error: null,
          errorHint: null,
          result: null,
        },
      }),
    );
    const live = await screen.findByTestId('live-chapter');
    await waitFor(() => expect(live.textContent).toContain('The second take.'));
    expect(screen.queryByText('Chapter 2 text.')).toBeNull();
    expect(screen.getAllByTestId('chapter')).toHaveLength(1); // chapter 1, then the take being written
  });

  it("a failed chapter alerts 'Failed to generate story chapter. Please try again.'", async () => {
    const error = jest.spyOn(toast, 'error');
    const { subscriptions } = await renderApp('/storychat/c-1', { StoryPage_character: () => ({ data: { character: storyCharacter() } }) }, { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Start your adventure!' }));
    // The start refused (CONFLICT, RATE_LIMITED…) or the socket lost for good: the operation errors.
    const channel = await subscriptions.channel('ChapterStream_play');
    act(() => channel.fail(new Error('The story has moved on since you chose this action; reload it.')));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to generate story chapter. Please try again.'));
    expect(await screen.findByRole('button', { name: 'Start your adventure!' })).toBeTruthy();
  });

  it("a chapter that fails mid-stream says why, after the SPEC message (the server's hint)", async () => {
    const error = jest.spyOn(toast, 'error');
    const { subscriptions } = await renderApp('/storychat/c-1', { StoryPage_character: () => ({ data: { character: storyCharacter() } }) }, { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Start your adventure!' }));
    const channel = await subscriptions.channel('ChapterStream_play');
    const failed = { __typename: 'ChapterStreamEvent', chapterId: 'ch-0', index: 0, take: 0, status: 'failed', offset: 0, delta: '' };
    act(() =>
      channel.emit({
        playChapter: { ...failed, errorCode: 'GENERATION_FAILED', error: 'x', errorHint: 'The storyteller is busy; try again in 30 s.', result: null },
      }),
    );
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to generate story chapter. Please try again. The storyteller is busy; try again in 30 s.'));
  });

  it('Stop while a chapter is written: the partial chapter goes, the action is back in the box; a failed stop says so', async () => {
    const info = jest.spyOn(toast, 'info');
    const error = jest.spyOn(toast, 'error');
    let failStop = true;
    const { subscriptions, calls } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: storyCharacter({ chapters: [chapter(0)] }) } }),
        StoryPage_stopChapter: () => (failStop ? { networkError: true } : { data: { stopChapter: true } }),
      },
      { signedIn: true },
    );
    const box = (await screen.findByPlaceholderText('Or type your own action...')) as HTMLTextAreaElement;
    fireEvent.click(screen.getByRole('button', { name: 'Climb the mast' })); // a suggested action, not typed
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const channel = await subscriptions.channel('ChapterStream_play');
    const ev = { __typename: 'ChapterStreamEvent', chapterId: 'ch-1', index: 1, take: 0, errorHint: null, result: null };
    act(() => channel.emit({ playChapter: { ...ev, status: 'generating', offset: 0, delta: 'The lock clicks', errorCode: null, error: null } }));
    await waitFor(() => expect(screen.getByTestId('live-chapter').textContent).toContain('The lock clicks'));

    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to stop the chapter. Please try again.'));
    expect(screen.getByTestId('live-chapter')).toBeTruthy(); // still being written
    failStop = false;
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(calls.filter((c) => c.operationName === 'StoryPage_stopChapter')).toHaveLength(2));
    act(() => channel.emit({ playChapter: { ...ev, status: 'failed', offset: 0, delta: '', errorCode: 'STOPPED', error: 'stopped' } }));
    await waitFor(() => expect(info).toHaveBeenCalledWith('Chapter stopped. Nothing of it was kept; your action is back in the box.'));
    await waitFor(() => expect(screen.queryByTestId('live-chapter')).toBeNull());
    expect(error).toHaveBeenCalledTimes(1); // a stop is not a failure
    await waitFor(() => expect(box.value).toBe('Climb the mast'));
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it("story memory: plot essentials and an author's note are saved for the story", async () => {
    const success = jest.spyOn(toast, 'success');
    const { calls } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: storyCharacter({ chapters: [chapter(0)] }) } }),
        StoryMemoryPanel_update: (call) => ({
          data: { updateStoryMemory: { __typename: 'StoryMemory', ...(call.variables.input as object), summaryCoversChapters: 0 } },
        }),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('tab', { name: /^Memory/ }));
    const panel = await screen.findByTestId('story-memory');
    fireEvent.click(within(panel).getByText('Story Memory'));
    const save = within(panel).getByRole('button', { name: 'Save Memory' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true); // nothing changed yet
    fireEvent.change(within(panel).getByLabelText('Plot essentials'), { target: { value: 'Lyra is the lost heir.' } });
    fireEvent.change(within(panel).getByLabelText("Author's note"), { target: { value: 'Keep it tense.' } });
    fireEvent.change(within(panel).getByLabelText('Narration'), { target: { value: 'third' } });
    fireEvent.click(save);
    await waitFor(() => expect(success).toHaveBeenCalledWith('Story memory saved.'));
    const sent = calls.find((c) => c.operationName === 'StoryMemoryPanel_update');
    expect(sent?.variables).toMatchObject({
      characterId: 'c-1',
      input: { plotEssentials: 'Lyra is the lost heir.', authorsNote: 'Keep it tense.', summary: '', pointOfView: 'third' },
    });
  });

  it('the player rewrites the latest chapter and an earlier action; edits are marked; a failed save says so', async () => {
    const success = jest.spyOn(toast, 'success');
    const error = jest.spyOn(toast, 'error');
    let fail = false;
    const { calls } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: storyCharacter({ chapters: [chapter(0), chapter(1, { actionEdited: true })] }) } }),
        ChapterList_edit: (call) =>
          fail
            ? { errors: [{ message: 'nope', extensions: { code: 'BAD_USER_INPUT' } }] }
            : { data: { editChapter: { ...chapter(1), ...(call.variables.input as object), edited: true } } },
      },
      { signedIn: true },
    );
    await screen.findByText('Chapter 2 text.');
    expect(screen.getByText('(edited)')).toBeTruthy(); // the action before chapter 2 was rewritten earlier
    fireEvent.click(screen.getByRole('button', { name: 'Edit chapter' }));
    fireEvent.change(screen.getByLabelText('Text of chapter 2'), { target: { value: 'A better chapter two.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Edit' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Your edit was saved.'));
    expect(calls.find((c) => c.operationName === 'ChapterList_edit')?.variables).toEqual({
      characterId: 'c-1',
      chapterId: 'ch-1',
      input: { text: 'A better chapter two.' },
    });

    fail = true;
    fireEvent.click(screen.getByRole('button', { name: 'Edit this action' }));
    fireEvent.change(screen.getByLabelText('Your action before chapter 2'), { target: { value: 'Swim instead' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Edit' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to save your edit. Please try again.'));
    expect((screen.getByLabelText('Your action before chapter 2') as HTMLTextAreaElement).value).toBe('Swim instead'); // kept open, nothing lost
  });

  it('rewind: an earlier chapter is made the latest after a confirmation; branches are listed and returned to', async () => {
    const success = jest.spyOn(toast, 'success');
    const error = jest.spyOn(toast, 'error');
    let failRestore = true;
    const { calls } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({
          data: {
            character: storyCharacter({
              chapters: [chapter(0), chapter(1), chapter(2)],
              storyBranches: [{ fromChapterNumber: 3, chapterCount: 4, firstAction: 'Open the vault', preview: 'The vault door swung open' }],
            }),
          },
        }),
        StoryPage_rewindStory: () => ({ data: { rewindStory: { __typename: 'Character', id: 'c-1' } } }),
        StoryBranchesPanel_restore: () =>
          failRestore
            ? { errors: [{ message: 'nope', extensions: { code: 'BAD_USER_INPUT' } }] }
            : { data: { restoreStoryBranch: { __typename: 'Character', id: 'c-1' } } },
      },
      { signedIn: true },
    );
    await screen.findByText('Chapter 3 text.');
    // Every chapter but the latest can be rewound to; the latest has nothing after it.
    expect(screen.getAllByRole('button', { name: /^Rewind here/ })).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Rewind here: make chapter 1 the latest' }));
    expect(await screen.findByText('Rewind to chapter 1?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Rewind' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Back at chapter 1. The chapters after it are kept under Branches.'));
    expect(calls.find((c) => c.operationName === 'StoryPage_rewindStory')?.variables).toEqual({ characterId: 'c-1', chapterIndex: 0 });

    fireEvent.click(screen.getByRole('tab', { name: /^Branches/ }));
    const branch = within(await screen.findByTestId('story-branches')).getByTestId('story-branch');
    expect(branch.textContent).toContain('After chapter 3');
    expect(branch.textContent).toContain('Open the vault');
    fireEvent.click(within(branch).getByRole('button', { name: 'Return to this branch (from chapter 3, 4 chapters)' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to return to that branch. Please try again.'));
    failRestore = false;
    fireEvent.click(within(branch).getByRole('button', { name: 'Return to this branch (from chapter 3, 4 chapters)' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('You are back on that branch. The chapters you left are kept under Branches.'));
  });

  it('the mission log lists completed missions, newest first, with the chapter that completed them', async () => {
    await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({
          data: {
            character: storyCharacter({
              chapters: [chapter(0), chapter(1)],
              mission: mission('Reach the lighthouse'),
              completedMissions: [
                { objective: 'Find the compass', completedInChapter: 4, completedAt: '2026-11-20T10:00:00Z' },
                { objective: 'Cross the bay', completedInChapter: 9, completedAt: '2026-11-21T10:00:00Z' },
              ],
            }),
          },
        }),
      },
      { signedIn: true },
    );
    const log = await screen.findByTestId('mission-log');
    expect(within(log).getByText('Mission log (2)')).toBeTruthy();
    const items = within(log)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items[0]).toMatch(/^Cross the bayChapter 9 · /);
    expect(items[1]).toMatch(/^Find the compassChapter 4 · /);
  });

  it('story cards: the cast is listed; the player adds a card, pins one and sees a failed delete', async () => {
    const success = jest.spyOn(toast, 'success');
    const error = jest.spyOn(toast, 'error');
    jest.spyOn(window, 'confirm').mockReturnValue(true);
    const oren = { id: 'k-1', name: 'Oren', role: 'ferryman', status: 'waiting', description: 'A nervous ferryman.' };
    const card = (input: Record<string, unknown>, id = 'k-2') => ({
      __typename: 'StoryCard',
      id,
      kind: 'character',
      aliases: [],
      description: '',
      role: null,
      status: null,
      pinned: false,
      source: 'player',
      edited: true,
      lastSeenChapter: null,
      ...input,
    });
    const { calls } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: storyCharacter({ chapters: [chapter(0)], storyCards: [oren] }) } }),
        StoryCardsPanel_create: (call) => ({ data: { createStoryCard: card(call.variables.input as Record<string, unknown>) } }),
        StoryCardsPanel_update: (call) => ({ data: { updateStoryCard: card({ ...oren, ...(call.variables.input as object) }, 'k-1') } }),
        StoryCardsPanel_delete: () => ({ errors: [{ message: 'boom', extensions: { code: 'INTERNAL' } }] }),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('tab', { name: /^Cards/ }));
    const panel = await screen.findByTestId('story-cards');
    fireEvent.click(within(panel).getByText('Story Cards (1)'));
    expect(within(panel).getByText('Oren')).toBeTruthy();
    expect(within(panel).getByText('A nervous ferryman.')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Add Card' }));
    fireEvent.change(within(panel).getByLabelText('Kind'), { target: { value: 'place' } });
    fireEvent.change(within(panel).getByLabelText('Name'), { target: { value: 'Sea Gate' } });
    fireEvent.change(within(panel).getByLabelText('Other names'), { target: { value: 'the Gate, Old Gate' } });
    fireEvent.change(within(panel).getByLabelText('Description'), { target: { value: 'A rusted portcullis.' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Save Card' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Story card saved.'));
    expect(calls.find((c) => c.operationName === 'StoryCardsPanel_create')?.variables).toMatchObject({
      characterId: 'c-1',
      input: { kind: 'place', name: 'Sea Gate', aliases: ['the Gate', 'Old Gate'], description: 'A rusted portcullis.', pinned: false },
    });

    fireEvent.click(within(panel).getByRole('button', { name: 'Pin Oren' }));
    await waitFor(() => expect(calls.find((c) => c.operationName === 'StoryCardsPanel_update')?.variables).toEqual({ id: 'k-1', input: { pinned: true } }));

    fireEvent.click(within(panel).getByRole('button', { name: 'Delete Oren' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to delete the story card. Please try again.'));
  });

  it('a failed undo is shown to the player, not only logged', async () => {
    const error = jest.spyOn(toast, 'error');
    const chapters = [chapter(0), chapter(1)];
    await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: storyCharacter({ chapters, mission: mission('Find the lighthouse') }) } }),
        StoryPage_undoLastChapter: () => ({ networkError: true }),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo Chapter' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to undo the last chapter. Please try again.'));
  });

  it('a failed version switch and a failed export are shown to the player too', async () => {
    const error = jest.spyOn(toast, 'error');
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const chapters = [chapter(0), chapter(1)];
    const character = storyCharacter({ chapters, mission: mission('Find the lighthouse') });
    character.storyline.latestTakes = [...character.storyline.latestTakes, { id: 'ch-1b', take: 1 }];
    await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character } }),
        StoryPage_selectChapterTake: () => ({ networkError: true }),
        StoryExport_export: () => ({ networkError: true }),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Next version' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to switch to that version. Please try again.'));
    fireEvent.click(screen.getByRole('button', { name: 'Export Markdown' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to export the story. Please try again.'));
  });

  it('immersive restyle: only when enabled and a setting exists', async () => {
    const { container } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: storyCharacter({ chapters: [chapter(0)], setting: 'A harbour' }) } }),
        StoryPage_settings: () => ({ data: { settings: { __typename: 'UserSettings', immersiveUi: true, readingLevel: 8 } } }),
        StoryPage_settingStyles: () => ({ data: { settingStyles: { __typename: 'StyleSetType', ...DEFAULT_STYLE_SET, containerBackground: '#102030' } } }),
      },
      { signedIn: true },
    );
    await screen.findByRole('button', { name: 'Climb the mast' });
    const page = container.querySelector('.story-page') as HTMLElement;
    await waitFor(() => expect(page.getAttribute('data-immersive')).toBe('on'));
    await waitFor(() => expect(page.style.getPropertyValue('--st-container-bg')).toBe('#102030'));
  });

  it('an unknown character goes back to /characters; Close Story goes to /profile', async () => {
    const { router } = await renderApp(
      '/storychat/nope',
      { StoryPage_character: () => ({ data: null, errors: [{ message: 'Not found', extensions: { code: 'NOT_FOUND' } }] }) },
      { signedIn: true },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/characters'));
  });
});

describe('"Previously…": the story memory summary greets a player who comes back', () => {
  // Where this browser keeps the player's place in story c-1 (reading-position.ts), with when they last read.
  const KEY = 'taleforge.reading.c-1';
  const DAY = 24 * 3600_000;
  const SUMMARY = 'You climbed the mast of the Gull and saw the lighthouse burning on the far shore.';
  const character = (summary = SUMMARY) => {
    const c = storyCharacter({ chapters: [chapter(0), chapter(1)], mission: mission('Find the lighthouse') });
    return { ...c, storyMemory: { ...c.storyMemory, summary, summaryCoversChapters: 2 } };
  };
  const lastRead = (at: number) => localStorage.setItem(KEY, JSON.stringify({ index: 1, offset: 0, at }));
  const open = async (c = character()) => {
    await renderApp('/storychat/c-1', { StoryPage_character: () => ({ data: { character: c } }) }, { signedIn: true });
    await screen.findByRole('button', { name: 'Climb the mast' });
  };
  const previously = () => screen.queryByRole('region', { name: 'Previously…' });
  // The story screen keeps the place as it is read: every earlier test of c-1 left one here.
  beforeEach(() => localStorage.removeItem(KEY));

  it('back after more than a day: "Previously…" shows the summary above the latest chapter; Hide closes it', async () => {
    lastRead(Date.now() - DAY - 60_000);
    await open();
    const section = previously();
    expect(section).not.toBeNull();
    expect(within(section!).getByText(SUMMARY)).toBeTruthy();
    // Just before the latest chapter: what happened so far, then where the story is now.
    const latest = screen.getAllByTestId('chapter').at(-1)!;
    expect(section!.compareDocumentPosition(latest) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    fireEvent.click(within(section!).getByRole('button', { name: 'Hide' }));
    expect(previously()).toBeNull();
    expect(screen.queryByText(SUMMARY)).toBeNull();
    expect(screen.getAllByTestId('chapter')).toHaveLength(2);
  });

  it('a player who was just here (an hour ago) is not greeted', async () => {
    lastRead(Date.now() - 3600_000);
    await open();
    expect(previously()).toBeNull();
    expect(screen.queryByText(SUMMARY)).toBeNull();
  });

  it('nor is one opening the story in this browser for the first time', async () => {
    await open();
    expect(previously()).toBeNull();
  });

  it('nor one whose story has no summary yet', async () => {
    lastRead(Date.now() - 3 * DAY);
    await open(character('   '));
    expect(previously()).toBeNull();
  });
});

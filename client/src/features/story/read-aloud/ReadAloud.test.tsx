/**
 * Read-aloud on the story screen and in Settings, through the real app against a scripted /graphql
 * (test/render-app.tsx), with a stand-in for the browser's speechSynthesis (jsdom has none): each
 * chapter's control reads it sentence by sentence in the chosen voice and speed, pauses, resumes and
 * stops, the chapter being read is marked; the server voice plays the chapter's audio; a new chapter
 * is read as it arrives when the player asked for it; Settings saves the choices.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { gqlError } from '../../../test/fake-graphql-server';
import { chapter, mission, NO_SERVER_VOICE, storyCharacter, userSettings } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { speechPieces } from './speech';

class FakeUtterance {
  voice: { name: string; lang: string } | null = null;
  rate = 1;
  lang = '';
  onend: (() => void) | null = null;
  onerror: ((e: { error: string }) => void) | null = null;
  constructor(public text: string) {}
}

interface FakeSynth {
  spoken: FakeUtterance[];
  paused: boolean;
  getVoices(): Array<{ name: string; lang: string; voiceURI: string; default: boolean; localService: boolean }>;
  speak: jest.Mock<void, [FakeUtterance]>;
  cancel: jest.Mock<void, []>;
  pause: jest.Mock<void, []>;
  resume: jest.Mock<void, []>;
  addEventListener(type: string, l: () => void): void;
  removeEventListener(type: string, l: () => void): void;
  loadVoices(): void;
  endCurrent(): void;
}

/** A speech engine that speaks nothing: it records utterances, and the test says when each ends. */
function installSpeech(voiceNames: string[]): FakeSynth {
  const listeners = new Set<() => void>();
  let voices: Array<{ name: string; lang: string; voiceURI: string; default: boolean; localService: boolean }> = [];
  const synth: FakeSynth = {
    spoken: [],
    paused: false,
    getVoices: () => voices,
    speak: jest.fn((u: FakeUtterance) => void synth.spoken.push(u)),
    cancel: jest.fn(() => synth.spoken.at(-1)?.onerror?.({ error: 'canceled' })),
    pause: jest.fn(() => void (synth.paused = true)),
    resume: jest.fn(() => void (synth.paused = false)),
    addEventListener: (_: string, l: () => void) => void listeners.add(l),
    removeEventListener: (_: string, l: () => void) => void listeners.delete(l),
    /** Chrome lists its voices late and says so with voiceschanged. */
    loadVoices() {
      voices = voiceNames.map((name) => ({ name, lang: 'en-GB', voiceURI: `uri:${name}`, default: false, localService: true }));
      for (const l of listeners) l();
    },
    /** The utterance being spoken ends (the engine then asks for the next). */
    endCurrent() {
      act(() => synth.spoken.at(-1)!.onend!());
    },
  };
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
  Object.defineProperty(globalThis, 'SpeechSynthesisUtterance', { value: FakeUtterance, configurable: true, writable: true });
  return synth;
}

const LONG =
  'The storm broke over the harbour at dusk. Ayla ran for the lighthouse with the map under her coat! ' +
  'Behind her the bells of the drowned chapel rang, once, twice, and a third time, as the gulls wheeled over the grey water and the fishing boats strained at their ropes along the sea wall. ' +
  'Would the keeper still be awake?';

afterEach(() => {
  jest.restoreAllMocks();
  delete (window as { speechSynthesis?: unknown }).speechSynthesis;
  delete (globalThis as { SpeechSynthesisUtterance?: unknown }).SpeechSynthesisUtterance;
  delete (globalThis as { fetch?: unknown }).fetch;
});

describe('speech pieces', () => {
  it('cuts a chapter into sentences no longer than Chrome reads in one go, losing no word', () => {
    const pieces = speechPieces(LONG, 120);
    expect(pieces[0]).toBe('The storm broke over the harbour at dusk.');
    expect(pieces[1]).toBe('Ayla ran for the lighthouse with the map under her coat!');
    expect(pieces.every((p) => p.length <= 120)).toBe(true);
    expect(pieces.join(' ')).toBe(LONG);
    expect(speechPieces('  ')).toEqual([]);
  });
});

describe('read-aloud on the story screen', () => {
  const story = () => storyCharacter({ chapters: [chapter(0), chapter(1, { text: LONG })], mission: mission('Find the lighthouse') });

  it('reads a chapter in the chosen voice and speed, sentence by sentence; pause, resume and stop; the chapter is marked', async () => {
    const synth = installSpeech(['Daniel', 'Moira']);
    const prefs = userSettings({ readAloudVoice: 'Moira', readAloudRate: 1.5 });
    await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: story() } }),
        ReadAloud_prefs: () => ({ data: { settings: prefs, readAloud: NO_SERVER_VOICE } }),
      },
      { signedIn: true },
    );
    act(() => synth.loadVoices());
    const read = await screen.findByRole('button', { name: 'Read aloud: chapter 2' });
    expect(screen.getByRole('button', { name: 'Read aloud: chapter 1' })).toBeTruthy();
    read.focus();
    fireEvent.click(read);

    const [first, second] = screen.getAllByTestId('chapter');
    expect(second!.getAttribute('data-reading')).toBe('true');
    expect(second!.className).toContain('is-reading');
    expect(first!.getAttribute('data-reading')).toBeNull();
    expect(within(second!).getByRole('status').textContent).toBe('Reading aloud');
    // One utterance at a time, in Moira's voice at 1.5×.
    expect(synth.spoken).toHaveLength(1);
    expect(synth.spoken[0]).toMatchObject({ text: 'The storm broke over the harbour at dusk.', rate: 1.5, voice: { name: 'Moira' } });
    // The same button pauses (focus stays on it) and resumes.
    const main = within(second!).getByRole('button', { name: 'Pause reading of chapter 2' });
    expect(document.activeElement).toBe(main);
    fireEvent.click(main);
    expect(synth.pause).toHaveBeenCalled();
    expect(within(second!).getByRole('status').textContent).toBe('Paused');
    fireEvent.click(within(second!).getByRole('button', { name: 'Resume reading of chapter 2' }));
    expect(synth.resume).toHaveBeenCalled();

    synth.endCurrent();
    synth.endCurrent();
    expect(synth.spoken.map((u) => u.text)).toEqual(speechPieces(LONG).slice(0, 3));
    fireEvent.click(within(second!).getByRole('button', { name: 'Stop reading chapter 2' }));
    expect(synth.cancel).toHaveBeenCalled();
    expect(second!.getAttribute('data-reading')).toBeNull();
    expect(within(second!).queryByRole('status')).toBeNull();
    expect(synth.spoken).toHaveLength(3); // nothing more after Stop

    // Read to the end: every word of the chapter is spoken, then the mark goes.
    const start = synth.spoken.length;
    fireEvent.click(within(second!).getByRole('button', { name: 'Read aloud: chapter 2' }));
    for (let i = 0; i < speechPieces(LONG).length; i++) synth.endCurrent();
    expect(
      synth.spoken
        .slice(start)
        .map((u) => u.text)
        .join(' '),
    ).toBe(LONG);
    await waitFor(() => expect(second!.getAttribute('data-reading')).toBeNull());
  });

  it('reads each new chapter as it arrives when the player asked for it', async () => {
    const synth = installSpeech([]);
    let character = storyCharacter({ chapters: [chapter(0)], mission: mission('Find the lighthouse') });
    const { subscriptions } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character } }),
        ReadAloud_prefs: () => ({
          data: { settings: userSettings({ readAloudAuto: true, readAloudRate: 0.8 }), readAloud: NO_SERVER_VOICE },
        }),
      },
      { signedIn: true },
    );
    await screen.findByRole('button', { name: 'Read aloud: chapter 1' });
    fireEvent.click(screen.getByRole('button', { name: 'Climb the mast' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const channel = await subscriptions.channel('ChapterStream_play');
    const next = chapter(1, { text: 'The mast creaked under her weight. Far below, the deck was a toy.' });
    character = storyCharacter({ chapters: [chapter(0), next], mission: mission('Find the lighthouse') });
    const event = (status: string, delta: string, result: unknown) => ({
      playChapter: {
        __typename: 'ChapterStreamEvent',
        chapterId: 'ch-1',
        index: 1,
        take: 0,
        status,
        offset: 0,
        delta,
        errorCode: null,
        error: null,
        errorHint: null,
        result,
      },
    });
    act(() => channel.emit(event('generating', next.text, null)));
    expect(synth.spoken).toHaveLength(0); // not while it is being written
    act(() =>
      channel.emit(
        event('complete', next.text, {
          __typename: 'GenerateChapterPayload',
          newChapter: next,
          updatedStats: { strength: 12 },
          newIncreases: {},
          newSettingGenerated: false,
          settingText: null,
          missionCompleted: false,
          newMission: null,
        }),
      ),
    );
    await waitFor(() => expect(synth.spoken).toHaveLength(1));
    expect(synth.spoken[0]).toMatchObject({ text: 'The mast creaked under her weight.', rate: 0.8 });
    await waitFor(() => expect(screen.getAllByTestId('chapter')[1]!.getAttribute('data-reading')).toBe('true'));
  });

  it('the server voice: the chapter is read by the server, its audio fetched with the session and played at the chosen speed', async () => {
    const play = jest.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(async () => undefined);
    jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:audio-1'), revokeObjectURL: jest.fn() });
    // The audio is a plain fetch (the app's GraphQL goes through the scripted server's own fetch).
    const audioFetch = jest.fn(async (_url: string, _init?: RequestInit) => ({
      ok: true,
      status: 200,
      blob: async () => new Blob(['ID3'], { type: 'audio/mpeg' }),
    }));
    Object.defineProperty(globalThis, 'fetch', { value: audioFetch, configurable: true, writable: true });
    const error = jest.spyOn(toast, 'error');
    jest.spyOn(console, 'error').mockImplementation(() => undefined); // the failure below is also logged
    let credits = 1;
    const { calls } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character: story() } }),
        ReadAloud_prefs: () => ({
          data: {
            settings: userSettings({ readAloudEngine: 'server', readAloudServerVoice: 'nova', readAloudRate: 1.2 }),
            readAloud: { ...NO_SERVER_VOICE, serverVoiceAvailable: true, voices: ['alloy', 'nova'] },
          },
        }),
        ReadAloud_readChapter: (c) => {
          if (credits-- <= 0) return gqlError('INSUFFICIENT_CREDITS', 'You need at least 1 credits for this.');
          return {
            data: {
              readChapterAloud: {
                __typename: 'ChapterAudio',
                chapterId: c.variables.chapterId,
                voice: 'nova',
                url: `/api/stories/c-1/chapters/${String(c.variables.chapterId)}/audio?voice=nova`,
                cached: false,
                creditsCharged: 1,
              },
            },
          };
        },
      },
      { signedIn: true },
    );
    // No browser speech here: the server voice alone offers the control.
    fireEvent.click(await screen.findByRole('button', { name: 'Read aloud: chapter 2' }));
    await waitFor(() => expect(play).toHaveBeenCalled());
    expect(calls.find((c) => c.operationName === 'ReadAloud_readChapter')?.variables).toEqual({ characterId: 'c-1', chapterId: 'ch-1', voice: 'nova' });
    const [url, init] = audioFetch.mock.calls[0]!;
    expect(url).toBe('/api/stories/c-1/chapters/ch-1/audio?voice=nova');
    expect((init?.headers as Record<string, string>).authorization).toMatch(/^Bearer /);
    const audio = play.mock.contexts[0] as HTMLAudioElement;
    expect(audio.src).toBe('blob:audio-1');
    expect(audio.playbackRate).toBe(1.2);
    const second = screen.getAllByTestId('chapter')[1]!;
    await waitFor(() => expect(within(second).getByRole('status').textContent).toBe('Reading aloud'));
    // The audio ends: the mark goes.
    act(() => void audio.dispatchEvent(new Event('ended')));
    expect(second.getAttribute('data-reading')).toBeNull();

    // Out of credits: the server says so, and the player is told.
    fireEvent.click(within(second).getByRole('button', { name: 'Read aloud: chapter 2' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('You need at least 1 credits for this.'));
    expect(second.getAttribute('data-reading')).toBeNull();
  });

  it('the voice stops when the chapter being read goes (undo)', async () => {
    const synth = installSpeech([]);
    let character = story();
    await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: () => ({ data: { character } }),
        StoryPage_undoLastChapter: () => {
          character = storyCharacter({ chapters: [chapter(0)], mission: mission('Find the lighthouse') });
          return { data: { undoLastChapter: { __typename: 'Character', id: 'c-1' } } };
        },
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Read aloud: chapter 2' }));
    expect(synth.spoken).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo Chapter' }));
    await waitFor(() => expect(screen.getAllByTestId('chapter')).toHaveLength(1));
    await waitFor(() => expect(synth.cancel).toHaveBeenCalled());
    synth.endCurrent(); // the engine's last word: nothing follows it
    expect(synth.spoken).toHaveLength(1);
    expect(screen.queryByRole('status', { name: /Reading/ })).toBeNull();
    expect(document.querySelector('[data-reading]')).toBeNull();
  });

  it('no control where nothing can read aloud (no browser speech, no server voice)', async () => {
    await renderApp('/storychat/c-1', { StoryPage_character: () => ({ data: { character: story() } }) }, { signedIn: true });
    await screen.findByRole('button', { name: 'Climb the mast' });
    expect(screen.queryByRole('button', { name: /aloud/ })).toBeNull();
  });
});

describe('Settings → Read-aloud', () => {
  it('chooses the browser voice, the speed and auto-read, and saves them with the account', async () => {
    const synth = installSpeech(['Daniel', 'Moira']);
    const { calls } = await renderApp(
      '/worlds',
      { SettingsDialog_saveSettings: (c) => ({ data: { saveSettings: userSettings(c.variables.input as Record<string, unknown>) } }) },
      { signedIn: true },
    );
    act(() => synth.loadVoices());
    fireEvent.click(within(await screen.findByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    const section = within(dialog).getByRole('group', { name: 'Read-aloud' });
    expect(within(section).getByText(/free, and works offline/)).toBeTruthy();
    expect(within(section).queryByLabelText('Voice engine')).toBeNull(); // no server voice here
    const voice = within(section).getByLabelText('Voice') as HTMLSelectElement;
    await waitFor(() => expect([...voice.options].map((o) => o.text)).toEqual(['Browser default', 'Daniel (en-GB)', 'Moira (en-GB)']));
    fireEvent.change(voice, { target: { value: 'Moira' } });
    fireEvent.change(within(section).getByLabelText('Speed'), { target: { value: '1.3' } });
    expect(within(section).getByText('1.3×')).toBeTruthy();
    fireEvent.click(within(section).getByRole('checkbox', { name: 'Read new chapters aloud as they arrive' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.operationName === 'SettingsDialog_saveSettings')?.variables).toEqual({
      input: { immersiveUi: false, readAloudEngine: 'browser', readAloudVoice: 'Moira', readAloudServerVoice: '', readAloudRate: 1.3, readAloudAuto: true },
    });
  });

  it('offers the server voice only when the server has one, and says there what it costs', async () => {
    const { calls } = await renderApp(
      '/worlds',
      {
        SettingsDialog_settings: () => ({
          data: {
            settings: userSettings(),
            readAloud: { ...NO_SERVER_VOICE, serverVoiceAvailable: true, voices: ['alloy', 'nova'] },
          },
        }),
        SettingsDialog_saveSettings: (c) => ({ data: { saveSettings: userSettings(c.variables.input as Record<string, unknown>) } }),
      },
      { signedIn: true },
    );
    fireEvent.click(within(await screen.findByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Settings' }));
    const section = within(await screen.findByRole('dialog', { name: 'Settings' })).getByRole('group', { name: 'Read-aloud' });
    const engine = (await within(section).findByLabelText('Voice engine')) as HTMLSelectElement;
    expect([...engine.options].map((o) => o.text)).toEqual(['Browser voice', 'Server voice']);
    fireEvent.change(engine, { target: { value: 'server' } });
    expect(
      within(section).getByText('Server voice: 1 credit per chapter the first time it is read in a voice; free when read again; refunded if it fails.'),
    ).toBeTruthy();
    const voice = within(section).getByLabelText('Voice') as HTMLSelectElement;
    expect([...voice.options].map((o) => o.value)).toEqual(['alloy', 'nova']);
    fireEvent.change(voice, { target: { value: 'nova' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.operationName === 'SettingsDialog_saveSettings')).toBe(true));
    expect(calls.find((c) => c.operationName === 'SettingsDialog_saveSettings')?.variables).toMatchObject({
      input: { readAloudEngine: 'server', readAloudServerVoice: 'nova' },
    });
  });
});

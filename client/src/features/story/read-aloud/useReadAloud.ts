import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { errorCode, errorMessage } from '../../../apollo/graphql-errors';
import { readSession } from '../../../apollo/session-store';
import { ReadAloud_readChapterDocument, ReadAloud_sessionDocument, useReadAloud_prefsQuery } from '../../../gql/graphql';
import { MESSAGES } from '../../../lib/messages';
import { browserSpeech, speechPieces, useBrowserVoices } from './speech';

export interface ReadableChapter {
  id: string;
  text: string;
}

/** The chapter being read aloud (one at a time), and how far. */
interface Reading {
  chapterId: string;
  status: 'loading' | 'playing' | 'paused';
}

export interface ReadAloud {
  /** Read-aloud can work here: the browser speaks, or the server voice is chosen and offered. */
  available: boolean;
  reading: Reading | null;
  play: (chapter: ReadableChapter) => void;
  pause: () => void;
  resume: () => void;
  stop: () => void;
  /** "Read new chapters aloud as they arrive" is on. */
  autoRead: boolean;
}

interface Session {
  stop(): void;
  pause(): void;
  resume(): void;
}

/** The codes whose server message says what to do (buy credits, use the browser voice, try later). */
const TOLD_BY_SERVER = new Set(['INSUFFICIENT_CREDITS', 'SERVICE_UNAVAILABLE', 'GENERATION_FAILED', 'RATE_LIMITED']);

/**
 * Reads chapters aloud with the player's settings (Settings → Read-aloud): the browser's own voice
 * (speechSynthesis, offline, sentence by sentence), or the server voice when the server offers it
 * (the chapter's MP3, cached there, played as an Audio). Starting another chapter stops the one being
 * read; leaving the page stops it too.
 */
export function useReadAloud(characterId: string): ReadAloud {
  const client = useApolloClient();
  const { data, error } = useReadAloud_prefsQuery({ fetchPolicy: 'cache-and-network' });
  const voices = useBrowserVoices();
  const [reading, setReading] = useState<Reading | null>(null);
  const session = useRef<Session | null>(null);

  const settings = data?.settings;
  const serverOffered = data?.readAloud.serverVoiceAvailable ?? false;
  const engine = settings?.readAloudEngine === 'server' && serverOffered ? 'server' : 'browser';
  const rate = settings?.readAloudRate ?? 1;
  const browserVoice = settings?.readAloudVoice ?? '';
  const serverVoice = settings?.readAloudServerVoice || null;
  // Offered once the player's settings are known (a chapter read before would use the wrong voice),
  // or with the defaults when they cannot be loaded.
  const available = (data !== undefined || error !== undefined) && (engine === 'server' || browserSpeech() !== null);

  const stop = useCallback(() => {
    const s = session.current;
    session.current = null;
    s?.stop();
    setReading(null);
  }, []);
  useEffect(() => stop, [stop]);

  const readWithBrowser = useCallback(
    (chapter: ReadableChapter) => {
      const synth = browserSpeech();
      if (!synth) return;
      const pieces = speechPieces(chapter.text);
      const voice = voices.find((v) => v.name === browserVoice) ?? null;
      let next = 0;
      let over = false;
      const me: Session = {
        stop() {
          over = true;
          synth.cancel();
          // Chrome keeps a paused engine paused after cancel: the next chapter would never start.
          if (synth.paused) synth.resume();
        },
        pause() {
          synth.pause();
          setReading({ chapterId: chapter.id, status: 'paused' });
        },
        resume() {
          synth.resume();
          setReading({ chapterId: chapter.id, status: 'playing' });
        },
      };
      const done = () => {
        if (session.current === me) stop();
      };
      // One utterance at a time, the next queued when one ends: Stop then silences at once, and no
      // utterance is long enough for Chrome to cut it off.
      const speakNext = () => {
        if (over) return;
        const piece = pieces[next++];
        if (piece === undefined) return done();
        const u = new SpeechSynthesisUtterance(piece);
        if (voice) {
          u.voice = voice;
          u.lang = voice.lang;
        }
        u.rate = rate;
        u.onend = speakNext;
        u.onerror = (e) => {
          // Stop and starting another chapter cancel on purpose.
          if (over || e.error === 'interrupted' || e.error === 'canceled') return;
          toast.error(MESSAGES.readAloudFailed);
          done();
        };
        synth.speak(u);
      };
      synth.cancel(); // what another tab or page left queued
      session.current = me;
      setReading({ chapterId: chapter.id, status: 'playing' });
      speakNext();
    },
    [voices, browserVoice, rate, stop],
  );

  const readWithServer = useCallback(
    (chapter: ReadableChapter) => {
      let over = false;
      let audio: HTMLAudioElement | null = null;
      let objectUrl: string | null = null;
      const me: Session = {
        stop() {
          over = true;
          audio?.pause();
          if (objectUrl) URL.revokeObjectURL(objectUrl);
        },
        pause() {
          audio?.pause();
          setReading({ chapterId: chapter.id, status: 'paused' });
        },
        resume() {
          // A refused play (the page lost its audio output) leaves it paused; the player can press again.
          audio?.play().catch(() => setReading({ chapterId: chapter.id, status: 'paused' }));
          setReading({ chapterId: chapter.id, status: 'playing' });
        },
      };
      session.current = me;
      setReading({ chapterId: chapter.id, status: 'loading' });
      void (async () => {
        try {
          const { data: read } = await client.mutate({
            mutation: ReadAloud_readChapterDocument,
            variables: { characterId, chapterId: chapter.id, voice: serverVoice },
          });
          if (!read) throw new Error('no audio returned');
          // The audio is a plain fetch, outside the auth link: one GraphQL request first lets the link
          // refresh a session about to expire.
          const s = readSession();
          if (s && s.expiresAt - Date.now() / 1000 < 300) await client.query({ query: ReadAloud_sessionDocument, fetchPolicy: 'network-only' });
          const token = readSession()?.accessToken;
          const res = await fetch(read.readChapterAloud.url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
          if (!res.ok) throw new Error(`audio answered ${res.status}`);
          const blob = await res.blob();
          if (over) return;
          objectUrl = URL.createObjectURL(blob);
          audio = new Audio(objectUrl);
          audio.playbackRate = rate;
          audio.onended = () => {
            if (session.current === me) stop();
          };
          await audio.play();
          if (!over) setReading({ chapterId: chapter.id, status: 'playing' });
        } catch (e) {
          if (over) return;
          console.error(MESSAGES.readAloudFailed, e);
          const code = errorCode(e);
          toast.error((code && TOLD_BY_SERVER.has(code) ? errorMessage(e) : undefined) || MESSAGES.readAloudFailed);
          if (session.current === me) stop();
        }
      })();
    },
    [client, characterId, serverVoice, rate, stop],
  );

  const play = useCallback(
    (chapter: ReadableChapter) => {
      stop();
      if (engine === 'server') readWithServer(chapter);
      else readWithBrowser(chapter);
    },
    [engine, readWithBrowser, readWithServer, stop],
  );
  const pause = useCallback(() => session.current?.pause(), []);
  const resume = useCallback(() => session.current?.resume(), []);

  return { available, reading, play, pause, resume, stop, autoRead: settings?.readAloudAuto ?? false };
}

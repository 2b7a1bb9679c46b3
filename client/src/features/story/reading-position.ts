import { useEffect, useRef, useState } from 'react';

/** Where the player was reading a story, kept in this browser. */
interface Position {
  /** The chapter (0-based index) at the top of the screen. */
  index: number;
  /** How far (px) that chapter's top was above the top of the screen. */
  offset: number;
  /** When the player last read (ms since epoch). */
  at: number;
}

const key = (characterId: string) => `taleforge.reading.${characterId}`;
/** Away this long, the story greets the player with "Previously…". */
export const AWAY_MS = 24 * 3600_000;

function load(characterId: string): Position | null {
  try {
    const p = JSON.parse(localStorage.getItem(key(characterId)) ?? 'null') as Position | null;
    return p && Number.isInteger(p.index) && Number.isFinite(p.offset) && Number.isFinite(p.at) ? p : null;
  } catch {
    return null; // storage off or a value from elsewhere: start at the latest chapter
  }
}

const chapterEl = (index: number) => document.querySelector<HTMLElement>(`[data-chapter-index="${index}"]`);

/**
 * A long story opens where the player was reading, or at the start of its latest chapter — never
 * at chapter 1 — and remembers the chapter at the top of the screen as they scroll. Returns when the
 * player last read this story before now (null the first time), for "Previously…".
 */
export function useReadingPosition(characterId: string, ready: boolean, latestIndex: number | null): number | null {
  const [lastRead] = useState(() => load(characterId)?.at ?? null);
  const placed = useRef(false);

  useEffect(() => {
    if (!ready || placed.current || latestIndex === null) return;
    placed.current = true;
    const saved = load(characterId);
    const top = (el: HTMLElement) => el.getBoundingClientRect().top + window.scrollY;
    // A greeting marked as the place to start ("Previously…") wins; then where the player was; then
    // the latest chapter's start, just under the sticky top bar.
    const start = document.querySelector<HTMLElement>('[data-reading-start]');
    const at = saved && saved.index <= latestIndex ? chapterEl(saved.index) : null;
    const anchor = start ?? at ?? chapterEl(latestIndex);
    if (!anchor) return;
    const offset = !start && at && saved ? saved.offset : -72;
    const place = () => window.scrollTo({ top: top(anchor) + offset, behavior: 'instant' });
    place();
    // Text above may still change height (styles and fonts arriving): hold the place until it
    // settles, or until the player scrolls themselves.
    const list = anchor.closest('.chapters') ?? document.body;
    const watch = typeof ResizeObserver === 'function' ? new ResizeObserver(place) : null; // jsdom has none
    watch?.observe(list);
    const stop = () => {
      watch?.disconnect();
      for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.removeEventListener(type, stop);
    };
    for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.addEventListener(type, stop, { passive: true });
    const timer = window.setTimeout(stop, 2000);
    return () => {
      window.clearTimeout(timer);
      stop();
    };
  }, [ready, latestIndex, characterId]);

  useEffect(() => {
    if (!ready) return;
    let frame = 0;
    const save = () => {
      frame = 0;
      const articles = Array.from(document.querySelectorAll<HTMLElement>('[data-chapter-index]'));
      const first = articles.find((a) => a.getBoundingClientRect().bottom > 72);
      if (!first) return;
      const position: Position = { index: Number(first.dataset.chapterIndex), offset: Math.round(-first.getBoundingClientRect().top), at: Date.now() };
      try {
        localStorage.setItem(key(characterId), JSON.stringify(position));
      } catch {
        /* storage full or off: the next visit opens at the latest chapter */
      }
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(save);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    save();
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ready, characterId]);

  return lastRead;
}

import { useEffect, useState } from 'react';
import { CAROUSEL_BREAKPOINTS, SWIPE_THRESHOLD_PX } from '../../lib/constants';

/** SPEC §2/§9: 1 card under 768 px, 2 under 1024 px, otherwise 3. */
export function cardsPerView(width: number): number {
  if (width < CAROUSEL_BREAKPOINTS.one) return 1;
  if (width < CAROUSEL_BREAKPOINTS.two) return 2;
  return 3;
}

/** The carousel wraps around: stepping past either end continues at the other. */
export function wrapIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return ((index % count) + count) % count;
}

/** The indexes shown from `start`: `perView` consecutive cards, wrapping; every card once when few. */
export function visibleIndexes(start: number, count: number, perView: number): number[] {
  if (count <= perView) return Array.from({ length: count }, (_, i) => i);
  return Array.from({ length: perView }, (_, i) => wrapIndex(start + i, count));
}

/**
 * A horizontal swipe from `startX` to `endX`: next (finger moved left) or previous (right) once it
 * travels more than the 50 px threshold, otherwise nothing.
 */
export function swipeDirection(startX: number, endX: number, threshold = SWIPE_THRESHOLD_PX): -1 | 0 | 1 {
  const distance = startX - endX;
  if (distance > threshold) return 1;
  if (distance < -threshold) return -1;
  return 0;
}

/** The window's inner width, kept current on resize. */
export function useViewportWidth(): number {
  const [width, setWidth] = useState(() => (typeof window === 'undefined' ? 1280 : window.innerWidth));
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cardsPerView, swipeDirection, useViewportWidth, visibleIndexes, wrapIndex } from './carousel';

export interface CarouselProps<T> {
  items: readonly T[];
  label: string;
  itemKey: (item: T) => string;
  itemLabel: (item: T) => string;
  renderItem: (item: T) => ReactNode;
}

/**
 * The My Worlds carousel (SPEC §2): 1/2/3 cards by width, wraps around, arrow buttons, arrow keys
 * while focused, and touch swipes past 50 px.
 */
export function Carousel<T>({ items, label, itemKey, itemLabel, renderItem }: CarouselProps<T>) {
  const width = useViewportWidth();
  const perView = cardsPerView(width);
  const [start, setStart] = useState(0);
  const touchX = useRef<number | null>(null);
  const id = useId();
  const count = items.length;
  const canMove = count > perView;
  const first = wrapIndex(start, count);
  const shown = visibleIndexes(first, count, perView);

  const move = (step: number) => {
    if (canMove) setStart((s) => wrapIndex(s + step, count));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      move(1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      move(-1);
    }
  };

  return (
    <div className="carousel" role="region" aria-roledescription="carousel" aria-label={label} data-per-view={perView}>
      {canMove && (
        <button type="button" className="carousel-arrow carousel-prev" aria-label="Previous worlds" aria-controls={id} onClick={() => move(-1)}>
          <span aria-hidden="true">‹</span>
        </button>
      )}
      <div
        id={id}
        className="carousel-track"
        tabIndex={canMove ? 0 : -1}
        onKeyDown={onKeyDown}
        aria-live="polite"
        onTouchStart={(e) => (touchX.current = e.touches[0]?.clientX ?? null)}
        onTouchEnd={(e) => {
          const startX = touchX.current;
          touchX.current = null;
          const endX = e.changedTouches[0]?.clientX;
          if (startX === null || endX === undefined) return;
          move(swipeDirection(startX, endX));
        }}
      >
        {shown.map((index, position) => {
          const item = items[index];
          return (
            <div
              key={`${itemKey(item)}-${position}`}
              className="carousel-slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${count}: ${itemLabel(item)}`}
            >
              {renderItem(item)}
            </div>
          );
        })}
      </div>
      {canMove && (
        <button type="button" className="carousel-arrow carousel-next" aria-label="Next worlds" aria-controls={id} onClick={() => move(1)}>
          <span aria-hidden="true">›</span>
        </button>
      )}
    </div>
  );
}

import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderApp } from '../../test/render-app';
import { ownWorld } from '../../test/fixtures';
import { cardsPerView, swipeDirection, visibleIndexes, wrapIndex } from './carousel';
import { MY_WORLDS_EMPTY } from './WorldsPage';

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

describe('carousel rules (SPEC §2, §9)', () => {
  it.each([
    [320, 1],
    [767, 1],
    [768, 2],
    [1023, 2],
    [1024, 3],
    [1920, 3],
  ])('%i px wide → %i card(s)', (width, cards) => {
    expect(cardsPerView(width)).toBe(cards);
  });

  it('wraps around both ends', () => {
    expect(wrapIndex(4, 4)).toBe(0);
    expect(wrapIndex(-1, 4)).toBe(3);
    expect(visibleIndexes(3, 5, 3)).toEqual([3, 4, 0]);
    expect(visibleIndexes(0, 2, 3)).toEqual([0, 1]);
  });

  it('a swipe must travel more than 50 px', () => {
    expect(swipeDirection(200, 150)).toBe(0);
    expect(swipeDirection(200, 149)).toBe(1);
    expect(swipeDirection(150, 200)).toBe(0);
    expect(swipeDirection(149, 200)).toBe(-1);
  });
});

describe('My Worlds carousel on the page', () => {
  const worlds = [1, 2, 3, 4].map((n) => ownWorld(n));
  const slides = () =>
    within(screen.getByRole('region', { name: 'My Worlds carousel' }))
      .getAllByRole('group')
      .map((g) => g.getAttribute('aria-label'));

  afterEach(() => act(() => setWidth(1024)));

  it('shows the empty text when the player has no worlds', async () => {
    await renderApp('/worlds', {}, { signedIn: true });
    expect(await screen.findByText(MY_WORLDS_EMPTY)).toBeTruthy();
    expect(MY_WORLDS_EMPTY).toBe('No worlds found. Create one, or see Featured Worlds below.');
  });

  it('1 / 2 / 3 cards by width; arrows, keys and swipes wrap around', async () => {
    act(() => setWidth(500));
    await renderApp('/worlds', { WorldsPage_myWorlds: () => ({ data: { myWorlds: worlds } }) }, { signedIn: true });
    await screen.findByRole('region', { name: 'My Worlds carousel' });
    expect(slides()).toEqual(['1 of 4: My World 1']);

    fireEvent.click(screen.getByRole('button', { name: 'Previous worlds' }));
    expect(slides()).toEqual(['4 of 4: My World 4']);
    fireEvent.click(screen.getByRole('button', { name: 'Next worlds' }));
    expect(slides()).toEqual(['1 of 4: My World 1']);

    const track = screen.getByRole('region', { name: 'My Worlds carousel' }).querySelector('.carousel-track') as HTMLElement;
    fireEvent.keyDown(track, { key: 'ArrowRight' });
    expect(slides()).toEqual(['2 of 4: My World 2']);
    fireEvent.keyDown(track, { key: 'ArrowLeft' });
    fireEvent.keyDown(track, { key: 'ArrowLeft' });
    expect(slides()).toEqual(['4 of 4: My World 4']);

    // 50 px is not a swipe; 51 px is.
    fireEvent.touchStart(track, { touches: [{ clientX: 300 }] });
    fireEvent.touchEnd(track, { changedTouches: [{ clientX: 250 }] });
    expect(slides()).toEqual(['4 of 4: My World 4']);
    fireEvent.touchStart(track, { touches: [{ clientX: 300 }] });
    fireEvent.touchEnd(track, { changedTouches: [{ clientX: 249 }] });
    expect(slides()).toEqual(['1 of 4: My World 1']);
    fireEvent.touchStart(track, { touches: [{ clientX: 100 }] });
    fireEvent.touchEnd(track, { changedTouches: [{ clientX: 160 }] });
    expect(slides()).toEqual(['4 of 4: My World 4']);

    act(() => setWidth(800));
    expect(slides()).toHaveLength(2);
    act(() => setWidth(1200));
    expect(slides()).toEqual(['4 of 4: My World 4', '1 of 4: My World 1', '2 of 4: My World 2']);
  });
});

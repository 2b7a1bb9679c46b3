/**
 * The story screen's tools and keys (issue 33), through the real Apollo client against a scripted
 * /graphql: the memory bank in the Memory tool, what the storyteller remembered for the latest
 * chapter, the next choices shown greyed while they stream, 1–4 and Enter.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { chapter, storyCharacter } from '../../test/fixtures';
import { DEFAULT_STYLE_SET } from './story-styles';
import { renderApp } from '../../test/render-app';

const twoChapters = () => ({ data: { character: storyCharacter({ chapters: [chapter(0), chapter(1)] }) } });

describe('story tools', () => {
  it('the Memory tool holds the memory bank; the Remembered tool shows what the latest chapter was sent', async () => {
    const { calls } = await renderApp(
      '/storychat/c-1',
      {
        StoryPage_character: twoChapters,
        MemoryBankPanel_memories: () => ({
          data: {
            character: {
              __typename: 'Character',
              id: 'c-1',
              memories: [
                {
                  __typename: 'StoryMemoryEntry',
                  id: 'm-1',
                  kind: 'fact',
                  text: 'The lighthouse keeper owes Lyra a favour.',
                  pinned: true,
                  chapterNumber: 2,
                  source: 'chapter',
                  edited: false,
                },
              ],
            },
          },
        }),
        RememberedPanel: () => ({
          data: {
            character: {
              __typename: 'Character',
              id: 'c-1',
              remembered: {
                __typename: 'RememberedPrompt',
                chapterId: 'ch-1',
                chapterIndex: 1,
                take: 0,
                provider: 'offline',
                model: null,
                maxContextTokens: 2000,
                reservedTokens: 500,
                promptTokens: 2248,
                sections: [{ __typename: 'RememberedSection', key: 'recent', title: 'Latest chapters', tokens: 2248, text: 'Chapter 1 text.' }],
                omitted: [],
              },
            },
          },
        }),
      },
      { signedIn: true },
    );
    const tablist = await screen.findByRole('tablist', { name: 'Story tools' });
    expect(
      within(tablist)
        .getAllByRole('tab')
        .map((t) => t.querySelector('.tool-label')?.textContent),
    ).toEqual(['Mission', 'Inventory', 'Memory', 'Remembered', 'Cards', 'Branches', 'Publish']);
    fireEvent.click(within(tablist).getByRole('tab', { name: /^Memory/ }));
    expect(await screen.findByText('The lighthouse keeper owes Lyra a favour.')).toBeTruthy();
    expect(screen.getByTestId('story-memory')).toBeTruthy(); // the story memory is there too

    fireEvent.click(within(tablist).getByRole('tab', { name: /^Remembered/ }));
    expect(await screen.findByText('Latest chapters')).toBeTruthy();
    // The offline storyteller has no context limit: what it read is not set against the tier's room.
    expect(screen.getByTestId('remembered').querySelector('.memory-help')!.textContent).toBe(
      'For chapter 2: 2,248 tokens, all read by the offline storyteller (it has no context limit; a model on your tier reads up to 1,500).',
    );
    // Asked for the latest chapter's own report.
    expect(calls.find((c) => c.operationName === 'RememberedPanel')?.variables).toEqual({ characterId: 'c-1', chapterId: 'ch-1' });
  });

  it('1–4 pick a suggested choice and Enter sends it', async () => {
    const { subscriptions } = await renderApp('/storychat/c-1', { StoryPage_character: twoChapters }, { signedIn: true });
    const dive = await screen.findByRole('button', { name: 'Dive into the clouds' });
    fireEvent.keyDown(document.body, { key: '2' });
    expect(dive.getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(document.body, { key: '1' });
    expect(screen.getByRole('button', { name: 'Climb the mast' }).getAttribute('aria-pressed')).toBe('true');
    expect(dive.getAttribute('aria-pressed')).toBe('false');
    // Typing in the action box is not picking: digits go into the text.
    const box = screen.getByPlaceholderText('Or type your own action...');
    fireEvent.keyDown(box, { key: '2' });
    expect(screen.getByRole('button', { name: 'Climb the mast' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(document.body, { key: 'Enter' });
    const channel = await subscriptions.channel('ChapterStream_play');
    expect(channel.variables).toMatchObject({ input: { userChoice: 'Climb the mast', expectedIndex: 2 } });
  });

  it('the next choices show greyed while they are written, and can be chosen once the chapter is stored', async () => {
    let character = storyCharacter({ chapters: [chapter(0)] });
    const { subscriptions } = await renderApp('/storychat/c-1', { StoryPage_character: () => ({ data: { character } }) }, { signedIn: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Climb the mast' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const channel = await subscriptions.channel('ChapterStream_play');
    const frame = (status: string, offset: number, delta: string, choices: string[] | null, result: unknown = null) => ({
      playChapter: {
        __typename: 'ChapterStreamEvent',
        chapterId: 'ch-1',
        index: 1,
        take: 0,
        status,
        offset,
        delta,
        errorCode: null,
        error: null,
        errorHint: null,
        choices,
        result,
      },
    });
    act(() => channel.emit(frame('generating', 0, 'You climb.', null)));
    act(() => channel.emit(frame('generating', 10, '', ['Cut the rope', 'Wave to the ship'])));
    const pending = await screen.findByRole('group', { name: 'Next choices, being written' });
    const cut = within(pending).getByRole('button', { name: 'Cut the rope' }) as HTMLButtonElement;
    expect(cut.disabled).toBe(true);
    fireEvent.keyDown(document.body, { key: '1' });
    expect(cut.getAttribute('aria-pressed')).toBe('false');

    const stored = chapter(1, { text: 'You climb.', choices: ['Cut the rope', 'Wave to the ship'] });
    character = storyCharacter({ chapters: [chapter(0), stored] });
    act(() =>
      channel.emit(
        frame('complete', 10, '', null, {
          __typename: 'GenerateChapterPayload',
          newChapter: stored,
          updatedStats: {},
          newIncreases: {},
          newSettingGenerated: false,
          settingText: null,
          missionCompleted: false,
          newMission: null,
        }),
      ),
    );
    const group = await screen.findByRole('group', { name: 'Suggested choices' });
    await waitFor(() => expect((within(group).getByRole('button', { name: 'Cut the rope' }) as HTMLButtonElement).disabled).toBe(false));
  });

  it('on a phone the bar holds the everyday tools and More; the rest open from More, and focus comes back to More', async () => {
    // A phone: narrower than the side panel's breakpoint.
    const matchMedia = jest.fn((query: string) => ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {} }));
    Object.defineProperty(window, 'matchMedia', { configurable: true, value: matchMedia });
    try {
      await renderApp('/storychat/c-1', { StoryPage_character: twoChapters }, { signedIn: true });
      const bar = await screen.findByRole('navigation', { name: 'Story tools' });
      const labels = () =>
        within(bar)
          .getAllByRole('button')
          .map((b) => b.querySelector('.tool-label')?.textContent);
      expect(labels()).toEqual(['Mission', 'Inventory', 'Memory', 'Cards', 'More']);

      const more = within(bar).getByRole('button', { name: 'More' });
      expect(more.getAttribute('aria-haspopup')).toBe('dialog');
      fireEvent.click(more);
      const sheet = screen.getByRole('dialog', { name: 'More tools' });
      expect(more.getAttribute('aria-expanded')).toBe('true');
      expect(
        within(within(sheet).getByRole('list'))
          .getAllByRole('button')
          .map((b) => b.querySelector('.tool-label')?.textContent),
      ).toEqual(['Remembered', 'Branches', 'Publish']);

      fireEvent.click(within(sheet).getByRole('button', { name: /^Branches/ }));
      expect(screen.queryByRole('dialog', { name: 'More tools' })).toBeNull();
      const branches = screen.getByRole('dialog', { name: 'Branches' });
      expect(more.getAttribute('aria-expanded')).toBe('true'); // the open tool is one of More's
      fireEvent.keyDown(branches, { key: 'Escape' });
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(document.activeElement).toBe(more);
    } finally {
      delete (window as { matchMedia?: unknown }).matchMedia;
    }
  });

  it("on a phone with the immersive look on, a tool's sheet wears the story's colours, not the app's", async () => {
    const matchMedia = jest.fn((query: string) => ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {} }));
    Object.defineProperty(window, 'matchMedia', { configurable: true, value: matchMedia });
    try {
      await renderApp(
        '/storychat/c-1',
        {
          StoryPage_character: () => ({ data: { character: storyCharacter({ chapters: [chapter(0), chapter(1)], setting: 'A harbour' }) } }),
          StoryPage_settings: () => ({ data: { settings: { __typename: 'UserSettings', immersiveUi: true, readingLevel: 8 } } }),
          StoryPage_settingStyles: () => ({
            data: { settingStyles: { __typename: 'StyleSetType', ...DEFAULT_STYLE_SET, statsPanelBackground: '#0b2a33', statsPanelTextColor: '#e8f4f0' } },
          }),
        },
        { signedIn: true },
      );
      const bar = await screen.findByRole('navigation', { name: 'Story tools' });
      await waitFor(() => expect(document.querySelector('.story-page')?.getAttribute('data-immersive')).toBe('on'));
      fireEvent.click(within(bar).getByRole('button', { name: /^Mission/ }));
      // The sheet is portalled to the end of body, outside the page that carries the colours.
      const root = screen.getByRole('dialog', { name: 'Mission' }).closest('.sheet-root') as HTMLElement;
      expect(root.parentElement).toBe(document.body);
      expect(root.style.getPropertyValue('--st-stats-bg')).toBe('#0b2a33');
      expect(root.style.getPropertyValue('--st-stats-fg')).toBe('#e8f4f0');
    } finally {
      delete (window as { matchMedia?: unknown }).matchMedia;
    }
  });
});

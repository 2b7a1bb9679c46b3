/**
 * Stakes on the story screen (issue 31), through the real Apollo client against a scripted /graphql:
 * the dice line with a chapter, health, the inventory, the defeat choice and the story's difficulty.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { chapter, stakesCharacter, storyCharacter } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';

const failed = {
  __typename: 'ChapterCheck',
  attempt: 'fight the captain',
  stat: 'strength',
  difficulty: 14,
  roll: 3,
  modifier: 1,
  itemBonus: 2,
  item: 'Iron Hook',
  total: 6,
  outcome: 'critical_failure',
  healthLost: 4,
  itemUsedUp: false,
};
const stakes = (over: Record<string, unknown>) => ({
  __typename: 'ChapterStakes',
  healthBefore: 10,
  healthAfter: 10,
  healthMax: 10,
  defeat: false,
  lastingCost: 0,
  healthRestored: 0,
  itemsGained: [],
  itemsLost: [],
  ...over,
});

/** The story page's two reads: the chapters, and their dice with the hero (ChapterStakes_character). */
function story(latest: { check?: unknown; stakes?: unknown }) {
  return {
    StoryPage_character: () => ({ data: { character: storyCharacter({ chapters: [chapter(0), chapter(1), chapter(2)] }) } }),
    ChapterStakes_character: () => ({
      data: {
        character: stakesCharacter({
          chapters: [{ id: 'ch-0' }, { id: 'ch-1', stakes: stakes({ itemsGained: ['Iron Hook'] }) }, { id: 'ch-2', ...latest }],
          health: 0,
          inventory: [{ id: 'k-1', name: 'Iron Hook', description: 'Three prongs of black iron.' }],
        }),
      },
    }),
  };
}

it('shows the roll with the chapter, the health it cost and what the hero carries', async () => {
  await renderApp('/storychat/c-1', story({ check: failed, stakes: stakes({ healthBefore: 4, healthAfter: 0, defeat: true }) }), { signedIn: true });
  const line = await screen.findByLabelText('Dice: Strength check against 14: rolled 3 + 1 for Strength + 2 for the Iron Hook, total 6. Critical failure.');
  expect(line.textContent).toContain('d20 3');
  // Seen as the sum it is, in order: roll, bonuses with their reasons, total against the difficulty.
  expect(line.querySelector('.check-sum')!.textContent).toBe('+ 1 Strength + 2 Iron Hook = 6 vs 14');
  expect(line.textContent).toContain('Critical failure');
  expect(screen.getByText('Health 4 → 0 of 10')).toBeTruthy();
  expect(screen.getByText('Gained: Iron Hook')).toBeTruthy();
  const meter = within(screen.getByTestId('health-meter'));
  expect(meter.getByText('0 / 10')).toBeTruthy();
  expect((screen.getByTestId('health-meter').querySelector('meter') as HTMLMeterElement).value).toBe(0);
  // The inventory is a tool of its own (the story tools), opened by its tab.
  fireEvent.click(within(screen.getByRole('tablist', { name: 'Story tools' })).getByRole('tab', { name: /^Inventory/ }));
  const inventory = within(await screen.findByTestId('inventory'));
  expect(inventory.getByText('Iron Hook')).toBeTruthy();
  expect(inventory.getByText('Three prongs of black iron.')).toBeTruthy();
});

it('after a defeat the player chooses: rewind to before it (confirmed), or go on, which brings the composer back', async () => {
  const { calls } = await renderApp(
    '/storychat/c-1',
    {
      ...story({ check: failed, stakes: stakes({ healthBefore: 4, healthAfter: 0, defeat: true }) }),
      StoryPage_rewindStory: () => ({ data: { rewindStory: { __typename: 'Character', id: 'c-1' } } }),
    },
    { signedIn: true },
  );
  const choice = within(await screen.findByTestId('defeat-choice'));
  expect(screen.queryByPlaceholderText('Or type your own action...')).toBeNull();
  fireEvent.click(choice.getByRole('button', { name: 'Rewind to chapter 2' }));
  const dialog = within(await screen.findByRole('alertdialog'));
  expect(dialog.getByText('Rewind to chapter 2?')).toBeTruthy();
  fireEvent.click(dialog.getByRole('button', { name: 'Rewind' }));
  await waitFor(() => expect(calls.find((c) => c.operationName === 'StoryPage_rewindStory')?.variables).toEqual({ characterId: 'c-1', chapterIndex: 1 }));
  fireEvent.click(within(await screen.findByTestId('defeat-choice')).getByRole('button', { name: 'Go on, scarred' }));
  expect(await screen.findByPlaceholderText('Or type your own action...')).toBeTruthy();
  expect(screen.queryByTestId('defeat-choice')).toBeNull();
});

it('a routine chapter shows no dice; the difficulty is chosen in Story Memory and saved at once', async () => {
  const { calls } = await renderApp(
    '/storychat/c-1',
    {
      ...story({}),
      DifficultySelect_update: () => ({ data: { updateStoryMemory: { __typename: 'StoryMemory', difficulty: 'hard' } } }),
    },
    { signedIn: true },
  );
  await screen.findByRole('button', { name: 'Climb the mast' });
  expect(screen.getAllByTestId('check-line')).toHaveLength(1); // chapter 2's item only; chapter 3 was routine
  fireEvent.click(within(screen.getByRole('tablist', { name: 'Story tools' })).getByRole('tab', { name: /^Memory/ }));
  fireEvent.change(await screen.findByLabelText('Difficulty'), { target: { value: 'hard' } });
  await waitFor(() => expect(calls.find((c) => c.operationName === 'DifficultySelect_update')?.variables).toEqual({ characterId: 'c-1', difficulty: 'hard' }));
});

it('another version of the latest chapter shows its own dice at once, without waiting for the dice to be read again', async () => {
  // Version 2 (ch-2b, no check) is shown; version 1 (ch-2, a failed check) is picked. The dice read
  // that follows the switch is slow (on a busy server, seconds): the line must not vanish meanwhile.
  let picked = false;
  const takes = [
    { __typename: 'Chapter', id: 'ch-2', take: 0 },
    { __typename: 'Chapter', id: 'ch-2b', take: 1 },
  ];
  const page = (latest: ReturnType<typeof chapter>) => {
    const character = storyCharacter({ chapters: [chapter(0), chapter(1), latest] });
    return { data: { character: { ...character, storyline: { ...character.storyline, latestTakes: takes } } } };
  };
  const first = chapter(2, { take: 0, text: 'The first take.' });
  const second = chapter(2, { id: 'ch-2b', take: 1, text: 'The second take.' });
  let stakesReads = 0;
  await renderApp(
    '/storychat/c-1',
    {
      StoryPage_character: () => page(picked ? first : second),
      ChapterStakes_character: () => {
        stakesReads += 1;
        if (stakesReads > 1) return new Promise(() => undefined); // the read after the switch never comes back in time
        return { data: { character: stakesCharacter({ chapters: [{ id: 'ch-0' }, { id: 'ch-1' }, { id: 'ch-2b' }] }) } };
      },
      StoryPage_selectChapterTake: () => {
        picked = true;
        return {
          data: {
            selectChapterTake: {
              __typename: 'GenerateChapterPayload',
              newChapter: { ...first, check: failed, stakes: stakes({ healthBefore: 10, healthAfter: 6 }) },
              updatedStats: { strength: 12, wisdom: 9 },
              newIncreases: {},
              newSettingGenerated: false,
              settingText: null,
              missionCompleted: false,
              newMission: null,
            },
          },
        };
      },
    },
    { signedIn: true },
  );
  await screen.findByText('The second take.');
  fireEvent.click(screen.getByRole('button', { name: 'Previous version' }));
  await screen.findByText('The first take.');
  expect(await screen.findByLabelText(/^Dice: Strength check against 14/)).toBeTruthy();
  expect(screen.getByText('Health 10 → 6 of 10')).toBeTruthy();
});

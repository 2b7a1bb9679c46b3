/** Party fixtures for the party screens' tests (as the server answers them, __typename included). */
import { chapter } from '../../test/fixtures';

const PEOPLE = [
  { username: 'aria', characterName: 'Kael' },
  { username: 'tom', characterName: 'Tomas' },
  { username: 'mira', characterName: 'Mira' },
];

/** Player n (1-based): user-n playing c-n; the test session is user-1 (aria). */
export const member = (n: number, extra: Record<string, unknown> = {}) => ({
  __typename: 'PartyMember',
  userId: `user-${n}`,
  username: PEOPLE[n - 1]!.username,
  characterId: `c-${n}`,
  characterName: PEOPLE[n - 1]!.characterName,
  stats: { strength: 10 + n, wisdom: 5 },
  seat: n - 1,
  isHost: n === 1,
  isStoryOwner: n === 1,
  hasActed: false,
  ...extra,
});

export const partyFields = (extra: Record<string, unknown> = {}) => ({
  __typename: 'Party',
  id: 'p-1',
  mode: 'live',
  status: 'open',
  hostUserId: 'user-1',
  storyCharacterId: 'c-1',
  storyOwnerId: 'user-1',
  worldId: 'w-1',
  hostPays: false,
  locked: false,
  roundSeconds: 300,
  turnSeconds: 86400,
  round: 0,
  roundState: 'collecting',
  turnUserId: null,
  deadlineAt: null,
  lastError: null,
  members: [member(1), member(2), member(3)],
  ...extra,
});

/** The party with its story (PartyPage_party). */
export const party = (extra: Record<string, unknown> = {}, chapters: Array<Record<string, unknown>> = [chapter(0)]) => ({
  ...partyFields(extra),
  story: {
    __typename: 'Storyline',
    // Each player's dice (PartyChapterDiceFields): none unless the chapter says.
    chapters: chapters.map((c) => ({ check: null, stakes: null, partyChecks: [], ...c })),
    totalChapters: chapters.length,
    hasOlder: false,
    generatingChapterId: null,
  },
});

/** A check as the server answers it (ChapterCheck). */
export const check = (roll: number, outcome: string, extra: Record<string, unknown> = {}) => ({
  __typename: 'ChapterCheck',
  stat: 'strength',
  difficulty: 14,
  roll,
  modifier: 1,
  itemBonus: 0,
  item: null,
  total: roll + 1,
  outcome,
  ...extra,
});

/** A partyUpdated event. */
export const update = (reason: string, extra: Record<string, unknown> | null = {}) => ({
  partyUpdated: { __typename: 'PartyUpdate', partyId: 'p-1', reason, party: extra === null ? null : partyFields(extra) },
});

/** Shapes the scripted server answers with, matching the client's operations. */
export const WORLD = {
  __typename: 'World',
  id: 'w-1',
  name: 'Aethermoor',
  description: 'Sky-islands adrift on rivers of starlight.',
  questions: ['Where were you born?', 'What do you fear?'],
  imageUrl: null,
  genre: 'high-fantasy',
  author: null,
  isOwn: false,
  sharedGlobally: false,
};

/** What the world popup reads fresh for an open world (plays, likes, the viewer's like, remix credit). */
export const worldSignals = (id: string, extra: Record<string, unknown> = {}) => ({
  __typename: 'World',
  id,
  playCount: 0,
  likeCount: 0,
  likedByMe: false,
  hiddenPendingReview: false,
  remixedFrom: null,
  ...extra,
});

export const EMPTY_COMMUNITY = { __typename: 'CommunityPage', total: 0, worlds: [] };

export const ownWorld = (n: number, extra: Partial<typeof WORLD> = {}) => ({
  ...WORLD,
  id: `own-${n}`,
  name: `My World ${n}`,
  author: 'aria',
  isOwn: true,
  ...extra,
});

export const GENERATED = {
  __typename: 'GeneratedCharacter',
  draftId: null,
  username: 'Lyra',
  stats: { strength: 12, mental_fortitude: 9 },
  description: 'A sky-sailor.\nBorn in a storm.',
  traits: ['Curious'],
  strengths: ['Agile'],
  weaknesses: ['Reckless'],
  special: { __typename: 'SpecialAbility', name: 'Windcall', description: 'Calls the wind.' },
};

export const SAVED_CHARACTER = {
  id: 'c-1',
  name: 'Lyra',
  worldId: 'w-1',
  worldName: 'Aethermoor',
  stats: { strength: 12, wisdom: 9 },
  description: 'A sky-sailor.',
  traits: ['Curious'],
  strengths: ['Agile'],
  weaknesses: ['Reckless'],
  special: { name: 'Windcall', description: 'Calls the wind.' },
};

export const chapter = (index: number, extra: Record<string, unknown> = {}) => ({
  __typename: 'Chapter',
  id: `ch-${index}`,
  index,
  take: 0,
  status: 'complete',
  text: `Chapter ${index + 1} text.`,
  playerChoice: index === 0 ? null : `Action ${index}`,
  choices: ['Climb the mast', 'Dive into the clouds'],
  setting: 'A storm-wracked sky harbour',
  statIncreases: index === 0 ? {} : { strength: 1 },
  edited: false,
  actionEdited: false,
  ...extra,
});

export function storyCharacter({
  chapters = [] as ReturnType<typeof chapter>[],
  mission: currentMission = null as null | Mission,
  generatingChapterId = null as string | null,
  setting = null as string | null,
  storyCards = [] as Array<Record<string, unknown>>,
  completedMissions = [] as Array<{ objective: string; completedInChapter: number; completedAt: string }>,
  storyBranches = [] as Array<Record<string, unknown>>,
  publication = null as null | { id: string; chapterCount: number; hidden?: boolean },
} = {}) {
  return {
    __typename: 'Character',
    id: 'c-1',
    name: 'Lyra',
    description: 'A sky-sailor.',
    stats: { strength: 12, wisdom: 9 },
    worldId: 'w-1',
    worldName: 'Aethermoor',
    currentSetting: setting,
    currentMission,
    missionHistory: [
      ...completedMissions.map((m, i) => ({
        ...mission(m.objective, `m-done-${i}`),
        status: 'completed',
        completedAt: m.completedAt,
        completedInChapter: m.completedInChapter,
      })),
      ...(currentMission ? [{ ...currentMission, completedAt: null, completedInChapter: null }] : []),
    ],
    storyMemory: {
      __typename: 'StoryMemory',
      plotEssentials: '',
      authorsNote: '',
      summary: '',
      summaryCoversChapters: 0,
      pointOfView: 'second',
    },
    storyCards: storyCards.map((c) => ({
      __typename: 'StoryCard',
      kind: 'character',
      aliases: [],
      description: '',
      role: null,
      status: null,
      pinned: false,
      source: 'model',
      edited: false,
      lastSeenChapter: 1,
      ...c,
    })),
    storyBranches: storyBranches.map((b, i) => ({
      __typename: 'StoryBranch',
      id: `b-${i}`,
      fromChapterNumber: 1,
      chapterCount: 1,
      firstAction: null,
      preview: '',
      createdAt: '2026-11-20T10:00:00Z',
      ...b,
    })),
    publication: publication && {
      __typename: 'StoryPublicationInfo',
      path: `/read/${publication.id}`,
      hidden: false,
      updatedAt: '2026-11-20T10:00:00Z',
      ...publication,
    },
    storyline: {
      __typename: 'Storyline',
      chapters,
      currentChapter: chapters.length ? chapters.length - 1 : null,
      currentSetting: setting,
      totalChapters: chapters.length,
      hasOlder: false,
      generatingChapterId,
      latestTakes: chapters.length ? [{ id: chapters[chapters.length - 1].id, take: 0 }] : [],
    },
  };
}

export const STORY_CHARACTER = storyCharacter();

type Mission = { __typename: 'Mission'; id: string; objective: string; startedAt: string; status: string };

export const mission = (objective: string, id = 'm-1'): Mission => ({
  __typename: 'Mission',
  id,
  objective,
  startedAt: '2025-01-02T03:04:05.000Z',
  status: 'active',
});

/** ChapterStakes_character (issue 31): the hero's health, inventory and difficulty, and chapters' dice. */
export function stakesCharacter({
  chapters = [] as Array<{ id: string; check?: unknown; stakes?: unknown }>,
  health = 10,
  healthMax = 10,
  inventory = [] as Array<{ id: string; name: string; description: string }>,
  difficulty = 'balanced',
} = {}) {
  return {
    __typename: 'Character',
    id: 'c-1',
    health,
    healthMax,
    inventory: inventory.map((i) => ({ __typename: 'StoryCard', ...i })),
    storyMemory: { __typename: 'StoryMemory', difficulty },
    chapterStakes: chapters.map((c) => ({ __typename: 'Chapter', check: null, stakes: null, ...c })),
  };
}

/** The read-aloud settings of an account that never changed them. */
export const READ_ALOUD_SETTINGS = {
  readAloudEngine: 'browser',
  readAloudVoice: '',
  readAloudServerVoice: '',
  readAloudRate: 1,
  readAloudAuto: false,
};

/** What a server without a speech key offers: the browser voice only. */
export const NO_SERVER_VOICE = { __typename: 'ReadAloudInfo', serverVoiceAvailable: false, voices: [], creditsPerChapter: 1 };

/** The settings query's answer (the type name lets Apollo match the read-aloud fragment). */
export const userSettings = (extra: Record<string, unknown> = {}) => ({
  __typename: 'UserSettings',
  immersiveUi: false,
  readingLevel: 8,
  ...READ_ALOUD_SETTINGS,
  ...extra,
});

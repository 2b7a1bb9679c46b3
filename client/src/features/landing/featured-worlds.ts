/** The four landing worlds (SPEC §2). Their ids are seeded by the server with the same values. */
export interface LandingWorld {
  id: string;
  name: string;
  genre: string;
  tagline: string;
  /** CSS class carrying the world's painted (pure CSS) artwork. */
  art: string;
}

export const LANDING_WORLDS: readonly LandingWorld[] = [
  {
    id: '00000000-0000-4000-a000-000000000001',
    name: 'Aethermoor',
    genre: 'High fantasy',
    tagline: 'Sky-islands adrift on rivers of starlight, where old dragons bargain in riddles and every oath is binding.',
    art: 'art-aethermoor',
  },
  {
    id: '00000000-0000-4000-a000-000000000002',
    name: 'Neon Requiem',
    genre: 'Cyberpunk',
    tagline: 'A rain-slick megacity that never sleeps, ruled by corporations that never forget. Memories sell by the gram.',
    art: 'art-neon',
  },
  {
    id: '00000000-0000-4000-a000-000000000003',
    name: 'The Drowned Expanse',
    genre: 'Pirate & nautical',
    tagline: 'An endless ocean over a sunken empire. Chart the storms, raise the wrecks, and keep your crew from mutiny.',
    art: 'art-drowned',
  },
  {
    id: '00000000-0000-4000-a000-000000000004',
    name: 'Hollowmere',
    genre: 'Gothic horror',
    tagline: 'A fog-bound town where the bells ring at midnight for no one, and the manor on the hill keeps its own counsel.',
    art: 'art-hollowmere',
  },
];

import { localCheck } from './moderation';

/**
 * The local check runs when no moderation endpoint can decide. It must catch what no story platform
 * publishes, through the usual disguises, and let dark fiction through: a storyteller's villains,
 * wars and plagues are not abuse.
 */
describe('the local moderation check', () => {
  it.each([
    ['sexual content with a minor', 'The lessons include sexual acts with the 12-year-old pupils.', 'sexual/minors'],
    ['the same with an age in words', 'an erotic tale about a schoolgirl', 'sexual/minors'],
    ['a slur spelled out with spaces', 'N i g g e r town', 'hate'],
    ['a slur with digits for letters', 'those f4gg0ts in the capital', 'hate'],
    ['a slur behind accents and zero-width spaces', 'K\u200bíkes run the bank', 'hate'],
  ])('flags %s', (_what, text, category) => {
    expect(localCheck([text])).toMatchObject({ flagged: true, categories: [category], source: 'local' });
  });

  it.each([
    'Warlords burn villages, the dead rise and children hide from the plague.',
    'The assassin slits the tyrant’s throat and flees across the rooftops.',
    'A romance between two sailors, told with a fade to black.',
    'Kids race paper boats down the gutters of Harbour Street.',
    'The Spice Road runs past Chinkara Hill and the town of Scunthorpe.',
  ])('lets dark or innocent fiction through: %s', (text) => {
    expect(localCheck([text, 'Who are you?'])).toEqual({ flagged: false, categories: [], source: 'local' });
  });

  it('reads every text together: a name and a description can make the case between them', () => {
    expect(localCheck(['Nursery of the Damned', 'nude portraits of the children of the court']).categories).toEqual(['sexual/minors']);
  });
});

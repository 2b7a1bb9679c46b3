import type { PartyChapterDiceFieldsFragment } from '../../gql/graphql';
import { CheckLine } from '../story/stakes/CheckLine';

/**
 * Each player's own dice in a round's chapter (issue 34, step 7): the hero's check (the story
 * character's, with its health and belongings) and every companion's, each rolled on that player's
 * own stats, named. Decided by the server before the chapter; nothing here is computed but the words.
 */
export function PartyDice({ chapter, heroName }: { chapter: PartyChapterDiceFieldsFragment; heroName: string }) {
  const companions = chapter.partyChecks.filter((c) => c.check);
  const hero = chapter.check || chapter.stakes ? <CheckLine check={chapter.check ?? null} stakes={chapter.stakes ?? null} /> : null;
  if (companions.length === 0) return hero;
  return (
    <ul className="party-dice" aria-label="Each player's dice">
      {chapter.check && (
        <li>
          <span className="party-dice-name">{heroName}</span>
          {hero}
        </li>
      )}
      {companions.map((c, i) => (
        <li key={i}>
          <span className="party-dice-name">{c.name}</span>
          <CheckLine check={c.check ? { ...c.check, itemBonus: 0, item: null } : null} stakes={null} />
        </li>
      ))}
      {!chapter.check && hero && <li>{hero}</li>}
    </ul>
  );
}

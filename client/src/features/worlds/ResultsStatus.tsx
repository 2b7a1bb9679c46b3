/**
 * What a search found, said to screen readers (a polite live region, visually hidden): the cards
 * change silently otherwise. Always mounted, so a change of its text is announced.
 */
export function ResultsStatus({ count, noun, active }: { count: number | null; noun: string; active: boolean }) {
  const text = !active || count === null ? '' : count === 0 ? `No ${noun}s found.` : `${count} ${noun}${count === 1 ? '' : 's'} found.`;
  return (
    <p className="visually-hidden" role="status">
      {text}
    </p>
  );
}

/** Monthly billing periods in UTC. A period starting on the 31st ends on the last day of a short month. */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}

/**
 * The period that contains `now`, stepping whole months from a period that has ended. Periods missed
 * entirely (nobody looked for months) are skipped, not back-filled: one grant for the current one.
 */
export function currentPeriod(anchorStart: Date, now: Date): { start: Date; end: Date } {
  let n = 1;
  let start = anchorStart;
  let end = addMonths(anchorStart, 1);
  while (end.getTime() <= now.getTime()) {
    n++;
    start = end;
    end = addMonths(anchorStart, n);
  }
  return { start, end };
}

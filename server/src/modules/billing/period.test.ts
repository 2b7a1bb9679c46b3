import { addMonths, currentPeriod } from './period';

const d = (s: string) => new Date(s);

describe('billing periods', () => {
  it('adds calendar months in UTC, clamping to the end of short months', () => {
    expect(addMonths(d('2026-01-15T10:00:00Z'), 1).toISOString()).toBe('2026-02-15T10:00:00.000Z');
    expect(addMonths(d('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(d('2028-01-31T00:00:00Z'), 1).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(addMonths(d('2026-12-31T23:59:59Z'), 2).toISOString()).toBe('2027-02-28T23:59:59.000Z');
  });

  it('steps from the anchor, so a period starting on the 31st keeps coming back to month ends', () => {
    const p = currentPeriod(d('2026-01-31T00:00:00Z'), d('2026-03-30T12:00:00Z'));
    expect([p.start.toISOString(), p.end.toISOString()]).toEqual(['2026-02-28T00:00:00.000Z', '2026-03-31T00:00:00.000Z']);
  });

  it('finds the one period containing now, skipping periods nobody saw', () => {
    const p = currentPeriod(d('2026-01-10T00:00:00Z'), d('2026-06-20T00:00:00Z'));
    expect([p.start.toISOString(), p.end.toISOString()]).toEqual(['2026-06-10T00:00:00.000Z', '2026-07-10T00:00:00.000Z']);
    // A period ending exactly now is over.
    const q = currentPeriod(d('2026-01-10T00:00:00Z'), d('2026-02-10T00:00:00Z'));
    expect(q.start.toISOString()).toBe('2026-02-10T00:00:00.000Z');
  });
});

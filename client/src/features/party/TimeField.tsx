/** Live round timers the create dialog and the host's settings offer (seconds): a round closes this long after its first action. */
export const ROUND_CHOICES = [
  { seconds: 60, label: '1 minute' },
  { seconds: 120, label: '2 minutes' },
  { seconds: 300, label: '5 minutes' },
  { seconds: 600, label: '10 minutes' },
  { seconds: 1800, label: '30 minutes' },
];
/** By-post turn times (seconds): a member's turn is skipped after this. */
export const TURN_CHOICES = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 6 * 3600, label: '6 hours' },
  { seconds: 12 * 3600, label: '12 hours' },
  { seconds: 86400, label: '1 day' },
  { seconds: 2 * 86400, label: '2 days' },
  { seconds: 3 * 86400, label: '3 days' },
];

export interface TimeChoice {
  seconds: number;
  label: string;
}

/** A round or turn time, chosen from a list (the create dialog, the host's settings). */
export function TimeField({
  id,
  label,
  value,
  choices,
  onChange,
}: {
  id: string;
  label: string;
  value: number;
  choices: readonly TimeChoice[];
  onChange: (seconds: number) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {choices.map((c) => (
          <option key={c.seconds} value={c.seconds}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}

import { useId, useState, type FormEvent } from 'react';
import type { PartyFieldsFragment, PartySettingsInput } from '../../gql/graphql';
import { ROUND_CHOICES, TimeField, TURN_CHOICES } from './TimeField';

/** The host's settings: who pays, and the round or turn time (from the next round or turn). */
export function PartySettings({ party, busy, onSave }: { party: PartyFieldsFragment; busy: boolean; onSave: (input: PartySettingsInput) => void }) {
  const ids = useId();
  const live = party.mode === 'live';
  const current = live ? party.roundSeconds : party.turnSeconds;
  const [hostPays, setHostPays] = useState(party.hostPays);
  const [seconds, setSeconds] = useState(current);
  const base = live ? ROUND_CHOICES : TURN_CHOICES;
  const choices = base.some((c) => c.seconds === current) ? base : [...base, { seconds: current, label: `${current} seconds` }];
  const changed = hostPays !== party.hostPays || seconds !== current;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave(live ? { hostPays, roundSeconds: seconds } : { hostPays, turnSeconds: seconds });
  };
  return (
    <form className="party-settings" onSubmit={submit} aria-label="Party settings">
      <TimeField id={`${ids}-time`} label={live ? 'Round time' : 'Time for each turn'} value={seconds} choices={choices} onChange={setSeconds} />
      <label className="checkbox-row">
        <input type="checkbox" checked={hostPays} onChange={(e) => setHostPays(e.target.checked)} />I pay for every chapter
      </label>
      <button type="submit" className="story-button" disabled={busy || !changed}>
        Save settings
      </button>
      <p className="party-hint">From the next {live ? 'round' : 'turn'}.</p>
    </form>
  );
}

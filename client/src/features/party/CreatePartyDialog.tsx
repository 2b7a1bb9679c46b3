import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { GemIcon } from '../../components/icons';
import { Modal } from '../../components/ui/Modal';
import { useCreatePartyDialog_chapterCreditsQuery, useCreatePartyDialog_createMutation, type PartyMode } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { partyError } from './party-errors';
import { ROUND_CHOICES, TimeField, TURN_CHOICES } from './TimeField';
import './party.css';

function gems(n: number): string {
  return `${n} gem${n === 1 ? '' : 's'}`;
}

/**
 * "Play with friends": starts a party on this storyline (the player's own saved character) — live
 * rounds or by post, the round or turn time, and who pays for each chapter — then opens it.
 */
function CreatePartyDialog({ characterId, onClose }: { characterId: string; onClose: () => void }) {
  const ids = useId();
  const navigate = useNavigate();
  const [mode, setMode] = useState<PartyMode>('live');
  const [roundSeconds, setRoundSeconds] = useState(300);
  const [turnSeconds, setTurnSeconds] = useState(86400);
  const [hostPays, setHostPays] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cost = useCreatePartyDialog_chapterCreditsQuery();
  const [create, state] = useCreatePartyDialog_createMutation();
  const credits = cost.data?.partyChapterCredits;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const input = mode === 'live' ? { characterId, mode, hostPays, roundSeconds } : { characterId, mode, hostPays, turnSeconds };
      const { data } = await create({ variables: { input } });
      if (data) void navigate(`/party/${data.createParty.id}`);
    } catch (err) {
      setError(partyError(err, MESSAGES.partyCreateFailed));
    }
  };

  return (
    <Modal title="Play with friends" onClose={onClose} className="party-dialog">
      <form className="party-form" onSubmit={(e) => void submit(e)}>
        <p className="party-hint">Up to 6 players write this story together, each with their own character in this world.</p>
        <fieldset className="party-modes">
          <legend>How you play</legend>
          <label className={`party-mode ${mode === 'live' ? 'is-selected' : ''}`}>
            <input type="radio" name={`${ids}-mode`} value="live" checked={mode === 'live'} onChange={() => setMode('live')} />
            <span>
              <strong>Live rounds</strong>
              <small>Everyone sends an action; the chapter is written when all have acted or the time is up.</small>
            </span>
          </label>
          <label className={`party-mode ${mode === 'post' ? 'is-selected' : ''}`}>
            <input type="radio" name={`${ids}-mode`} value="post" checked={mode === 'post'} onChange={() => setMode('post')} />
            <span>
              <strong>By post</strong>
              <small>Players take turns in order; each is told when it is their turn.</small>
            </span>
          </label>
        </fieldset>
        {mode === 'live' ? (
          <TimeField id={`${ids}-round`} label="Round time" value={roundSeconds} choices={ROUND_CHOICES} onChange={setRoundSeconds} />
        ) : (
          <TimeField id={`${ids}-turn`} label="Time for each turn" value={turnSeconds} choices={TURN_CHOICES} onChange={setTurnSeconds} />
        )}
        <label className="checkbox-row">
          <input type="checkbox" checked={hostPays} onChange={(e) => setHostPays(e.target.checked)} />I pay for every chapter
        </label>
        <p className="party-cost" data-testid="party-cost">
          <GemIcon className="gem" />{' '}
          {credits === undefined
            ? 'Each chapter costs credits.'
            : credits === 0
              ? 'Party chapters are free.'
              : hostPays
                ? `Each chapter costs ${gems(credits)}, paid by you.`
                : `Each chapter costs ${gems(credits)}, paid by the player whose action completes the round or turn.`}
        </p>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={state.loading} aria-busy={state.loading}>
            Start Party
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The story screen's entry to party play: a button that opens the dialog. */
export function PlayWithFriends({ characterId, disabled }: { characterId: string; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="story-button" onClick={() => setOpen(true)} disabled={disabled}>
        Play with friends
      </button>
      {open && <CreatePartyDialog characterId={characterId} onClose={() => setOpen(false)} />}
    </>
  );
}

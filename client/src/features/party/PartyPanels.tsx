import { useEffect, useId, useState, type ReactNode } from 'react';
import { toast } from 'react-toastify/unstyled';
import { Modal } from '../../components/ui/Modal';
import type { PartyFieldsFragment, PartyMemberFieldsFragment } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { statEntries, statLabel } from '../characters/CharacterSheet';

type Party = PartyFieldsFragment;
type Member = PartyMemberFieldsFragment;

/** Now, again every second while `on` (a countdown's clock). */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [on]);
  return now;
}

/** "4:05" under an hour, "3 h 12 min" under a day, else "2 d 4 h"; "any moment now" once it is due. */
export function formatRemaining(ms: number): string {
  if (ms <= 0) return 'any moment now';
  const s = Math.ceil(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

export function seated(party: Party): Member[] {
  return [...party.members].sort((a, b) => a.seat - b.seat);
}

/** The round (live) or turn (by post) as a line of text: what the party is waiting for, and until when. */
export function RoundStatus({ party, meId }: { party: Party; meId: string | null }) {
  const ids = useId();
  const deadline = party.deadlineAt ? Date.parse(party.deadlineAt) : null;
  const now = useNow(party.status === 'open');
  const members = seated(party);
  const turn = members.find((m) => m.userId === party.turnUserId) ?? null;
  const mine = party.mode === 'post' && party.turnUserId !== null && party.turnUserId === meId;
  const left = deadline !== null ? formatRemaining(deadline - now) : null;
  let line: string;
  if (party.status === 'ended') line = 'This party has ended. Its story stays here to read.';
  else if (party.roundState === 'writing') line = 'The storyteller is writing the chapter…';
  else if (party.mode === 'live') {
    const acted = members.filter((m) => m.hasActed).length;
    line = `${acted} of ${members.length} have acted.`;
  } else line = mine ? 'Your turn!' : turn ? `${turn.characterName}'s turn (${turn.username}).` : 'Waiting for the next turn.';
  return (
    <section className={`story-panel party-round ${mine ? 'is-your-turn' : ''}`} aria-labelledby={`${ids}-title`} data-testid="party-round">
      <h2 id={`${ids}-title`}>
        {party.mode === 'live' ? `Round ${party.round + 1}` : `Turn ${party.round + 1}`}
        <span className="party-mode-tag">{party.mode === 'live' ? 'Live rounds' : 'By post'}</span>
      </h2>
      <p className="party-round-line" role="status">
        {line}
      </p>
      {party.status === 'open' && party.roundState === 'collecting' && (
        <p className="party-deadline" data-testid="party-deadline">
          {left === null ? (
            party.mode === 'live' ? (
              'The round timer starts with the first action.'
            ) : (
              'No time limit on this turn.'
            )
          ) : (
            <>
              {party.mode === 'live' ? 'Round closes in ' : 'Turn ends in '}
              <time dateTime={party.deadlineAt ?? undefined}>{left}</time>
            </>
          )}
        </p>
      )}
      {party.lastError && (
        <p className="form-error" role="alert">
          The last chapter could not be written: {party.lastError}
        </p>
      )}
    </section>
  );
}

export type MemberAction = 'kick' | 'ban' | 'host';

/** The players and their characters (each with their own stats in the party), who has acted, and the host's per-player controls. */
export function MembersPanel({
  party,
  meId,
  isHost,
  onMemberAction,
}: {
  party: Party;
  meId: string | null;
  isHost: boolean;
  onMemberAction: (action: MemberAction, member: Member) => void;
}) {
  const ids = useId();
  const open = party.status === 'open';
  return (
    <section className="story-panel party-members" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Players</h2>
      <ul className="party-member-list">
        {seated(party).map((m) => {
          const me = m.userId === meId;
          const turn = party.mode === 'post' && party.turnUserId === m.userId;
          const state =
            !open || party.roundState === 'writing'
              ? null
              : party.mode === 'live'
                ? m.hasActed
                  ? 'acted'
                  : 'writing…'
                : turn
                  ? me
                    ? 'your turn'
                    : 'their turn'
                  : null;
          return (
            <li key={m.userId} className={`party-member ${me ? 'is-me' : ''} ${turn ? 'is-turn' : ''}`} data-testid="party-member">
              <div className="party-member-head">
                <span className="party-member-name">{m.characterName}</span>
                {m.isHost && <span className="party-badge">Host</span>}
                {me && <span className="party-badge party-badge-me">You</span>}
                {state && <span className={`party-state ${state === 'acted' ? 'is-acted' : ''}`}>{state === 'acted' ? '✓ acted' : state}</span>}
              </div>
              <div className="party-member-user">{m.username}</div>
              <details className="party-member-stats">
                <summary>Stats in this party</summary>
                <dl className="story-stats">
                  {statEntries(m.stats).map(([name, value]) => (
                    <div key={name} className="story-stat">
                      <dt>{statLabel(name)}</dt>
                      <dd>{value}</dd>
                    </div>
                  ))}
                </dl>
              </details>
              {isHost && !me && open && (
                <div className="party-member-actions">
                  <button type="button" className="story-button story-button-ghost" onClick={() => onMemberAction('host', m)}>
                    Make host
                  </button>
                  {!m.isStoryOwner && (
                    <>
                      <button type="button" className="story-button story-button-ghost" onClick={() => onMemberAction('kick', m)}>
                        Kick
                      </button>
                      <button type="button" className="story-button story-button-ghost party-danger" onClick={() => onMemberAction('ban', m)}>
                        Ban
                      </button>
                    </>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export interface CreatedInvite {
  id: string;
  code: string;
  expiresAt: string;
  revoked: boolean;
}

/** An invite in the host's list (PartyPage_invites): its code masked as the server keeps it. */
export interface WorkingInvite {
  id: string;
  maskedCode?: string | null;
  createdAt: string;
  expiresAt: string;
}

/**
 * The invites not expired yet, each dropped from the list the moment it expires: the server's list says
 * which worked when it was fetched, and it is fetched again only when the host changes something.
 */
function useUnexpired<T extends { expiresAt: string }>(items: T[]): T[] {
  const [now, setNow] = useState(() => Date.now());
  const next = Math.min(...items.map((i) => Date.parse(i.expiresAt)).filter((t) => t > now));
  useEffect(() => {
    if (!Number.isFinite(next)) return;
    // The timer firing means that expiry has come: a timer may fire a millisecond before Date.now()
    // reaches it (timers run on the event loop's clock), and a `now` short of it would keep the invite
    // listed with no timer left. setTimeout's longest delay is ~24.8 days; a later expiry is looked at
    // again then.
    const delay = next - Date.now();
    const t = setTimeout(() => setNow(Math.max(Date.now(), delay <= 2 ** 31 - 1 ? next : 0)), Math.min(Math.max(delay, 0), 2 ** 31 - 1));
    return () => clearTimeout(t);
    // `now` too: a wait cut at setTimeout's longest moves `now` without reaching `next`, and waits again.
  }, [next, now]);
  return items.filter((i) => Date.parse(i.expiresAt) > now);
}

function inviteLink(code: string): string {
  return `${window.location.origin}/party/join?code=${encodeURIComponent(code)}`;
}

/** The host's controls: invites (shown once), lock, close the round now, end the party. */
export function HostControls({
  party,
  invites,
  busy,
  onInvite,
  onRevoke,
  onLock,
  onCloseRound,
  onEnd,
  settings,
}: {
  party: Party;
  /** The working invites, as partyInvites gives them (codes masked). */
  invites: WorkingInvite[];
  busy: boolean;
  onInvite: () => void;
  onRevoke: (id: string) => void;
  onLock: (locked: boolean) => void;
  onCloseRound: () => void;
  onEnd: () => void;
  /** Who pays and the timers (PartySettings). */
  settings: ReactNode;
}) {
  const ids = useId();
  const working = useUnexpired(invites);
  const anyActed = party.members.some((m) => m.hasActed);
  const open = party.status === 'open';
  return (
    <section className="story-panel party-host" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Host controls</h2>
      {!open ? (
        <p>The party has ended.</p>
      ) : (
        <>
          <div className="party-host-row">
            <button type="button" className="story-button" onClick={onInvite} disabled={busy || party.locked}>
              Create invite code
            </button>
            <button type="button" className="story-button" onClick={() => onLock(!party.locked)} disabled={busy} aria-pressed={party.locked}>
              {party.locked ? 'Unlock party' : 'Lock party'}
            </button>
          </div>
          {party.locked && <p className="party-hint">Locked: nobody new can join.</p>}
          {working.length > 0 && (
            <ul className="party-invites" aria-label="Working invites">
              {working.map((i) => {
                const name = i.maskedCode ? `ending ${i.maskedCode.slice(-4)}` : `made ${new Date(i.createdAt).toLocaleString()}`;
                return (
                  <li key={i.id}>
                    <span>
                      <span className="party-invite-code">{i.maskedCode ?? 'Invite'}</span> (until {new Date(i.expiresAt).toLocaleString()})
                    </span>
                    <button type="button" className="edit-link" onClick={() => onRevoke(i.id)} disabled={busy} aria-label={`Revoke invite ${name}`}>
                      Revoke
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {party.mode === 'live' && (
            <button type="button" className="story-button" onClick={onCloseRound} disabled={busy || party.roundState !== 'collecting' || !anyActed}>
              Close the round now
            </button>
          )}
          {settings}
          <button type="button" className="story-button story-button-ghost party-danger" onClick={onEnd} disabled={busy}>
            End party
          </button>
        </>
      )}
    </section>
  );
}

/** A new invite code, shown once (only its hash is kept), with its link to copy. */
export function InviteDialog({ invite, onRevoke, onClose }: { invite: CreatedInvite; onRevoke: () => void; onClose: () => void }) {
  const ids = useId();
  const link = inviteLink(invite.code);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast.success(MESSAGES.partyLinkCopied);
    } catch {
      toast.error(MESSAGES.partyCopyFailed);
    }
  };
  return (
    <Modal title="Invite code" onClose={onClose} className="party-dialog" describedBy={`${ids}-once`}>
      <p id={`${ids}-once`} className="party-hint">
        Shown only now: send it to your friends. It works until {new Date(invite.expiresAt).toLocaleString()}.
      </p>
      <p className="party-code" data-testid="invite-code">
        {invite.code}
      </p>
      <div className="field">
        <label htmlFor={`${ids}-link`}>Invite link</label>
        <input id={`${ids}-link`} type="text" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      </div>
      <div className="modal-actions">
        <button type="button" className="btn btn-ghost" onClick={onRevoke} disabled={invite.revoked}>
          {invite.revoked ? 'Revoked' : 'Revoke'}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void copy()} data-autofocus>
          Copy link
        </button>
      </div>
    </Modal>
  );
}

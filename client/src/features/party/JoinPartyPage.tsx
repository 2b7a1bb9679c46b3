import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useJoinPartyPage_charactersQuery, useJoinPartyPage_joinMutation, useJoinPartyPage_previewQuery } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { partyError } from './party-errors';
import './party.css';

/** The code in what was pasted: a bare code, or an invite link (its ?code=). */
export function codeFrom(pasted: string): string {
  const t = pasted.trim();
  const m = /[?&]code=([^&#\s]+)/.exec(t);
  return (m ? decodeURIComponent(m[1]) : t).trim().toUpperCase();
}

/** Why a code no longer works (null: it does). */
function refusal(p: { expired: boolean; revoked: boolean; ended: boolean; locked: boolean; full: boolean; maxMembers: number }): string | null {
  if (p.ended) return 'This party has ended.';
  if (p.revoked) return 'This invite was revoked by the host.';
  if (p.expired) return 'This invite has expired. Ask the host for a new one.';
  if (p.locked) return 'The host has locked this party: nobody new can join.';
  if (p.full) return `This party is full (${p.maxMembers} players).`;
  return null;
}

/**
 * Joining a party (/party/join?code=…, or a pasted code or link): what the code leads to, then one of
 * the player's saved characters in the party's world, then the party.
 */
export default function JoinPartyPage() {
  const ids = useId();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const code = codeFrom(params.get('code') ?? '');
  const [field, setField] = useState(code);
  const [characterId, setCharacterId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const preview = useJoinPartyPage_previewQuery({ variables: { code }, skip: !code, fetchPolicy: 'network-only' });
  const characters = useJoinPartyPage_charactersQuery({ fetchPolicy: 'cache-and-network' });
  const [join, joinState] = useJoinPartyPage_joinMutation();
  const p = preview.data?.partyInvitePreview;
  const mine = p ? (characters.data?.myCharacters ?? []).filter((c) => c.worldId === p.worldId) : [];
  const refused = p ? refusal(p) : null;

  const lookUp = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setCharacterId(null);
    const next = codeFrom(field);
    setField(next);
    setParams(next ? { code: next } : {}, { replace: true });
  };

  const onJoin = async (e: FormEvent) => {
    e.preventDefault();
    if (!characterId) return;
    setError(null);
    try {
      const { data } = await join({ variables: { code, characterId } });
      if (data) void navigate(`/party/${data.joinParty.id}`);
    } catch (err) {
      setError(partyError(err, MESSAGES.partyJoinFailed));
    }
  };

  return (
    <main className="page party-join" aria-labelledby={`${ids}-title`}>
      <h1 id={`${ids}-title`} className="page-title">
        Join a party
      </h1>
      <form className="party-code-form" onSubmit={lookUp}>
        <div className="field">
          <label htmlFor={`${ids}-code`}>Invite code or link</label>
          <input
            id={`${ids}-code`}
            type="text"
            value={field}
            autoComplete="off"
            spellCheck={false}
            placeholder="XXXXX-XXXXX"
            onChange={(e) => setField(e.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-outline" disabled={!field.trim()}>
          Look up
        </button>
      </form>

      {code && preview.loading && <p role="status">Looking up the invite…</p>}
      {code && preview.error && (
        <p className="form-error" role="alert">
          {partyError(preview.error, MESSAGES.partyPreviewFailed)}
        </p>
      )}
      {code && preview.data && !p && (
        <p className="form-error" role="alert">
          {MESSAGES.partyCodeUnknown}
        </p>
      )}

      {p && (
        <section className="story-panel party-preview" aria-label="The party">
          <h2>
            {p.hostUsername}&apos;s party in {p.worldName ?? 'Unknown World'}
          </h2>
          <p>
            {p.mode === 'live' ? 'Live rounds' : 'By post'} · {p.memberCount} of {p.maxMembers} players
            {p.chapterCredits > 0 &&
              (p.hostPays ? ' · the host pays for every chapter' : ` · a chapter costs its player ${p.chapterCredits} gem${p.chapterCredits === 1 ? '' : 's'}`)}
          </p>
          {p.memberOfPartyId ? (
            <p>
              You are in this party already. <Link to={`/party/${p.memberOfPartyId}`}>Open the party</Link>
            </p>
          ) : refused ? (
            <p className="form-error" role="alert">
              {refused}
            </p>
          ) : mine.length === 0 ? (
            characters.loading ? (
              <p role="status">Loading your characters…</p>
            ) : (
              <div className="notice">
                <p>You have no saved character in {p.worldName ?? 'this world'} yet. Spawn one there, then come back to this link.</p>
                <Link className="btn btn-outline" to="/worlds">
                  Spawn a Character in Worlds
                </Link>
              </div>
            )
          ) : (
            <form onSubmit={(e) => void onJoin(e)} className="party-form">
              <fieldset className="party-modes">
                <legend>Play as</legend>
                {mine.map((c) => (
                  <label key={c.id} className={`party-mode ${characterId === c.id ? 'is-selected' : ''}`}>
                    <input type="radio" name={`${ids}-character`} value={c.id} checked={characterId === c.id} onChange={() => setCharacterId(c.id)} />
                    <span>
                      <strong>{c.name}</strong>
                    </span>
                  </label>
                ))}
              </fieldset>
              {error && (
                <p className="form-error" role="alert">
                  {error}
                </p>
              )}
              <button type="submit" className="btn btn-primary" disabled={!characterId || joinState.loading} aria-busy={joinState.loading}>
                Join party
              </button>
            </form>
          )}
        </section>
      )}
    </main>
  );
}

import { useId } from 'react';
import { Link } from 'react-router-dom';
import { usePartiesList_myPartiesQuery } from '../../gql/graphql';
import { useAuth } from '../auth/auth-context';
import './party.css';

/** "Your parties" (issue 34): where a player finds their parties again, open ones first, and joins another. */
export function PartiesList() {
  const ids = useId();
  const meId = useAuth().user?.id ?? null;
  const { data, error } = usePartiesList_myPartiesQuery({ fetchPolicy: 'cache-and-network' });
  const parties = data?.myParties ?? [];
  return (
    <section className="parties-list" aria-labelledby={`${ids}-title`}>
      <div className="parties-list-head">
        <h2 id={`${ids}-title`}>Your parties</h2>
        <Link className="btn btn-outline" to="/party/join">
          Join with a code
        </Link>
      </div>
      {error && !data ? (
        <p className="muted">Your parties could not be loaded.</p>
      ) : parties.length === 0 ? (
        <p className="muted">No parties yet. Start one from a story with “Play with friends”, or join one with a friend&apos;s code.</p>
      ) : (
        <ul>
          {parties.map((p) => {
            const yourTurn = p.status === 'open' && p.mode === 'post' && p.turnUserId === meId;
            return (
              <li key={p.id}>
                <Link to={`/party/${p.id}`} className="parties-list-link">
                  <strong>{p.members.map((m) => `${m.characterName} (${m.userId === meId ? 'you' : m.username})`).join(', ')}</strong>
                  <span className="muted">
                    {' '}
                    · {p.mode === 'live' ? 'Live rounds' : 'By post'}
                    {p.hostUserId === meId ? ' · you host' : ''}
                    {p.status === 'ended' ? ' · ended' : ''}
                  </span>
                  {yourTurn && <span className="party-badge">Your turn</span>}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

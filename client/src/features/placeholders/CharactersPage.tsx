import { Link } from 'react-router-dom';
import { PlaceholderPage } from './PlaceholderPage';

export default function CharactersPage() {
  return (
    <PlaceholderPage title="Characters">
      <p>No characters found</p>
      <Link className="btn btn-primary" to="/worlds">
        Spawn a Character in Worlds
      </Link>
    </PlaceholderPage>
  );
}

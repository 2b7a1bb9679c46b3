import { Link, useParams } from 'react-router-dom';
import { PlaceholderPage } from './PlaceholderPage';

export default function StoryPage() {
  const { id } = useParams();
  return (
    <PlaceholderPage title="Story" lead={id ? `Character ${id}` : undefined}>
      <Link className="btn btn-ghost" to="/profile">
        Close Story
      </Link>
    </PlaceholderPage>
  );
}

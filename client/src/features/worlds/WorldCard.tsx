import type { WorldCardFieldsFragment } from '../../gql/graphql';
import { countLabel } from './community';
import { WorldImage } from './WorldImage';

/** A world card: opens the world popup. */
export function WorldCard({
  world,
  onOpen,
  priority = false,
  signals,
}: {
  world: WorldCardFieldsFragment;
  onOpen: (id: string) => void;
  /** The card is in the first screenful: its image loads eagerly (see WorldImage). */
  priority?: boolean;
  /** Community cards show how much the world is played and liked. */
  signals?: { plays: number; likes: number };
}) {
  return (
    <button type="button" className="world-card" onClick={() => onOpen(world.id)} data-world-id={world.id}>
      <WorldImage src={world.imageUrl} name={world.name} className="world-card-image" priority={priority} />
      <span className="world-card-body">
        <span className="world-card-meta">
          {world.genre && <span className="world-card-genre">{world.genre}</span>}
          {world.isOwn && world.sharedGlobally && <span className="world-card-badge">Shared</span>}
        </span>
        <span className="world-card-name">{world.name}</span>
        {world.author && <span className="world-card-author">by {world.author}</span>}
        <span className="world-card-description">{world.description}</span>
        {signals && (
          <span className="world-card-signals">
            <span>{countLabel(signals.plays, 'play', 'plays')}</span>
            <span aria-hidden="true">·</span>
            <span>{countLabel(signals.likes, 'like', 'likes')}</span>
          </span>
        )}
      </span>
    </button>
  );
}

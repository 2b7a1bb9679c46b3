import type { WorldCardFieldsFragment } from '../../gql/graphql';
import { WorldImage } from './WorldImage';

/** A world card: opens the world popup. */
export function WorldCard({
  world,
  onOpen,
  priority = false,
}: {
  world: WorldCardFieldsFragment;
  onOpen: (id: string) => void;
  /** The card is in the first screenful: its image loads eagerly (see WorldImage). */
  priority?: boolean;
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
        <span className="world-card-description">{world.description}</span>
      </span>
    </button>
  );
}

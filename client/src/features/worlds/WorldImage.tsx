import { useState } from 'react';
import { CARD_IMAGE_SIZES, worldImageSources } from './image-sources';
import './world-image.css';

/** A world's image (same-origin path), or an atmospheric placeholder when there is none. */
export function WorldImage({
  src,
  name,
  className = '',
  priority = false,
  sizes = CARD_IMAGE_SIZES,
}: {
  src: string | null | undefined;
  name: string;
  className?: string;
  /** Above the fold on first paint (a likely LCP element): load at once, with high priority. */
  priority?: boolean;
  /** The rendered width (the `sizes` attribute), so the browser picks the smallest file that is sharp. */
  sizes?: string;
}) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div className={`world-image world-image-placeholder ${className}`} role="img" aria-label={`${name} (no image yet)`}>
        <span aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>
      </div>
    );
  }
  const sources = worldImageSources(src, sizes);
  return (
    <img
      className={`world-image ${className}`}
      sizes={sources.sizes}
      srcSet={sources.srcSet}
      src={sources.src}
      alt={name}
      // 16:10 like the CSS aspect-ratio, so the box is reserved before the image arrives.
      width={640}
      height={400}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : 'auto'}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}

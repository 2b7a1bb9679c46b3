import { useState } from 'react';
import './world-image.css';

/** A world's image (same-origin path), or an atmospheric placeholder when there is none. */
export function WorldImage({ src, name, className = '' }: { src: string | null | undefined; name: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <div className={`world-image world-image-placeholder ${className}`} role="img" aria-label={`${name} (no image yet)`}>
        <span aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>
      </div>
    );
  }
  return (
    <img
      className={`world-image ${className}`}
      src={src}
      alt={name}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}

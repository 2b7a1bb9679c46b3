import { useEffect, useId, useState } from 'react';
import { CloseIcon } from '../icons';

const STORAGE_KEY = 'taleforge.immersiveUI';

function readImmersive(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

/**
 * Settings popup (SPEC §2 Navigation). Saving is local for now; the settings API
 * (fetch-settings / save-settings) arrives with the full client.
 */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const [immersive, setImmersive] = useState(readImmersive);
  const ids = useId();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const save = () => {
    try {
      window.localStorage.setItem(STORAGE_KEY, String(immersive));
    } catch {
      /* storage unavailable: the choice lasts for this page only */
    }
    onClose();
  };

  return (
    <div className="modal-root">
      <div className="modal-overlay" onClick={onClose} aria-hidden="true" />
      <div className="modal settings-modal" role="dialog" aria-modal="true" aria-labelledby={`${ids}-title`}>
        <button type="button" className="nav-icon-button modal-close" aria-label="Close settings" onClick={onClose}>
          <CloseIcon />
        </button>
        <h2 id={`${ids}-title`}>Settings</h2>
        <label className="checkbox-row">
          <input type="checkbox" checked={immersive} onChange={(e) => setImmersive(e.target.checked)} autoFocus />
          Immersive UI (experimental)
        </label>
        <div className="modal-actions">
          <button type="button" className="btn btn-primary" onClick={save}>
            Save
          </button>
        </div>
      </div>
    </div>
  );
}

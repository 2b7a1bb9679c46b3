import { useId, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { SettingsDialog_settingsDocument, useSettingsDialog_saveSettingsMutation, useSettingsDialog_settingsQuery } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { Modal } from '../ui/Modal';

/** Settings popup (SPEC §2 Navigation): 'Immersive UI (experimental)' and Save, stored by the settings API. */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const { data, loading } = useSettingsDialog_settingsQuery({ fetchPolicy: 'cache-and-network' });
  const [choice, setChoice] = useState<boolean | null>(null);
  const [save, { loading: saving }] = useSettingsDialog_saveSettingsMutation({
    update(cache, { data: saved }) {
      if (saved) cache.writeQuery({ query: SettingsDialog_settingsDocument, data: { settings: saved.saveSettings } });
    },
  });
  const ids = useId();
  const immersive = choice ?? data?.settings.immersiveUi ?? false;

  const onSave = async () => {
    try {
      await save({ variables: { input: { immersiveUi: immersive } } });
      onClose();
    } catch {
      toast.error(MESSAGES.settingsSaveFailed);
    }
  };

  return (
    <Modal title="Settings" onClose={onClose} closeLabel="Close settings" className="settings-modal">
      <label className="checkbox-row" htmlFor={`${ids}-immersive`}>
        <input
          id={`${ids}-immersive`}
          type="checkbox"
          checked={immersive}
          aria-busy={loading && !data}
          onChange={(e) => setChoice(e.target.checked)}
          data-autofocus
        />
        Immersive UI (experimental)
      </label>
      <p className="muted settings-hint">Restyles the story screen to match the setting of your story.</p>
      <div className="modal-actions">
        <button type="button" className="btn btn-primary" onClick={onSave} disabled={saving} aria-busy={saving}>
          Save
        </button>
      </div>
    </Modal>
  );
}

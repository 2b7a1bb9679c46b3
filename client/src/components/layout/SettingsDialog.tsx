import { useId, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { SettingsDialog_settingsDocument, useSettingsDialog_saveSettingsMutation, useSettingsDialog_settingsQuery } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { READ_ALOUD_DEFAULTS, ReadAloudSettings, type ReadAloudChoices } from '../../features/story/read-aloud/ReadAloudSettings';
import { Modal } from '../ui/Modal';

/**
 * Settings popup (SPEC §2 Navigation): 'Immersive UI (experimental)', Read-aloud and Save, stored with
 * the account by the settings API (so they follow the player to another device).
 */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const { data, loading } = useSettingsDialog_settingsQuery({ fetchPolicy: 'cache-and-network' });
  const [choice, setChoice] = useState<boolean | null>(null);
  const [aloud, setAloud] = useState<ReadAloudChoices | null>(null);
  const [save, { loading: saving }] = useSettingsDialog_saveSettingsMutation({
    update(cache, { data: saved }) {
      // Every query of `settings` (the story page's, read-aloud's) reads the one merged object.
      const current = cache.readQuery({ query: SettingsDialog_settingsDocument });
      if (saved && current) cache.writeQuery({ query: SettingsDialog_settingsDocument, data: { ...current, settings: saved.saveSettings } });
    },
  });
  const ids = useId();
  const immersive = choice ?? data?.settings.immersiveUi ?? false;
  const saved = data?.settings;
  const readAloud: ReadAloudChoices = aloud ?? {
    readAloudEngine: saved?.readAloudEngine ?? READ_ALOUD_DEFAULTS.readAloudEngine,
    readAloudVoice: saved?.readAloudVoice ?? READ_ALOUD_DEFAULTS.readAloudVoice,
    readAloudServerVoice: saved?.readAloudServerVoice ?? READ_ALOUD_DEFAULTS.readAloudServerVoice,
    readAloudRate: saved?.readAloudRate ?? READ_ALOUD_DEFAULTS.readAloudRate,
    readAloudAuto: saved?.readAloudAuto ?? READ_ALOUD_DEFAULTS.readAloudAuto,
  };

  const onSave = async () => {
    try {
      await save({ variables: { input: { immersiveUi: immersive, ...readAloud } } });
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
      <ReadAloudSettings value={readAloud} info={data?.readAloud ?? null} onChange={setAloud} />
      <div className="modal-actions">
        <button type="button" className="btn btn-primary" onClick={onSave} disabled={saving} aria-busy={saving}>
          Save
        </button>
      </div>
    </Modal>
  );
}

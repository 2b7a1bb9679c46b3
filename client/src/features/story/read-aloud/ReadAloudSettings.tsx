import { useId } from 'react';
import { GemIcon } from '../../../components/icons';
import type { ReadAloudInfoFieldsFragment, ReadAloudSettingsFieldsFragment } from '../../../gql/graphql';
import { browserSpeech, useBrowserVoices } from './speech';
import './read-aloud.css';

export type ReadAloudChoices = Omit<ReadAloudSettingsFieldsFragment, '__typename'>;

export const READ_ALOUD_DEFAULTS: ReadAloudChoices = {
  readAloudEngine: 'browser',
  readAloudVoice: '',
  readAloudServerVoice: '',
  readAloudRate: 1,
  readAloudAuto: false,
};

/**
 * Settings → Read-aloud: which voice reads chapters (the browser's own, free and offline, or the
 * server's when it offers one: its price is said here, where it is chosen), how fast, and whether new
 * chapters are read as they arrive. Controlled: the dialog saves it with the other settings.
 */
export function ReadAloudSettings({
  value,
  info,
  onChange,
}: {
  value: ReadAloudChoices;
  info: ReadAloudInfoFieldsFragment | null;
  onChange: (next: ReadAloudChoices) => void;
}) {
  const ids = useId();
  const voices = useBrowserVoices();
  const canSpeak = browserSpeech() !== null;
  const serverOffered = info?.serverVoiceAvailable ?? false;
  const engine = value.readAloudEngine === 'server' && serverOffered ? 'server' : 'browser';
  const set = (patch: Partial<ReadAloudChoices>) => onChange({ ...value, ...patch });
  const cost = info?.creditsPerChapter ?? 1;

  return (
    <fieldset className="settings-section read-aloud-settings">
      <legend>Read-aloud</legend>
      {serverOffered ? (
        <div className="field">
          <label htmlFor={`${ids}-engine`}>Voice engine</label>
          <select id={`${ids}-engine`} value={engine} onChange={(e) => set({ readAloudEngine: e.target.value })}>
            <option value="browser">Browser voice</option>
            <option value="server">Server voice</option>
          </select>
          <p className="muted settings-hint">
            {engine === 'server' ? (
              <>
                Server voice: <GemIcon className="gem" /> {cost} credit{cost === 1 ? '' : 's'} per chapter the first time it is read in a voice; free when read
                again; refunded if it fails.
              </>
            ) : (
              'Browser voice: free, and works offline.'
            )}
          </p>
        </div>
      ) : (
        <p className="muted settings-hint">
          {canSpeak ? 'Chapters are read by your browser’s own voice: free, and works offline.' : 'Your browser cannot read aloud.'}
        </p>
      )}

      {engine === 'server' ? (
        <div className="field">
          <label htmlFor={`${ids}-voice`}>Voice</label>
          <select
            id={`${ids}-voice`}
            value={value.readAloudServerVoice || info?.voices[0] || ''}
            onChange={(e) => set({ readAloudServerVoice: e.target.value })}
          >
            {(info?.voices ?? []).map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </div>
      ) : (
        canSpeak && (
          <div className="field">
            <label htmlFor={`${ids}-voice`}>Voice</label>
            <select id={`${ids}-voice`} value={value.readAloudVoice} onChange={(e) => set({ readAloudVoice: e.target.value })}>
              <option value="">Browser default</option>
              {/* A voice saved on another device, missing here: kept, and this device's default reads. */}
              {value.readAloudVoice && !voices.some((v) => v.name === value.readAloudVoice) && (
                <option value={value.readAloudVoice}>{value.readAloudVoice} (not on this device)</option>
              )}
              {voices.map((v) => (
                <option key={v.voiceURI} value={v.name}>
                  {v.name} ({v.lang})
                </option>
              ))}
            </select>
          </div>
        )
      )}

      {(canSpeak || engine === 'server') && (
        <>
          <div className="field">
            <div className="read-aloud-rate">
              <label htmlFor={`${ids}-rate`}>Speed</label>
              <output htmlFor={`${ids}-rate`}>{value.readAloudRate.toFixed(1)}×</output>
            </div>
            <input
              id={`${ids}-rate`}
              type="range"
              min={0.5}
              max={2}
              step={0.1}
              value={value.readAloudRate}
              aria-valuetext={`${value.readAloudRate.toFixed(1)} times normal speed`}
              onChange={(e) => set({ readAloudRate: Number(e.target.value) })}
            />
          </div>
          <label className="checkbox-row" htmlFor={`${ids}-auto`}>
            <input id={`${ids}-auto`} type="checkbox" checked={value.readAloudAuto} onChange={(e) => set({ readAloudAuto: e.target.checked })} />
            Read new chapters aloud as they arrive
          </label>
        </>
      )}
    </fieldset>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { errorMessage } from '../../apollo/graphql-errors';
import { PageLoader } from '../../components/layout/PageLoader';
import {
  CharacterProfileTab_characterProfileDocument,
  useCharacterProfileTab_characterProfileQuery,
  useCharacterProfileTab_saveCharacterProfileMutation,
} from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';

const FIELDS = [
  { key: 'skills', label: 'Skills', hint: 'What are you good at?' },
  { key: 'personalityTraits', label: 'Personality Traits', hint: 'How would your friends describe you?' },
  { key: 'freeTime', label: 'Free Time', hint: 'What do you do when no one needs you?' },
] as const;

type Key = (typeof FIELDS)[number]['key'];
type Draft = Record<Key, string>;

/** SPEC §5: all three fields are required to save. */
function profileComplete(draft: Draft): boolean {
  return FIELDS.every((f) => draft[f.key].trim() !== '');
}

/** Character Profile tab (SPEC §2, §4): view → edit → saving → view. */
export function CharacterProfileTab() {
  const ids = useId();
  const { data, loading, error, refetch } = useCharacterProfileTab_characterProfileQuery({ fetchPolicy: 'cache-and-network' });
  const [mode, setMode] = useState<'view' | 'edit'>('view');
  const [draft, setDraft] = useState<Draft>({ skills: '', personalityTraits: '', freeTime: '' });
  const [formError, setFormError] = useState<string | null>(null);
  const [save, { loading: saving }] = useCharacterProfileTab_saveCharacterProfileMutation({
    update(cache, { data: saved }) {
      if (saved) cache.writeQuery({ query: CharacterProfileTab_characterProfileDocument, data: { characterProfile: saved.saveCharacterProfile } });
    },
  });
  const profile = data?.characterProfile;

  if (loading && !data) return <PageLoader label="Loading your character profile…" />;
  if (error && !data) {
    return (
      <div className="notice" role="alert">
        <p>{MESSAGES.profileLoadFailed}</p>
        <button type="button" className="btn btn-ghost" onClick={() => void refetch()}>
          Try Again
        </button>
      </div>
    );
  }

  const startEdit = () => {
    setDraft({ skills: profile?.skills ?? '', personalityTraits: profile?.personalityTraits ?? '', freeTime: profile?.freeTime ?? '' });
    setFormError(null);
    setMode('edit');
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!profileComplete(draft)) {
      setFormError(MESSAGES.profileFieldsRequired);
      return;
    }
    setFormError(null);
    try {
      await save({
        variables: {
          input: {
            skills: draft.skills.trim(),
            personalityTraits: draft.personalityTraits.trim(),
            freeTime: draft.freeTime.trim(),
            pastTimes: profile?.pastTimes ?? '',
          },
        },
      });
      toast.success(MESSAGES.profileSaved);
      setMode('view');
    } catch (err) {
      toast.error(errorMessage(err) || MESSAGES.profileSaveFailed);
    }
  };

  if (mode === 'view') {
    const empty = !profile || FIELDS.every((f) => !profile[f.key].trim());
    return (
      <div className="character-profile">
        <p className="muted">
          Your character profile lets you spawn yourself into any world with <strong>Spawn from Profile</strong>.
        </p>
        {empty ? (
          <p className="profile-empty">You have not filled in your character profile yet.</p>
        ) : (
          <dl className="account-details">
            {FIELDS.map((f) => (
              <div key={f.key}>
                <dt>{f.label}</dt>
                <dd className="pre-line">{profile?.[f.key] || '—'}</dd>
              </div>
            ))}
          </dl>
        )}
        <button type="button" className="btn btn-primary" onClick={startEdit}>
          {empty ? 'Fill In Profile' : 'Edit Profile'}
        </button>
      </div>
    );
  }

  return (
    <form className="character-profile-form" onSubmit={onSubmit} noValidate aria-busy={saving}>
      {FIELDS.map((f, i) => (
        <div key={f.key} className="field">
          <label htmlFor={`${ids}-${f.key}`}>
            {f.label} <span aria-hidden="true">*</span>
          </label>
          <textarea
            id={`${ids}-${f.key}`}
            rows={3}
            required
            aria-required="true"
            placeholder={f.hint}
            value={draft[f.key]}
            onChange={(e) => setDraft((d) => ({ ...d, [f.key]: e.target.value }))}
            autoFocus={i === 0}
            disabled={saving}
          />
        </div>
      ))}
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      <div className="account-actions">
        <button type="submit" className="btn btn-primary" disabled={saving} aria-busy={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setMode('view')} disabled={saving}>
          Cancel
        </button>
      </div>
    </form>
  );
}

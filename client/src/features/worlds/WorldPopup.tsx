import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { errorCode, errorMessage } from '../../apollo/graphql-errors';
import { GemIcon } from '../../components/icons';
import { Modal } from '../../components/ui/Modal';
import {
  useWorldPopup_characterProfileLazyQuery,
  useWorldPopup_generateCharacterMutation,
  useWorldPopup_setWorldSharedMutation,
  useWorldPopup_spawnCharacterFromProfileMutation,
  type GeneratedCharacterFieldsFragment,
  type WorldCardFieldsFragment,
} from '../../gql/graphql';
import { ACTIONABLE_TOAST_MS, CHARACTER_GENERATION_COST } from '../../lib/constants';
import { MESSAGES } from '../../lib/messages';
import { useAuth } from '../auth/auth-context';
import { POPUP_IMAGE_SIZES } from './image-sources';
import { WorldCommunityActions, WorldSignals } from './WorldCommunity';
import { WorldImage } from './WorldImage';

export interface WorldPopupProps {
  world: WorldCardFieldsFragment;
  onClose: () => void;
  /** `answers`: the player's answers to the world's questions (kept with the story as threads; none from a profile). */
  onGenerated: (character: GeneratedCharacterFieldsFragment, answers: string[]) => void;
  /** Sharing failed: the optimistic toggle is undone and the list must be refetched (SPEC §4). */
  onShareFailed: () => void;
}

/** True when at least one of skills, personality traits or free time is filled in (SPEC §5). */
export function profileIsUsable(p: { skills: string; personalityTraits: string; freeTime: string } | null | undefined): boolean {
  return !!p && [p.skills, p.personalityTraits, p.freeTime].some((v) => v.trim() !== '');
}

/**
 * The world popup (SPEC §2): collapsed (Spawn, Share/Unshare) or expanded (the spawn form, made from
 * the answers to the world's questions or from the character profile, with one paid button: Generate
 * Character or Spawn from Profile, priced in gems). The overlay closes it only while collapsed, so a
 * half-written form is never lost.
 */
export function WorldPopup({ world, onClose, onGenerated, onShareFailed }: WorldPopupProps) {
  const { status } = useAuth();
  const navigate = useNavigate();
  const [expanded, setExpanded] = useState(false);
  const [username, setUsername] = useState('');
  const [answers, setAnswers] = useState<string[]>(() => world.questions.map(() => ''));
  const [formError, setFormError] = useState<string | null>(null);
  const [source, setSource] = useState<'answers' | 'profile'>('answers');
  const ids = useId();
  const signedIn = status === 'authenticated';

  const [generate, { loading: generating }] = useWorldPopup_generateCharacterMutation();
  const [spawnFromProfile, { loading: spawning }] = useWorldPopup_spawnCharacterFromProfileMutation();
  const [loadProfile, { loading: loadingProfile }] = useWorldPopup_characterProfileLazyQuery({ fetchPolicy: 'network-only' });
  const [setShared] = useWorldPopup_setWorldSharedMutation();
  const busy = generating || spawning || loadingProfile;

  const toggleShare = async () => {
    const shared = !world.sharedGlobally;
    try {
      await setShared({
        variables: { id: world.id, shared },
        optimisticResponse: { setWorldShared: { __typename: 'World', id: world.id, sharedGlobally: shared } } as never,
      });
    } catch (error) {
      toast.error(errorCode(error) === 'CONTENT_REJECTED' ? MESSAGES.shareRejected : MESSAGES.shareFailed);
      onShareFailed();
    }
  };

  const onGenerate = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!username.trim()) {
      setFormError(MESSAGES.spawnUsernameRequired);
      return;
    }
    if (!world.description.trim()) {
      setFormError(MESSAGES.noWorldDescription);
      return;
    }
    try {
      const { data } = await generate({
        variables: {
          input: {
            worldDescription: world.description,
            questions: world.questions,
            answers: answers.map((a) => a.trim()),
            username: username.trim(),
            // Kept as a draft in this world until saved or discarded: paid-for work is never lost.
            worldId: world.id,
          },
        },
      });
      if (data)
        onGenerated(
          data.generateCharacter,
          answers.map((a) => a.trim()),
        );
    } catch (error) {
      if (errorCode(error) === 'INSUFFICIENT_CREDITS' || errorCode(error) === 'FORBIDDEN') {
        setFormError(MESSAGES.insufficientCreditsForCharacter);
      } else {
        // SPEC §8: other character-generation errors are only logged.
        console.error('Character generation failed', error);
      }
    }
  };

  const onSpawnFromProfile = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!world.description.trim()) {
      toast.error(MESSAGES.noWorldDescription);
      return;
    }
    const profile = await loadProfile().catch(() => null);
    if (!profileIsUsable(profile?.data?.characterProfile)) {
      toast.info(MESSAGES.completeProfileFirst, { onClick: () => void navigate('/profile?tab=character'), autoClose: ACTIONABLE_TOAST_MS });
      return;
    }
    try {
      const { data } = await spawnFromProfile({
        variables: { input: { worldDescription: world.description, worldId: world.id, username: username.trim() || null } },
      });
      if (data) onGenerated(data.spawnCharacterFromProfile, []);
    } catch (error) {
      toast.error(errorMessage(error) || MESSAGES.spawnFromProfileFailed);
    }
  };

  return (
    <Modal
      title={world.name}
      onClose={onClose}
      closeOnOverlay={!expanded}
      className={`world-popup ${expanded ? 'is-expanded' : ''}`}
      header={<WorldImage src={world.imageUrl} name={world.name} className="world-popup-image" sizes={POPUP_IMAGE_SIZES} priority />}
    >
      <div className="world-popup-body">
        {world.author && <p className="world-popup-author">by {world.author}</p>}
        <p className="world-popup-description">{world.description}</p>
        <WorldSignals world={world} />
        {!signedIn ? (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => navigate('/auth', { state: { from: { pathname: '/worlds', search: `?world=${world.id}`, hash: '' } } })}
          >
            Login to Spawn
          </button>
        ) : !expanded ? (
          <div className="world-popup-actions">
            {/* One way in: the spawn form, whose single paid button says its price (the issue: two paid spawn buttons). */}
            <button type="button" className="btn btn-primary" onClick={() => setExpanded(true)} data-autofocus>
              Spawn
            </button>
            {world.isOwn && (
              <button type="button" className="btn btn-outline" onClick={toggleShare} aria-pressed={world.sharedGlobally}>
                {world.sharedGlobally ? 'Unshare' : 'Share'}
              </button>
            )}
          </div>
        ) : (
          <form className="world-spawn-form" onSubmit={source === 'answers' ? onGenerate : onSpawnFromProfile} noValidate>
            <fieldset className="spawn-source">
              <legend>Make your character from</legend>
              <label>
                <input type="radio" name={`${ids}-source`} checked={source === 'answers'} onChange={() => setSource('answers')} />
                Your answers to this world&apos;s questions
              </label>
              <label>
                <input type="radio" name={`${ids}-source`} checked={source === 'profile'} onChange={() => setSource('profile')} />
                Your character profile
              </label>
            </fieldset>
            <div className="field">
              {/* The character's name (SPEC: "a username textarea"): not the player's account username. */}
              <label htmlFor={`${ids}-username`}>Character name</label>
              <textarea
                id={`${ids}-username`}
                rows={1}
                value={username}
                onChange={(e) => setUsername(e.target.value)}
                placeholder={source === 'profile' ? 'Leave blank to use your username' : "Your character's name"}
                data-autofocus
              />
            </div>
            {source === 'answers' &&
              world.questions.map((q, i) => (
                <div key={i} className="field">
                  <label htmlFor={`${ids}-q${i}`}>{q}</label>
                  <textarea
                    id={`${ids}-q${i}`}
                    rows={2}
                    value={answers[i] ?? ''}
                    onChange={(e) => setAnswers((all) => all.map((a, j) => (j === i ? e.target.value : a)))}
                  />
                </div>
              ))}
            <p className="muted cost-note">
              <GemIcon className="gem" /> Generating a character costs {CHARACTER_GENERATION_COST} credits. Until you save or discard it, it is kept as a draft
              on your Characters page.
            </p>
            {formError && (
              <p className="form-error" role="alert">
                {formError}
              </p>
            )}
            {(generating || spawning) && (
              <p className="popup-status" role="status">
                Generating your character…
              </p>
            )}
            <div className="world-popup-actions">
              <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
                <GemIcon /> {source === 'answers' ? 'Generate Character' : 'Spawn from Profile'} ({CHARACTER_GENERATION_COST} gems)
              </button>
              <button type="button" className="btn btn-ghost" onClick={() => setExpanded(false)} disabled={busy}>
                Back
              </button>
            </div>
          </form>
        )}
        {!expanded && <WorldCommunityActions world={world} signedIn={signedIn} />}
      </div>
    </Modal>
  );
}

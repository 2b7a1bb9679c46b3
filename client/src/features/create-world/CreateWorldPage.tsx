import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { errorCode } from '../../apollo/graphql-errors';
import { PageLoader } from '../../components/layout/PageLoader';
import { GemIcon } from '../../components/icons';
import {
  useCreateWorldPage_generateWorldDescriptionMutation,
  useCreateWorldPage_generateWorldImageMutation,
  useCreateWorldPage_generateWorldQuestionsMutation,
  useCreateWorldPage_submitWorldMutation,
  useSubscriptionStatus_subscriptionStatusQuery,
} from '../../gql/graphql';
import { WORLD_CREATION_COST, WORLD_DESCRIPTION_MAX } from '../../lib/constants';
import { MESSAGES } from '../../lib/messages';
import { requestSubscriptionRefresh } from '../subscription/subscription-status';
import { acceptGeneratedDescription, cleanQuestions, validateWorld } from './world-form';
import './create-world.css';

const MAX_QUESTIONS = 8;

export default function CreateWorldPage() {
  // The same status the nav shows (and keeps live), fetched fresh: world creation needs 3 credits.
  const credits = useSubscriptionStatus_subscriptionStatusQuery({ fetchPolicy: 'network-only' });

  if (credits.loading && !credits.data) return <PageLoader label="Checking your credits…" />;
  if (credits.error && !credits.data) {
    return (
      <main className="page create-world-page">
        <h1 className="page-title">Create a World</h1>
        <div className="notice" role="alert">
          <p>{MESSAGES.creditsCheckFailed}</p>
          <button type="button" className="btn btn-ghost" onClick={() => void credits.refetch()}>
            Try Again
          </button>
        </div>
      </main>
    );
  }
  if ((credits.data?.subscriptionStatus.credits ?? 0) < WORLD_CREATION_COST) return <InsufficientCredits />;
  return <CreateWorldWizard onOutOfCredits={() => void credits.refetch()} />;
}

export function InsufficientCredits() {
  const navigate = useNavigate();
  return (
    <main className="page create-world-page">
      <h1 className="page-title">Create a World</h1>
      <div className="notice notice-credits" role="alert">
        <GemIcon className="notice-gem" />
        <p>{MESSAGES.notEnoughCreditsForWorld}</p>
        <button type="button" className="btn btn-primary" onClick={() => navigate('/subscription')}>
          Upgrade Subscription
        </button>
      </div>
    </main>
  );
}

/** The create-world wizard (SPEC §2, §4, §5): description first, then the details behind an arrow. */
export function CreateWorldWizard({ onOutOfCredits }: { onOutOfCredits: () => void }) {
  const navigate = useNavigate();
  const ids = useId();
  const [description, setDescription] = useState('');
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [name, setName] = useState('');
  const [questions, setQuestions] = useState<string[]>(['']);
  const [image, setImage] = useState<string | null>(null);
  const [proposal, setProposal] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const descriptionInput = useRef<HTMLTextAreaElement>(null);

  const [genDescription, descState] = useCreateWorldPage_generateWorldDescriptionMutation();
  const [genImage, imageState] = useCreateWorldPage_generateWorldImageMutation();
  const [genQuestions, questionsState] = useCreateWorldPage_generateWorldQuestionsMutation();
  const [submitWorld, submitState] = useCreateWorldPage_submitWorldMutation({ refetchQueries: ['WorldsPage_myWorlds'] });

  const tooLong = description.length > WORLD_DESCRIPTION_MAX;
  const anyBusy = descState.loading || imageState.loading || questionsState.loading || submitState.loading;

  useEffect(() => {
    if (detailsOpen) nameInput.current?.focus();
  }, [detailsOpen]);

  const say = (message: string | null, kind: 'error' | 'notice' = 'error') => {
    setError(kind === 'error' ? message : null);
    setNotice(kind === 'notice' ? message : null);
  };

  const onGenerateDescription = async () => {
    say(null);
    try {
      const { data } = await genDescription({ variables: { worldDescription: description, maxLength: WORLD_DESCRIPTION_MAX } });
      if (data) setProposal(data.generateWorldDescription);
    } catch {
      say(MESSAGES.generateDescriptionFailed);
    }
  };

  const onAccept = () => {
    if (proposal === null) return;
    const { description: accepted, warning } = acceptGeneratedDescription(proposal);
    setDescription(accepted);
    setProposal(null);
    say(warning);
    descriptionInput.current?.focus();
  };

  const onReveal = () => {
    if (!description.trim()) return say(MESSAGES.worldDescriptionRequired);
    if (tooLong) return say(MESSAGES.worldDescriptionTooLong);
    say(null);
    setDetailsOpen(true);
  };

  const onGenerateImage = async () => {
    if (!description.trim()) return say(MESSAGES.worldDescriptionFirst);
    say(null);
    try {
      const { data } = await genImage({ variables: { worldDescription: description } });
      if (data) setImage(data.generateWorldImage);
    } catch {
      say(MESSAGES.generateImageFailed);
    }
  };

  const onPickImage = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => typeof reader.result === 'string' && setImage(reader.result);
    reader.readAsDataURL(file);
  };

  const onGenerateQuestions = async () => {
    if (!description.trim()) return say(MESSAGES.worldDescriptionFirst);
    say(null);
    try {
      const { data } = await genQuestions({ variables: { worldDescription: description } });
      const generated = cleanQuestions(data?.generateWorldQuestions ?? []);
      if (generated.length > 0) setQuestions(generated.slice(0, MAX_QUESTIONS));
    } catch {
      say(MESSAGES.generateQuestionsFailed);
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = validateWorld({ name, description, questions });
    if (problem) {
      if (problem !== MESSAGES.worldNameRequired && problem !== MESSAGES.worldQuestionRequired) descriptionInput.current?.focus();
      return say(problem);
    }
    say(null);
    try {
      await submitWorld({
        variables: {
          input: { name: name.trim(), description: description.trim(), questions: cleanQuestions(questions), image: image ?? undefined },
        },
      });
      requestSubscriptionRefresh();
      void navigate('/worlds');
    } catch (err) {
      if (errorCode(err) === 'INSUFFICIENT_CREDITS') onOutOfCredits();
      else say(MESSAGES.createWorldFailed);
    }
  };

  return (
    <main className="page create-world-page">
      <h1 className="page-title">Create a World</h1>
      <p className="page-lead">Describe your universe — a sentence or a page — and let Taleforge help you shape it.</p>

      <form className="wizard" onSubmit={onSubmit} noValidate aria-describedby={error ? `${ids}-error` : undefined}>
        <section className="wizard-step" aria-labelledby={`${ids}-step1`}>
          <h2 id={`${ids}-step1`} className="wizard-step-title">
            <span className="wizard-step-number" aria-hidden="true">
              1
            </span>{' '}
            Describe your world
          </h2>
          <div className="field">
            <label htmlFor={`${ids}-description`}>World description</label>
            <textarea
              ref={descriptionInput}
              id={`${ids}-description`}
              rows={8}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              placeholder="A drowned empire where lighthouse keepers are the last nobility…"
              aria-invalid={tooLong}
              aria-describedby={`${ids}-count`}
            />
            <p id={`${ids}-count`} className={`char-count ${tooLong ? 'is-over' : ''}`}>
              {description.length} / {WORLD_DESCRIPTION_MAX}
            </p>
          </div>

          {proposal !== null && (
            <div className="proposal" role="region" aria-label="Generated description">
              <h3>Generated description</h3>
              <p className="proposal-text">{proposal}</p>
              <div className="proposal-actions">
                <button type="button" className="btn btn-primary" onClick={onAccept}>
                  Accept
                </button>
                <button type="button" className="btn btn-ghost" onClick={() => setProposal(null)}>
                  Cancel
                </button>
              </div>
            </div>
          )}

          <div className="wizard-row">
            <button type="button" className="btn btn-ghost" onClick={onGenerateDescription} disabled={anyBusy} aria-busy={descState.loading}>
              {descState.loading ? 'Generating…' : description.trim() ? 'Improve with AI' : 'Generate Description'}
            </button>
            {!detailsOpen && (
              <button type="button" className="btn btn-primary wizard-arrow" onClick={onReveal} aria-label="Continue to details" aria-expanded={false}>
                <span aria-hidden="true">→</span>
              </button>
            )}
          </div>
        </section>

        {detailsOpen && (
          <section className="wizard-step" aria-labelledby={`${ids}-step2`}>
            <h2 id={`${ids}-step2`} className="wizard-step-title">
              <span className="wizard-step-number" aria-hidden="true">
                2
              </span>{' '}
              Details
            </h2>
            <div className="field">
              <label htmlFor={`${ids}-name`}>World name</label>
              <input ref={nameInput} id={`${ids}-name`} type="text" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
            </div>

            <fieldset className="wizard-fieldset">
              <legend>Questions for new characters</legend>
              {questions.map((q, i) => (
                <div key={i} className="question-row">
                  <label htmlFor={`${ids}-q${i}`} className="visually-hidden">
                    Question {i + 1}
                  </label>
                  <input
                    id={`${ids}-q${i}`}
                    type="text"
                    value={q}
                    placeholder={i === 0 ? 'e.g. Where did your character grow up?' : `Question ${i + 1}`}
                    onChange={(e) => setQuestions((all) => all.map((x, j) => (j === i ? e.target.value : x)))}
                  />
                  {questions.length > 1 && (
                    <button
                      type="button"
                      className="nav-icon-button"
                      aria-label={`Remove question ${i + 1}`}
                      onClick={() => setQuestions((all) => all.filter((_, j) => j !== i))}
                    >
                      ×
                    </button>
                  )}
                </div>
              ))}
              <div className="wizard-row">
                {questions.length < MAX_QUESTIONS && (
                  <button type="button" className="btn btn-ghost" onClick={() => setQuestions((all) => [...all, ''])}>
                    Add Question
                  </button>
                )}
                <button type="button" className="btn btn-ghost" onClick={onGenerateQuestions} disabled={anyBusy} aria-busy={questionsState.loading}>
                  {questionsState.loading ? 'Generating…' : 'Generate Questions'}
                </button>
              </div>
            </fieldset>

            <fieldset className="wizard-fieldset">
              <legend>World image</legend>
              {image ? (
                <img className="wizard-image" src={image} alt={`Generated artwork for ${name || 'your world'}`} />
              ) : (
                <div className="wizard-image wizard-image-empty" role="img" aria-label="No image yet">
                  <span aria-hidden="true">✦</span>
                </div>
              )}
              <div className="wizard-row">
                <button type="button" className="btn btn-ghost" onClick={onGenerateImage} disabled={anyBusy} aria-busy={imageState.loading}>
                  {imageState.loading ? 'Painting…' : image ? 'Regenerate Image' : 'Generate Image'}
                </button>
                <label className="btn btn-ghost file-button">
                  Upload Image
                  <input type="file" accept="image/jpeg,image/png,image/webp" onChange={onPickImage} className="visually-hidden" />
                </label>
              </div>
            </fieldset>
          </section>
        )}

        {error && (
          <p id={`${ids}-error`} className="form-error" role="alert">
            {error}
          </p>
        )}
        {notice && (
          <p className="muted" role="status">
            {notice}
          </p>
        )}

        {detailsOpen && (
          <div className="wizard-submit">
            <Link to="/worlds" className="btn btn-ghost">
              Cancel
            </Link>
            <button type="submit" className="btn btn-primary btn-lg" disabled={anyBusy} aria-busy={submitState.loading}>
              <GemIcon /> Create World ({WORLD_CREATION_COST} gems)
            </button>
          </div>
        )}
      </form>
    </main>
  );
}

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { useSupportPage_submitSupportMessageMutation } from '../../gql/graphql';
import { SUPPORT_SUBMITTED_MS, SUPPORT_TYPES, type SupportType } from '../../lib/constants';
import { MESSAGES } from '../../lib/messages';
import './support.css';

const TYPE_LABELS: Record<SupportType, { label: string; hint: string }> = {
  contact: { label: 'Contact', hint: 'A question or a hello' },
  feedback: { label: 'Feedback', hint: 'Ideas and opinions' },
  bug: { label: 'Bug', hint: 'Something is broken' },
};

function typeFrom(value: string | null): SupportType {
  return (SUPPORT_TYPES as readonly string[]).includes(value ?? '') ? (value as SupportType) : 'contact';
}

/** Support (SPEC §2, §4): idle → submitting → submitted ('Submitted!' for 3 s) → reset. */
export default function SupportPage() {
  const [params] = useSearchParams();
  const ids = useId();
  const [type, setType] = useState<SupportType>(() => typeFrom(params.get('type')));
  const [message, setMessage] = useState('');
  const [phase, setPhase] = useState<'idle' | 'submitting' | 'submitted'>('idle');
  const [formError, setFormError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [submit] = useSupportPage_submitSupportMessageMutation();

  // ?type= chosen again (a footer link while on this page) selects that type: adjusted while rendering.
  const [typeParam, setTypeParam] = useState(params.get('type'));
  if (typeParam !== params.get('type')) {
    setTypeParam(params.get('type'));
    setType(typeFrom(params.get('type')));
  }
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (phase !== 'idle') return;
    if (!message.trim()) {
      setFormError(MESSAGES.supportMessageRequired);
      return;
    }
    setFormError(null);
    setPhase('submitting');
    try {
      await submit({ variables: { type, message: message.trim() } });
      toast.success(MESSAGES.supportSuccess(type));
      setPhase('submitted');
      timer.current = setTimeout(() => {
        setPhase('idle');
        setMessage('');
        setType(typeFrom(params.get('type')));
      }, SUPPORT_SUBMITTED_MS);
    } catch {
      toast.error(MESSAGES.supportFailed);
      setPhase('idle');
    }
  };

  return (
    <main className="page support-page">
      <h1 className="page-title">Support</h1>
      <p className="page-lead">Contact us, share feedback or report a bug. A human reads every message.</p>
      <form className="support-form" onSubmit={onSubmit} noValidate>
        <fieldset className="support-types">
          <legend>What is it about?</legend>
          {SUPPORT_TYPES.map((t) => (
            <label key={t} className={`support-type ${type === t ? 'is-selected' : ''}`}>
              <input type="radio" name="support-type" value={t} checked={type === t} onChange={() => setType(t)} disabled={phase !== 'idle'} />
              <span className="support-type-label">{TYPE_LABELS[t].label}</span>
              <span className="support-type-hint">{TYPE_LABELS[t].hint}</span>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={`${ids}-message`}>Message</label>
          <textarea id={`${ids}-message`} rows={7} maxLength={5000} value={message} onChange={(e) => setMessage(e.target.value)} disabled={phase !== 'idle'} />
        </div>
        {formError && (
          <p className="form-error" role="alert">
            {formError}
          </p>
        )}
        <div className="support-actions">
          <button type="submit" className="btn btn-primary" disabled={phase !== 'idle'} aria-busy={phase === 'submitting'}>
            {phase === 'submitting' ? 'Submitting…' : 'Submit'}
          </button>
          <span role="status" className="support-status">
            {phase === 'submitted' ? 'Submitted!' : ''}
          </span>
        </div>
      </form>
    </main>
  );
}

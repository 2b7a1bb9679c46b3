import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { errorCode } from '../../apollo/graphql-errors';
import { useReportForm_reportContentMutation } from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';

const REPORT_REASONS = [
  { value: 'spam', label: 'Spam or advertising' },
  { value: 'sexual', label: 'Sexual content' },
  { value: 'hate', label: 'Hate or harassment of a group' },
  { value: 'harassment', label: 'Harassment of a person' },
  { value: 'violence', label: 'Real-world violence or threats' },
  { value: 'illegal', label: 'Illegal content' },
  { value: 'other', label: 'Something else' },
] as const;

/**
 * Reporting a shared world or a published story: a reason and an optional note for the moderators.
 * Once per player and target; enough reports hide the content until an operator reviews it.
 */
export function ReportForm({ targetKind, targetId, onDone }: { targetKind: 'world' | 'story'; targetId: string; onDone: () => void }) {
  const ids = useId();
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [report, { loading }] = useReportForm_reportContentMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason) {
      setError(MESSAGES.reportReasonRequired);
      return;
    }
    try {
      await report({ variables: { input: { targetKind, targetId, reason, note: note.trim() || null } } });
      toast.success(MESSAGES.reportSent);
      onDone();
    } catch (err) {
      const code = errorCode(err);
      if (code === 'CONFLICT') {
        toast.info(MESSAGES.reportDuplicate);
        onDone();
      } else setError(code === 'RATE_LIMITED' ? MESSAGES.reportRateLimited : MESSAGES.reportFailed);
    }
  };

  return (
    <form className="report-form" onSubmit={submit} noValidate aria-label={`Report this ${targetKind}`}>
      <div className="field">
        <label htmlFor={`${ids}-reason`}>Why are you reporting it?</label>
        <select id={`${ids}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} data-autofocus>
          <option value="">Choose a reason</option>
          {REPORT_REASONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-note`}>Anything the moderators should know? (optional)</label>
        <textarea id={`${ids}-note`} rows={2} maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="world-popup-actions">
        <button type="submit" className="btn btn-primary" disabled={loading} aria-busy={loading}>
          Send report
        </button>
        <button type="button" className="btn btn-ghost" onClick={onDone} disabled={loading}>
          Cancel
        </button>
      </div>
    </form>
  );
}

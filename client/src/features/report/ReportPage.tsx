import './report.css';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { ReportForm } from './ReportForm';

/**
 * /report/story/:id — where "Report this story" on a published story's page leads. The published page
 * is plain server-rendered HTML without scripts, so reporting happens here, signed in (the route is
 * protected: an anonymous reader signs in first and comes back).
 */
export default function ReportPage() {
  const { id = '' } = useParams();
  const [sent, setSent] = useState(false);
  return (
    <main className="page report-page">
      <h1 className="section-title">Report a published story</h1>
      {sent ? (
        <p role="status">
          Thank you. Our moderators will look at it; a story several readers report is hidden until they have.{' '}
          <a href={`/read/${encodeURIComponent(id)}`}>Back to the story</a>
        </p>
      ) : (
        <>
          <p className="muted">Tell us what is wrong with this story. Reports are anonymous to its author.</p>
          <ReportForm targetKind="story" targetId={id} onDone={() => setSent(true)} />
        </>
      )}
    </main>
  );
}

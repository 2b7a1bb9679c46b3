import type { ReactNode } from 'react';
import './placeholder.css';

/** A titled page shell for screens whose full UI arrives with the client issue. */
export function PlaceholderPage({ title, lead, children }: { title: string; lead?: string; children?: ReactNode }) {
  return (
    <main className="page placeholder-page">
      <h1 className="page-title">{title}</h1>
      {lead && <p className="page-lead">{lead}</p>}
      {children}
    </main>
  );
}

import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './auth.css';

/** The card every identity page sits in (log in, sign up, forgot, choose a new password). */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const id = useId();
  return (
    <main className="auth-page">
      <div className="auth-backdrop" aria-hidden="true" />
      <section className="auth-card" aria-labelledby={`${id}-title`}>
        <Link className="auth-brand" to="/">
          Taleforge
        </Link>
        <h1 id={`${id}-title`}>{title}</h1>
        {subtitle && <p className="auth-subtitle">{subtitle}</p>}
        {children}
      </section>
    </main>
  );
}

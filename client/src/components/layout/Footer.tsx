import { useNavigate } from 'react-router-dom';
import './footer.css';

const SUPPORT_BUTTONS = [
  { label: 'Contact Us', type: 'contact' },
  { label: 'Give Us Feedback', type: 'feedback' },
  { label: 'Report a Bug', type: 'bug' },
] as const;

export function Footer() {
  const navigate = useNavigate();
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <div className="footer-brand">
          <span className="footer-logo">Taleforge</span>
          <p>Forge a universe. Become anyone. Live the adventure.</p>
        </div>
        <section className="footer-support" aria-labelledby="footer-support-title">
          <h2 id="footer-support-title">Help &amp; Support</h2>
          <div className="footer-buttons">
            {SUPPORT_BUTTONS.map((b) => (
              <button key={b.type} type="button" className="btn btn-ghost" onClick={() => navigate(`/support?type=${b.type}`)}>
                {b.label}
              </button>
            ))}
          </div>
        </section>
      </div>
      <p className="footer-copyright">© {new Date().getFullYear()} Taleforge. All rights reserved.</p>
    </footer>
  );
}

import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { LANDING_WORLDS } from './featured-worlds';
import './landing.css';

const STEPS = [
  {
    title: 'Forge Your Universe',
    text: 'Sketch a premise in a sentence or a page. Taleforge helps you shape the lore, paint the scenery and ask the questions that define who belongs there.',
  },
  {
    title: 'Become Anyone',
    text: 'Answer a few questions and meet your character: stats, strengths, flaws and a special ability, born from the world itself.',
  },
  {
    title: 'Live the Adventure',
    text: 'Play chapter by chapter. Pick a path or write your own action, and watch the story, your mission and your character grow.',
  },
] as const;

export default function LandingPage() {
  const navigate = useNavigate();
  useEffect(() => {
    document.title = 'Taleforge — Forge a universe. Become anyone. Live the adventure.';
    return () => {
      document.title = 'Taleforge';
    };
  }, []);

  return (
    <div className="landing">
      <header className="landing-top">
        <span className="landing-wordmark">
          <span aria-hidden="true">✦</span> Taleforge
        </span>
        <Link to="/auth" className="landing-signin">
          Sign in
        </Link>
      </header>

      <main>
        <section className="hero" aria-labelledby="hero-title">
          <div className="hero-sky" aria-hidden="true">
            <span className="stars stars-1" />
            <span className="stars stars-2" />
            <span className="hero-moon" />
            <span className="hero-ridge hero-ridge-back" />
            <span className="hero-ridge hero-ridge-front" />
            <span className="hero-mist" />
          </div>
          <div className="hero-content">
            <p className="eyebrow">AI-powered text adventures</p>
            <h1 id="hero-title" className="hero-title">
              Every legend begins
              <br />
              <em>with a single choice.</em>
            </h1>
            <p className="hero-lead">
              Step into living worlds, become a character no one has ever played, and write a story that answers back — one chapter at a time.
            </p>
            <div className="hero-actions">
              <Link to="/worlds" className="btn btn-primary btn-lg">
                Start Your Adventure
              </Link>
              <a href="#how-it-works" className="btn btn-ghost btn-lg">
                How it works
              </a>
            </div>
          </div>
          <span className="hero-scroll" aria-hidden="true" />
        </section>

        <section className="imagination" aria-labelledby="imagination-title">
          <div className="imagination-text">
            <p className="eyebrow">Imagination, unbound</p>
            <h2 id="imagination-title">If you can imagine it, you can play it.</h2>
            <p>
              Drowned empires, neon cities, haunted manors, realms that exist only in your head. Taleforge turns a spark of an idea into a world with history,
              danger and people worth meeting — and then hands you the pen.
            </p>
            <p>No rulebooks, no dice tables, no waiting for the group. Just you, the story, and a storyteller that never runs out of ideas.</p>
          </div>
          <ul className="imagination-points">
            <li>
              <strong>Stories that remember.</strong> Your choices, your missions and your scars carry from chapter to chapter.
            </li>
            <li>
              <strong>Characters with weight.</strong> Stats, strengths, weaknesses and a special ability shape what you can do.
            </li>
            <li>
              <strong>Worlds that feel alive.</strong> An optional immersive mode restyles the page to match the setting.
            </li>
          </ul>
        </section>

        <section id="how-it-works" className="steps" aria-labelledby="steps-title">
          <p className="eyebrow">How it works</p>
          <h2 id="steps-title">Three steps to your first chapter</h2>
          <ol className="steps-list">
            {STEPS.map((step, i) => (
              <li key={step.title} className="step">
                <span className="step-number" aria-hidden="true">
                  {String(i + 1).padStart(2, '0')}
                </span>
                <h3>{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section className="landing-worlds" aria-labelledby="landing-worlds-title">
          <p className="eyebrow">Featured worlds</p>
          <h2 id="landing-worlds-title">Choose where your story starts</h2>
          <ul className="landing-world-grid">
            {LANDING_WORLDS.map((world) => (
              <li key={world.id} className="landing-world">
                <div className={`landing-world-art ${world.art}`} aria-hidden="true" />
                <div className="landing-world-body">
                  <span className="landing-world-genre">{world.genre}</span>
                  <h3>{world.name}</h3>
                  <p>{world.tagline}</p>
                  <button type="button" className="btn btn-outline" onClick={() => navigate(`/worlds?world=${encodeURIComponent(world.id)}`)}>
                    Explore<span className="visually-hidden"> {world.name}</span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </section>

        <section className="closing" aria-labelledby="closing-title">
          <h2 id="closing-title">Your legend is waiting.</h2>
          <p>The first chapter is one click away. Pick a world, meet your character, and begin.</p>
          <Link to="/worlds" className="btn btn-primary btn-lg">
            Begin Your Journey
          </Link>
        </section>
      </main>

      <p className="landing-copyright">© {new Date().getFullYear()} Taleforge. All rights reserved.</p>
    </div>
  );
}

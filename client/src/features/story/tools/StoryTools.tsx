import { useId, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from '../../../components/icons';
import { useOverlay } from '../../../components/ui/Modal';
import './tools.css';

/**
 * One tool of the story screen. A new tool (the inventory of issue 31, say) is one more entry in the
 * list StoryPage passes: nothing here changes.
 */
export interface StoryTool {
  id: string;
  label: string;
  icon: ReactNode;
  /** A short count or mark next to the label (e.g. the number of cards); none when null. */
  badge?: string | number | null;
  content: ReactNode;
}

const WIDE = '(min-width: 1024px)';

/** Whether the screen is wide enough for the side panel (jsdom, without matchMedia, counts as wide). */
function useWide(): boolean {
  return useSyncExternalStore(
    (notify) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const m = window.matchMedia(WIDE);
      m.addEventListener('change', notify);
      return () => m.removeEventListener('change', notify);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(WIDE).matches : true),
  );
}

function Badge({ value }: { value: StoryTool['badge'] }) {
  if (value === null || value === undefined || value === '') return null;
  return (
    <span className="tool-badge">
      <span className="visually-hidden"> (</span>
      {value}
      <span className="visually-hidden">)</span>
    </span>
  );
}

/**
 * The story's tools next to where the player types: on a wide screen a sticky side panel with one
 * tab per tool; on a phone a bar at the bottom whose buttons open the tool in a bottom sheet. One
 * tree at a time, so a tool's state (a half-written card) is never held twice.
 */
export function StoryTools({ tools }: { tools: StoryTool[] }) {
  const wide = useWide();
  return wide ? <SidePanel tools={tools} /> : <BottomBar tools={tools} />;
}

function SidePanel({ tools }: { tools: StoryTool[] }) {
  const ids = useId();
  const [active, setActive] = useState(tools[0]?.id ?? '');
  const current = tools.find((t) => t.id === active) ?? tools[0];
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  // Arrow keys move between tabs (the WAI-ARIA tabs pattern); Tab goes into the panel.
  const onKey = (e: React.KeyboardEvent, i: number) => {
    const step = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    const next = (i + step + tools.length) % tools.length;
    setActive(tools[next].id);
    tabs.current[next]?.focus();
  };
  return (
    <aside className="story-tools is-side" aria-label="Story tools">
      <div className="tool-tabs" role="tablist" aria-label="Story tools" aria-orientation="horizontal">
        {tools.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${ids}-${t.id}-tab`}
            aria-selected={t.id === current?.id}
            aria-controls={`${ids}-${t.id}-panel`}
            tabIndex={t.id === current?.id ? 0 : -1}
            className="tool-tab"
            onClick={() => setActive(t.id)}
            onKeyDown={(e) => onKey(e, i)}
          >
            <span className="tool-icon" aria-hidden="true">
              {t.icon}
            </span>
            <span className="tool-label">{t.label}</span>
            <Badge value={t.badge} />
          </button>
        ))}
      </div>
      {current && (
        <div
          className="tool-panel"
          role="tabpanel"
          id={`${ids}-${current.id}-panel`}
          aria-labelledby={`${ids}-${current.id}-tab`}
          data-testid={`tool-${current.id}`}
        >
          {current.content}
        </div>
      )}
    </aside>
  );
}

function BottomBar({ tools }: { tools: StoryTool[] }) {
  const [open, setOpen] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const current = tools.find((t) => t.id === open) ?? null;
  const close = () => {
    setOpen(null);
    opener.current?.focus();
  };
  return (
    <>
      <nav className="story-tools is-bar" aria-label="Story tools">
        {tools.map((t) => (
          <button
            key={t.id}
            type="button"
            className="tool-bar-button"
            aria-haspopup="dialog"
            aria-expanded={open === t.id}
            onClick={(e) => {
              opener.current = e.currentTarget;
              setOpen(t.id);
            }}
          >
            <span className="tool-icon" aria-hidden="true">
              {t.icon}
            </span>
            <span className="tool-label">{t.label}</span>
            <Badge value={t.badge} />
          </button>
        ))}
      </nav>
      {current && <Sheet tool={current} onClose={close} />}
    </>
  );
}

/** A tool in a bottom sheet: modal, Escape or the backdrop closes it, focus stays inside. */
function Sheet({ tool, onClose }: { tool: StoryTool; onClose: () => void }) {
  const ids = useId();
  const sheet = useRef<HTMLDivElement>(null);
  useOverlay(sheet, onClose, () => sheet.current?.focus());
  // At the end of body, like every overlay (see Modal): no ancestor's transform or filter places it.
  return createPortal(
    <div className="sheet-root">
      <div className="sheet-overlay" aria-hidden="true" onClick={onClose} />
      <div ref={sheet} className="sheet" role="dialog" aria-modal="true" aria-labelledby={`${ids}-title`} tabIndex={-1} data-testid={`tool-${tool.id}`}>
        <div className="sheet-head">
          <h2 id={`${ids}-title`} className="sheet-title">
            {tool.label}
          </h2>
          <button type="button" className="nav-icon-button" aria-label={`Close ${tool.label}`} onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="sheet-body">{tool.content}</div>
        {/* The sheet is the last thing in the page: a Tab past its last control would leave the
            document. This guard catches it and starts again at the top of the sheet. */}
        <span
          tabIndex={0}
          className="visually-hidden"
          aria-hidden="true"
          onFocus={() => sheet.current?.querySelector<HTMLElement>('button, summary, a[href], input, textarea, select')?.focus()}
        />
      </div>
    </div>,
    document.body,
  );
}

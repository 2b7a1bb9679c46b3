import { useId, useRef, useState, useSyncExternalStore, type CSSProperties, type ReactNode } from 'react';
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
  /** Used less often: on a phone it waits under More, so the bar's buttons stay wide enough to hit. */
  secondary?: boolean;
  content: ReactNode;
}

/**
 * How many tools a phone's bar shows beside More: five buttons share 390 px at a thumb's width (the
 * bottom navigation of the big mobile apps stops at five too).
 */
const BAR_TOOLS = 4;
const MORE = '__more';

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

/** What a tool's tab, bar button and More item show: its icon, its name and its badge. */
function ToolFace({ tool }: { tool: StoryTool }) {
  return (
    <>
      <span className="tool-icon" aria-hidden="true">
        {tool.icon}
      </span>
      <span className="tool-label">{tool.label}</span>
      <Badge value={tool.badge} />
    </>
  );
}

/**
 * The story's tools next to where the player types: on a wide screen a sticky side panel with one
 * tab per tool; on a phone a bar at the bottom whose buttons open the tool in a bottom sheet. One
 * tree at a time, so a tool's state (a half-written card) is never held twice.
 */
/**
 * `theme`: the story's immersive colours (custom properties), when on. The side panel inherits them
 * from the page; a phone's sheet lives at the end of body and is given them.
 */
export function StoryTools({ tools, theme }: { tools: StoryTool[]; theme?: CSSProperties }) {
  const wide = useWide();
  return wide ? <SidePanel tools={tools} /> : <BottomBar tools={tools} theme={theme} />;
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
            <ToolFace tool={t} />
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

function BottomBar({ tools, theme }: { tools: StoryTool[]; theme?: CSSProperties }) {
  const [open, setOpen] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  // The bar keeps the everyday tools in their order; the rest (and any past the bar's room) go under More.
  const primary = tools.filter((t) => !t.secondary);
  const barTools = tools.length <= BAR_TOOLS + 1 ? tools : primary.slice(0, BAR_TOOLS);
  const moreTools = tools.filter((t) => !barTools.includes(t));
  const current = tools.find((t) => t.id === open) ?? null;
  const inMore = open === MORE || moreTools.some((t) => t.id === open);
  const close = () => {
    setOpen(null);
    opener.current?.focus();
  };
  const openFromBar = (e: React.MouseEvent<HTMLButtonElement>, id: string) => {
    opener.current = e.currentTarget;
    setOpen(id);
  };
  return (
    <>
      <nav className="story-tools is-bar" aria-label="Story tools">
        {barTools.map((t) => (
          <button
            key={t.id}
            type="button"
            className="tool-bar-button"
            aria-haspopup="dialog"
            aria-expanded={open === t.id}
            onClick={(e) => openFromBar(e, t.id)}
          >
            <ToolFace tool={t} />
          </button>
        ))}
        {moreTools.length > 0 && (
          <button type="button" className="tool-bar-button" aria-haspopup="dialog" aria-expanded={inMore} onClick={(e) => openFromBar(e, MORE)}>
            <span className="tool-icon" aria-hidden="true">
              ⋯
            </span>
            <span className="tool-label">More</span>
          </button>
        )}
      </nav>
      {open === MORE && (
        <Sheet key={MORE} title="More tools" onClose={close} testId="tool-more" theme={theme}>
          <ul className="tool-more-list">
            {moreTools.map((t) => (
              <li key={t.id}>
                <button type="button" className="tool-more-item" aria-haspopup="dialog" onClick={() => setOpen(t.id)}>
                  <ToolFace tool={t} />
                </button>
              </li>
            ))}
          </ul>
        </Sheet>
      )}
      {/* A tool chosen under More gives focus back to More when it closes (its item is gone). */}
      {current && (
        <Sheet key={current.id} title={current.label} onClose={close} testId={`tool-${current.id}`} theme={theme}>
          {current.content}
        </Sheet>
      )}
    </>
  );
}

/** A tool (or the list under More) in a bottom sheet: modal, Escape or the backdrop closes it, focus stays inside. */
function Sheet({
  title,
  onClose,
  testId,
  theme,
  children,
}: {
  title: string;
  onClose: () => void;
  testId: string;
  theme?: CSSProperties;
  children: ReactNode;
}) {
  const ids = useId();
  const sheet = useRef<HTMLDivElement>(null);
  useOverlay(sheet, onClose, () => sheet.current?.focus());
  // At the end of body, like every overlay (see Modal): no ancestor's transform or filter places it.
  return createPortal(
    <div className={`sheet-root${theme ? ' is-immersive' : ''}`} style={theme}>
      <div className="sheet-overlay" aria-hidden="true" onClick={onClose} />
      <div ref={sheet} className="sheet" role="dialog" aria-modal="true" aria-labelledby={`${ids}-title`} tabIndex={-1} data-testid={testId}>
        <div className="sheet-head">
          <h2 id={`${ids}-title`} className="sheet-title">
            {title}
          </h2>
          <button type="button" className="nav-icon-button" aria-label={`Close ${title}`} onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="sheet-body">{children}</div>
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

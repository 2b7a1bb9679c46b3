import { useEffect, useId, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from '../icons';
import './modal.css';

const FOCUSABLE =
  'a[href], summary, button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab / Shift+Tab inside `root`. */
export function trapTab(event: KeyboardEvent, root: HTMLElement | null): void {
  if (event.key !== 'Tab' || !root) return;
  const items = Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null || el === document.activeElement);
  if (items.length === 0) {
    event.preventDefault();
    return;
  }
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === root || !root.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/** The overlays open now, the newest last: only the top one answers Escape and keeps Tab. */
const openOverlays: object[] = [];

/**
 * The control that last had focus. A browser moves focus to the body when a focused control is
 * disabled (a button busy while its action runs): the dialog that action opens gives focus back here.
 */
let lastFocused: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (e) => {
    if (e.target instanceof HTMLElement) lastFocused = e.target;
  });
}

/** What had focus before an overlay opened: the focused control, else the one that just lost it by being disabled. */
function openerOfOverlay(): HTMLElement | null {
  const active = document.activeElement as HTMLElement | null;
  if (active && active !== document.body) return active;
  return lastFocused && document.contains(lastFocused) ? lastFocused : active;
}

/**
 * What every overlay does while it is open (the modal, the story tools' bottom sheet): Escape
 * closes it, Tab stays inside `root`, the page behind does not scroll. `onOpen` runs first (it
 * places focus) and may return what to do on close (give focus back).
 */
export function useOverlay(root: RefObject<HTMLElement | null>, onClose: () => void, onOpen: () => (() => void) | void): void {
  const onCloseRef = useRef(onClose);
  useLayoutEffect(() => {
    onCloseRef.current = onClose;
  });
  useEffect(() => {
    const onClosed = onOpen();
    const me = {};
    openOverlays.push(me);
    const onKey = (e: KeyboardEvent) => {
      // A dialog opened over another (a confirmation over a tools sheet): Escape closes the top one only.
      if (openOverlays.at(-1) !== me) return;
      if (e.key === 'Escape') {
        e.stopPropagation();
        onCloseRef.current();
      } else trapTab(e, root.current);
    };
    document.addEventListener('keydown', onKey);
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      openOverlays.splice(openOverlays.indexOf(me), 1);
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      onClosed?.();
    };
    // Once per opening: the overlay mounts open and unmounts closed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

export interface ModalProps {
  title: ReactNode;
  /** Hide the visible title (it still names the dialog). */
  hideTitle?: boolean;
  onClose: () => void;
  /** Whether a click on the overlay closes the dialog (default true). */
  closeOnOverlay?: boolean;
  className?: string;
  closeLabel?: string;
  children: ReactNode;
  /** Rendered above the title (e.g. an image). */
  header?: ReactNode;
  role?: 'dialog' | 'alertdialog';
  describedBy?: string;
}

/**
 * An accessible modal dialog: labelled by its title, focus moves in on open, stays inside (Tab is
 * trapped), Escape closes, and focus returns to whatever opened it.
 */
export function Modal({
  title,
  hideTitle,
  onClose,
  closeOnOverlay = true,
  className = '',
  closeLabel = 'Close',
  children,
  header,
  role = 'dialog',
  describedBy,
}: ModalProps) {
  const id = useId();
  const dialog = useRef<HTMLDivElement>(null);

  useOverlay(dialog, onClose, () => {
    const opener = openerOfOverlay();
    const root = dialog.current;
    const auto = root?.querySelector<HTMLElement>('[data-autofocus]') ?? root?.querySelector<HTMLElement>(FOCUSABLE);
    (auto ?? root)?.focus({ preventScroll: true });
    // A dialog opens at its top (its title, a world's picture). When the control to start at lies
    // below what shows (a world's Spawn on a phone), focusing it scrolled the title out of sight:
    // focus rests on the dialog itself instead (the WAI-ARIA pattern for long dialogs), Tab goes on.
    if (auto && root) {
      const at = auto.getBoundingClientRect();
      const box = root.getBoundingClientRect();
      if (at.bottom > box.bottom || at.top < box.top) root.focus({ preventScroll: true });
    }
    return () => {
      if (opener && document.contains(opener)) opener.focus();
    };
  });

  // At the end of body: a fixed layer inside an ancestor with a transform or backdrop-filter (the
  // blurred top bar) would be sized and placed by that ancestor instead of the viewport.
  return createPortal(
    <div className="modal-root">
      <div className="modal-overlay" aria-hidden="true" data-testid="modal-overlay" onClick={() => closeOnOverlay && onClose()} />
      <div
        ref={dialog}
        className={`modal ${className}`}
        role={role}
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={describedBy}
        tabIndex={-1}
      >
        <button type="button" className="nav-icon-button modal-close" aria-label={closeLabel} onClick={onClose}>
          <CloseIcon />
        </button>
        {header}
        <h2 id={`${id}-title`} className={hideTitle ? 'visually-hidden' : 'modal-title'}>
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}

/** An in-app confirm (same wording as the SPEC's confirm) that resolves through its buttons. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
  busy,
}: {
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const id = useId();
  return (
    <Modal title={title} onClose={onCancel} role="alertdialog" describedBy={`${id}-msg`} className="confirm-modal">
      <p id={`${id}-msg`}>{message}</p>
      <div className="modal-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel} data-autofocus>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={busy} aria-busy={busy}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

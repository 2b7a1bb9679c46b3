/**
 * Where focus goes when a dialog opens: to the control marked to start at, unless that control lies
 * below what the dialog shows (a world's Spawn on a phone), when it rests on the dialog itself so the
 * dialog opens at its title; and back to the opener on close.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Modal } from './Modal';

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open world
      </button>
      {open && (
        <Modal title="Aethermoor" onClose={() => setOpen(false)}>
          <p>A realm of floating isles.</p>
          <button type="button" data-autofocus>
            Spawn
          </button>
          <button type="button">Like</button>
        </Modal>
      )}
    </>
  );
}

/** jsdom lays nothing out: the dialog is 0–600 px tall on screen, Spawn at `top`. */
function layout(spawnTop: number) {
  jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const top = this.textContent === 'Spawn' ? spawnTop : 0;
    const height = this.getAttribute('role') === 'dialog' ? 600 : 40;
    return { top, bottom: top + height, left: 0, right: 300, width: 300, height, x: 0, y: top, toJSON: () => ({}) } as DOMRect;
  });
}

describe('Modal focus on open', () => {
  afterEach(() => jest.restoreAllMocks());

  it('starts at the marked control when it shows, and gives focus back to the opener on close', () => {
    layout(400);
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Open world' });
    opener.focus();
    fireEvent.click(opener);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Spawn' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  // Tab and Shift+Tab from there staying inside: tests/e2e/layout-guard.test.ts (jsdom lays out nothing to tab through).
  it('rests on the dialog itself when the marked control lies below what shows', () => {
    layout(900);
    render(<Opener />);
    fireEvent.click(screen.getByRole('button', { name: 'Open world' }));
    const dialog = screen.getByRole('dialog', { name: 'Aethermoor' });
    expect(document.activeElement).toBe(dialog);
  });
});

/** A sheet-like overlay (a Modal here) whose button opens a second dialog over it, as the party host's Invite code over the Host sheet. */
function Layered() {
  const [outer, setOuter] = useState(false);
  const [inner, setInner] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOuter(true)}>
        Host tools
      </button>
      {outer && (
        <Modal title="Host" onClose={() => setOuter(false)}>
          <button type="button" onClick={() => setInner(true)} data-autofocus>
            Create invite code
          </button>
        </Modal>
      )}
      {inner && (
        <Modal title="Invite code" onClose={() => setInner(false)}>
          <button type="button" data-autofocus>
            Copy link
          </button>
        </Modal>
      )}
    </>
  );
}

describe('Modal over another overlay, and an opener that lost focus', () => {
  afterEach(() => jest.restoreAllMocks());

  it('Escape closes only the dialog on top, and focus goes back to its opener in the one below', () => {
    layout(0);
    render(<Layered />);
    screen.getByRole('button', { name: 'Host tools' }).focus();
    fireEvent.click(screen.getByRole('button', { name: 'Host tools' }));
    const create = screen.getByRole('button', { name: 'Create invite code' });
    expect(document.activeElement).toBe(create);
    fireEvent.click(create);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Copy link' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Invite code' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Host' })).toBeTruthy();
    expect(document.activeElement).toBe(create);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Host tools' }));
  });

  it('gives focus back to an opener that was disabled (and so lost focus) while its action ran', () => {
    layout(0);
    function Busy() {
      const [busy, setBusy] = useState(false);
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" disabled={busy} onClick={() => setBusy(true)}>
            Create invite code
          </button>
          <button type="button" onClick={() => (setBusy(false), setOpen(true))}>
            The answer arrives
          </button>
          {open && (
            <Modal title="Invite code" onClose={() => setOpen(false)}>
              <button type="button">Copy link</button>
            </Modal>
          )}
        </>
      );
    }
    render(<Busy />);
    const opener = screen.getByRole('button', { name: 'Create invite code' });
    opener.focus();
    // A browser moves focus off a control as it is disabled, to the document's body (jsdom does not:
    // the blur comes first here).
    opener.blur();
    fireEvent.click(opener);
    expect(opener).toHaveProperty('disabled', true);
    expect(document.activeElement).toBe(document.body);
    fireEvent.click(screen.getByRole('button', { name: 'The answer arrives' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

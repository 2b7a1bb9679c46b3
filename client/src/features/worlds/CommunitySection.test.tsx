import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { gqlError } from '../../test/fake-graphql-server';
import { WORLD, ownWorld, worldSignals } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { MESSAGES } from '../../lib/messages';

const shared = (n: number, extra: Record<string, unknown> = {}) => ({
  ...WORLD,
  id: `c-${n}`,
  name: `Shared World ${n}`,
  author: `maker${n}`,
  sharedGlobally: true,
  playCount: n * 10,
  likeCount: n,
  ...extra,
});

const page =
  (worlds: unknown[], total = worlds.length) =>
  () => ({ data: { communityWorlds: { __typename: 'CommunityPage', total, worlds } } });

describe('Community worlds (issue 20)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('anonymous visitors see shared worlds with their creator, plays and likes; search, genre, sort and pages change the query', async () => {
    const { calls } = await renderApp('/worlds', { CommunitySection_communityWorlds: page([shared(1), shared(2)], 30) });
    const section = (await screen.findByRole('heading', { name: 'Community Worlds' })).closest('section')!;
    const card = await within(section).findByRole('button', { name: /Shared World 1/ });
    expect(card.textContent).toContain('by maker1');
    expect(card.textContent).toContain('10 plays');
    expect(card.textContent).toContain('1 like');
    expect(within(section).getByText('Page 1 of 3')).toBeTruthy();
    const last = () => calls.filter((c) => c.operationName === 'CommunitySection_communityWorlds').at(-1)!.variables;
    expect(last()).toMatchObject({ limit: 12, offset: 0, sort: 'new', search: null, genre: null });

    fireEvent.click(within(section).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(last()).toMatchObject({ offset: 12 }));
    fireEvent.change(within(section).getByLabelText('Sort by'), { target: { value: 'liked' } });
    await waitFor(() => expect(last()).toMatchObject({ sort: 'liked', offset: 0 }));
    fireEvent.change(within(section).getByLabelText('Genre'), { target: { value: 'cyberpunk' } });
    await waitFor(() => expect(last()).toMatchObject({ genre: 'cyberpunk' }));
    fireEvent.change(within(section).getByLabelText('Search'), { target: { value: 'lantern' } });
    await waitFor(() => expect(last()).toMatchObject({ search: 'lantern', offset: 0 }));
    // A filtered list says how many it found to screen readers; the unfiltered one says nothing.
    await waitFor(() => expect(within(section).getByRole('status').textContent).toBe('30 shared worlds found.'));
  });

  it('opening a community card opens the popup with fresh counts, the remix credit and Copy link, for anonymous visitors too', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    const success = jest.spyOn(toast, 'success');
    await renderApp('/worlds', {
      CommunitySection_communityWorlds: page([shared(1)]),
      WorldsPage_world: () => ({ data: { world: shared(1) } }),
      WorldCommunity_world: () => ({
        data: {
          world: worldSignals('c-1', {
            playCount: 42,
            likeCount: 7,
            remixedFrom: { __typename: 'WorldCredit', id: 'o-1', name: 'Old Lantern', author: 'elder' },
          }),
        },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: /Shared World 1/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Shared World 1' });
    expect(await within(dialog).findByText('42 plays')).toBeTruthy();
    expect(within(dialog).getByText('7 likes')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Old Lantern' }).getAttribute('href')).toBe('/worlds?world=o-1');
    expect(within(dialog).queryByRole('button', { name: 'Like' })).toBeNull(); // signed out
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/worlds?world=c-1`));
    expect(success).toHaveBeenCalledWith(MESSAGES.linkCopied);
  });

  it('signed in: Like toggles with the count, Remix makes a private copy and opens it, Report sends a reason once', async () => {
    const success = jest.spyOn(toast, 'success');
    const info = jest.spyOn(toast, 'info');
    let reports = 0;
    const { calls, router } = await renderApp(
      '/worlds?world=c-1',
      {
        CommunitySection_communityWorlds: page([shared(1)]),
        WorldsPage_world: (call) => ({ data: { world: call.variables.id === 'c-1' ? shared(1) : ownWorld(9, { id: 'copy-1', name: 'Shared World 1' }) } }),
        WorldCommunity_world: (call) => ({ data: { world: worldSignals(String(call.variables.id), { likeCount: 3 }) } }),
        WorldCommunity_setWorldLiked: (call) => ({
          data: { setWorldLiked: { __typename: 'World', id: 'c-1', likedByMe: call.variables.liked, likeCount: call.variables.liked ? 4 : 3 } },
        }),
        WorldCommunity_remixWorld: () => ({ data: { remixWorld: ownWorld(9, { id: 'copy-1', name: 'Shared World 1' }) } }),
        ReportForm_reportContent: () =>
          ++reports === 1 ? { data: { reportContent: { __typename: 'ReportResultType', hidden: false } } } : gqlError('CONFLICT', 'dup'),
      },
      { signedIn: true },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Shared World 1' });
    const like = await within(dialog).findByRole('button', { name: 'Like' });
    expect(like.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(like);
    expect(await within(dialog).findByText('4 likes')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Liked' }).getAttribute('aria-pressed')).toBe('true');
    expect(calls.find((c) => c.operationName === 'WorldCommunity_setWorldLiked')?.variables).toEqual({ id: 'c-1', liked: true });

    // Report: a reason is required, then it is sent with the note.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    const form = within(dialog).getByRole('form', { name: 'Report this world' });
    fireEvent.click(within(form).getByRole('button', { name: 'Send report' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(MESSAGES.reportReasonRequired);
    fireEvent.change(within(form).getByLabelText('Why are you reporting it?'), { target: { value: 'spam' } });
    fireEvent.change(within(form).getByLabelText(/Anything the moderators should know/), { target: { value: ' sells gold ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith(MESSAGES.reportSent));
    expect(calls.find((c) => c.operationName === 'ReportForm_reportContent')?.variables).toEqual({
      input: { targetKind: 'world', targetId: 'c-1', reason: 'spam', note: 'sells gold' },
    });
    // A second report of the same world is told kindly, not as a failure.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Report' }));
    fireEvent.change(within(dialog).getByLabelText('Why are you reporting it?'), { target: { value: 'hate' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(info).toHaveBeenCalledWith(MESSAGES.reportDuplicate));

    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Remix (3 gems)' }));
    });
    await waitFor(() => expect(router.state.location.search).toBe('?world=copy-1'));
    expect(success).toHaveBeenCalledWith(MESSAGES.remixDone);
  });

  it('sharing refused by moderation says so', async () => {
    const error = jest.spyOn(toast, 'error');
    await renderApp(
      '/worlds?world=own-1',
      {
        WorldsPage_myWorlds: () => ({ data: { myWorlds: [ownWorld(1)] } }),
        WorldPopup_setWorldShared: () => gqlError('CONTENT_REJECTED', 'This content cannot be shared.'),
      },
      { signedIn: true },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith(MESSAGES.shareRejected));
  });
});

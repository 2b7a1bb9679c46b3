/**
 * The party screen (issue 34) through the real app against a scripted /graphql: the players and
 * their characters, who has acted and the countdown (live), whose turn it is (by post), the action
 * box, the chapter streamed to every member, the host's controls (only for the host; kick and ban
 * confirmed; an invite shown once with Copy link), and server refusals shown with their message.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { gqlError } from '../../test/fake-graphql-server';
import { chapter } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { check, member, party, partyFields, update } from './party-fixtures';
import { formatRemaining } from './PartyPanels';

const base = (p: ReturnType<typeof party>, extra: Record<string, (call: { variables: Record<string, unknown> }) => unknown> = {}) => ({
  PartyPage_party: () => ({ data: { party: p } }),
  PartyPage_previously: () => ({ data: { partyPreviously: [] } }),
  PartyPage_invites: () => ({ data: { partyInvites: [] } }),
  ...extra,
});

async function open(p = party(), extra: Parameters<typeof base>[1] = {}) {
  const r = await renderApp('/party/p-1', base(p, extra) as never, { signedIn: true });
  await screen.findByRole('heading', { name: "Kael's party" });
  return r;
}

/** A PartyInvite as partyInvites answers it (`end`: the code's last 4 symbols). */
const invite = (id: string, end: string, expiresAt: string, extra: Record<string, unknown> = {}) => ({
  __typename: 'PartyInvite',
  id,
  maskedCode: `•••••-•${end}`,
  createdAt: '2030-01-01T09:00:00.000Z',
  expiresAt,
  revokedAt: null,
  working: true,
  ...extra,
});

const guestView = { hostUserId: 'user-2', members: [member(1, { isHost: false }), member(2, { isHost: true }), member(3)] };

describe('party screen', () => {
  afterEach(() => jest.restoreAllMocks());

  it('formats the countdown', () => {
    expect(formatRemaining(272_000)).toBe('4:32');
    expect(formatRemaining(3 * 3600_000 + 12 * 60_000)).toBe('3 h 12 min');
    expect(formatRemaining(2 * 86400_000 + 4 * 3600_000)).toBe('2 d 4 h');
    expect(formatRemaining(0)).toBe('any moment now');
  });

  it('shows the players with their characters and stats, who has acted, and a countdown; updates live', async () => {
    const deadlineAt = new Date(Date.now() + 272_000).toISOString();
    const { subscriptions } = await open(party({ deadlineAt, members: [member(1), member(2, { hasActed: true }), member(3)] }));
    const players = screen.getAllByTestId('party-member');
    expect(players.map((p) => p.querySelector('.party-member-name')?.textContent)).toEqual(['Kael', 'Tomas', 'Mira']);
    expect(within(players[0]!).getByText('Host')).toBeTruthy();
    expect(within(players[0]!).getByText('You')).toBeTruthy();
    expect(within(players[0]!).getByText('aria')).toBeTruthy();
    expect(within(players[1]!).getByText('✓ acted')).toBeTruthy();
    expect(within(players[2]!).getByText('writing…')).toBeTruthy();
    expect(within(players[1]!).getByText('12')).toBeTruthy(); // Tomas's own strength
    expect(screen.getByText('1 of 3 have acted.')).toBeTruthy();
    expect(screen.getByTestId('party-deadline').textContent).toMatch(/^Round closes in 4:(3\d|2\d)$/);

    const channel = await subscriptions.channel('PartyPage_updated');
    expect(channel.variables).toEqual({ partyId: 'p-1' });
    act(() => channel.emit(update('acted', { deadlineAt, members: [member(1), member(2, { hasActed: true }), member(3, { hasActed: true })] })));
    expect(await screen.findByText('2 of 3 have acted.')).toBeTruthy();
  });

  it('live: sends your action, then lets you replace it this round', async () => {
    const calls: unknown[] = [];
    const { subscriptions } = await open(party(), {
      PartyPage_act: (call) => {
        calls.push(call.variables);
        return { data: { submitPartyAction: partyFields({ members: [member(1, { hasActed: true }), member(2), member(3)] }) } };
      },
    });
    expect(screen.getByTestId('party-hint').textContent).toBe('Round 1: what does Kael do?');
    fireEvent.change(screen.getByPlaceholderText('Or type your own action...'), { target: { value: 'Climb the bell tower' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls).toEqual([{ partyId: 'p-1', action: 'Climb the bell tower' }]));
    // The page follows the party's events, not the mutation's answer (which may arrive after a later event).
    const channel = await subscriptions.channel('PartyPage_updated');
    act(() => channel.emit(update('acted', { members: [member(1, { hasActed: true }), member(2), member(3)] })));
    await waitFor(() =>
      expect(screen.getByTestId('party-hint').textContent).toBe('Your action this round: “Climb the bell tower”. Send another to replace it.'),
    );
    // The box stays: sending again replaces the action.
    fireEvent.click(screen.getByRole('button', { name: 'Climb the mast' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toEqual({ partyId: 'p-1', action: 'Climb the mast' });
  });

  it("by post: the action box only on your turn, your turn highlighted, and the turn's deadline", async () => {
    const deadlineAt = new Date(Date.now() + 5 * 3600_000).toISOString();
    const { subscriptions } = await open(party({ mode: 'post', turnUserId: 'user-2', deadlineAt }));
    expect(screen.getByTestId('party-hint').textContent).toBe('Waiting for Tomas (tom) to take their turn.');
    expect(screen.queryByPlaceholderText('Or type your own action...')).toBeNull();
    expect(screen.getByText("Tomas's turn (tom).")).toBeTruthy();
    expect(screen.getByTestId('party-deadline').textContent).toMatch(/^Turn ends in 4 h 59 min|^Turn ends in 5 h 0 min/);

    const channel = await subscriptions.channel('PartyPage_updated');
    act(() => channel.emit(update('turn_taken', { mode: 'post', round: 1, turnUserId: 'user-1', deadlineAt })));
    expect(await screen.findByPlaceholderText('Or type your own action...')).toBeTruthy();
    expect(screen.getByTestId('party-hint').textContent).toBe('Your turn! What does your character do?');
    expect(screen.getByTestId('party-hint').className).toContain('is-your-turn');
    expect(screen.getByTestId('party-round').className).toContain('is-your-turn');
    expect(screen.getByText('Your turn!')).toBeTruthy();
  });

  it('host controls only for the host', async () => {
    const { calls } = await open(party(guestView));
    expect(screen.queryByRole('tab', { name: /^Host/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Kick' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create invite code' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Leave party' })).toBeTruthy();
    // A member is not asked for the party's invites (the server would refuse them).
    expect(calls.map((c) => c.operationName)).not.toContain('PartyPage_invites');
  });

  it('kick and ban ask first; ban goes through after the confirmation', async () => {
    const banned: unknown[] = [];
    const kicked: unknown[] = [];
    const { subscriptions } = await open(party(), {
      PartyPage_kick: (call) => (kicked.push(call.variables), { data: { kickPartyMember: partyFields({ members: [member(1), member(3)] }) } }),
      PartyPage_ban: (call) => (banned.push(call.variables), { data: { banPartyMember: partyFields({ members: [member(1), member(3)] }) } }),
    });
    // The story's owner (the host here) has no kick or ban; the two others do.
    expect(screen.getAllByRole('button', { name: 'Kick' })).toHaveLength(2);
    fireEvent.click(screen.getAllByRole('button', { name: 'Kick' })[0]!);
    const kick = await screen.findByRole('alertdialog', { name: 'Kick Tomas?' });
    fireEvent.click(within(kick).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(kicked).toEqual([]);

    fireEvent.click(screen.getAllByRole('button', { name: 'Ban' })[0]!);
    const ban = await screen.findByRole('alertdialog', { name: 'Ban Tomas?' });
    expect(ban.textContent).toContain('can never join it again');
    fireEvent.click(within(ban).getByRole('button', { name: 'Ban' }));
    await waitFor(() => expect(banned).toEqual([{ partyId: 'p-1', userId: 'user-2' }]));
    const channel = await subscriptions.channel('PartyPage_updated');
    act(() => channel.emit(update('banned', { members: [member(1), member(3)] })));
    await waitFor(() => expect(screen.getAllByTestId('party-member')).toHaveLength(2));
  });

  it('an invite code is shown once, with Copy link, and can be revoked', async () => {
    const writeText = jest.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    const revoked: unknown[] = [];
    let made = false;
    await open(party(), {
      PartyPage_invite: () => (
        (made = true),
        { data: { partyInvite: { __typename: 'PartyInviteCode', id: 'inv-1', code: '7K3QD-M9XTA', expiresAt: '2030-01-03T10:00:00.000Z' } } }
      ),
      PartyPage_revokeInvite: (call) => (revoked.push(call.variables), { data: { revokeInvite: true } }),
      // The server's list: the code masked, as it keeps it.
      PartyPage_invites: () => ({
        data: { partyInvites: made && revoked.length === 0 ? [invite('inv-1', '9XTA', '2030-01-03T10:00:00.000Z')] : [] },
      }),
    });
    fireEvent.click(screen.getByRole('tab', { name: /^Host/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create invite code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite code' });
    expect(within(dialog).getByTestId('invite-code').textContent).toBe('7K3QD-M9XTA');
    const link = within(dialog).getByLabelText('Invite link') as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/party/join?code=7K3QD-M9XTA`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(link.value));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Once: the code itself is gone, only its last four symbols name it.
    expect(screen.queryByText('7K3QD-M9XTA')).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke invite ending 9XTA' }));
    await waitFor(() => expect(revoked).toEqual([{ inviteId: 'inv-1' }]));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Revoke invite ending 9XTA' })).toBeNull());
  });

  it('the host sees every working invite, made on earlier visits too (masked as the server gives it, with its expiry), and revokes any', async () => {
    const revoked: string[] = [];
    const all = [
      invite('inv-3', 'QD7K', '2030-01-05T10:00:00.000Z'),
      invite('inv-2', 'M9XT', '2030-01-04T10:00:00.000Z'),
      invite('inv-1', 'AAAA', '2030-01-03T10:00:00.000Z', { revokedAt: '2030-01-01T10:00:00.000Z', working: false }),
      invite('inv-0', 'BBBB', '2020-01-03T10:00:00.000Z', { working: false }),
    ];
    await open(party(), {
      PartyPage_invites: () => ({ data: { partyInvites: all.filter((i) => !revoked.includes(i.id)) } }),
      PartyPage_revokeInvite: (call) => (revoked.push(String(call.variables.inviteId)), { data: { revokeInvite: true } }),
    });
    fireEvent.click(screen.getByRole('tab', { name: /^Host/ }));
    const list = await screen.findByRole('list', { name: 'Working invites' });
    const rows = within(list).getAllByRole('listitem');
    // Working ones only, newest first; revoked and expired ones are of no use to revoke.
    expect(rows.map((r) => r.querySelector('.party-invite-code')?.textContent)).toEqual(['•••••-•QD7K', '•••••-•M9XT']);
    expect(rows[0]!.textContent).toContain(new Date('2030-01-05T10:00:00.000Z').toLocaleString());
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Revoke invite ending M9XT' }));
    await waitFor(() => expect(revoked).toEqual(['inv-2']));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list).getByRole('button', { name: 'Revoke invite ending QD7K' })).toBeTruthy();
  });

  it("an invite leaves the host's list the moment it expires, with nothing fetched again", async () => {
    // The page's clock is jest's, running at real speed, so the expiry can be reached at once by
    // moving it (a real 1.5 s could pass before the list is even shown on a busy machine).
    jest.useFakeTimers({ advanceTimers: true, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const soon = new Date(Date.now() + 60_000).toISOString();
      let fetched = 0;
      await open(party(), {
        PartyPage_invites: () => (fetched++, { data: { partyInvites: [invite('inv-2', 'M9XT', soon), invite('inv-3', 'QD7K', '2030-01-05T10:00:00.000Z')] } }),
      });
      fireEvent.click(screen.getByRole('tab', { name: /^Host/ }));
      const list = await screen.findByRole('list', { name: 'Working invites' });
      expect(within(list).getAllByRole('listitem')).toHaveLength(2);
      const before = fetched;
      // Its timer may fire while Date.now() is still a millisecond short of the expiry (timers run on the
      // event loop's clock): the invite must go all the same (it once stayed listed for good).
      const clock = Date.now;
      const lagging = jest.spyOn(Date, 'now').mockImplementation(() => clock() - 1);
      act(() => jest.advanceTimersByTime(60_000));
      await waitFor(() => expect(within(list).queryByRole('button', { name: 'Revoke invite ending M9XT' })).toBeNull());
      expect(within(list).getAllByRole('listitem')).toHaveLength(1);
      expect(within(list).getByRole('button', { name: 'Revoke invite ending QD7K' })).toBeTruthy();
      expect(fetched).toBe(before);
      lagging.mockRestore();
    } finally {
      jest.restoreAllMocks();
      jest.useRealTimers();
    }
  });

  it('the host changes who pays and the round time', async () => {
    const saved: unknown[] = [];
    await open(party(), {
      PartyPage_settings: (call) => (saved.push(call.variables), { data: { updatePartySettings: partyFields({ hostPays: true, roundSeconds: 600 }) } }),
    });
    fireEvent.click(screen.getByRole('tab', { name: /^Host/ }));
    const form = screen.getByRole('form', { name: 'Party settings' });
    const save = within(form).getByRole('button', { name: 'Save settings' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true); // nothing changed yet
    fireEvent.change(within(form).getByLabelText('Round time'), { target: { value: '600' } });
    fireEvent.click(within(form).getByLabelText('I pay for every chapter'));
    fireEvent.click(save);
    await waitFor(() => expect(saved).toEqual([{ partyId: 'p-1', input: { hostPays: true, roundSeconds: 600 } }]));
  });

  it('streams the round’s chapter to every member as it is written', async () => {
    const { subscriptions } = await open(party({}, [chapter(0)]), {});
    const channel = await subscriptions.channel('PartyPage_updated');
    act(() => channel.emit(update('round_closed', { round: 1, roundState: 'writing' })));
    const stream = await subscriptions.channel('ChapterStream_party');
    expect(stream.variables).toEqual({ partyId: 'p-1', chapterId: null });
    expect(screen.getByTestId('party-hint').textContent).toBe('The storyteller is writing the chapter…');
    act(() =>
      stream.emit({
        partyChapterStream: {
          __typename: 'ChapterStreamEvent',
          chapterId: 'ch-1',
          index: 1,
          take: 0,
          status: 'generating',
          offset: 0,
          delta: 'The bell tolls.',
          errorCode: null,
          error: null,
          errorHint: null,
          choices: null,
          result: null,
        },
      }),
    );
    const live = await screen.findByTestId('live-chapter');
    await waitFor(() => expect(live.textContent).toContain('The bell tolls.'));
  });

  it('an answer that arrives after a later event does not put the older round state back', async () => {
    let channel: Awaited<ReturnType<Awaited<ReturnType<typeof open>>['subscriptions']['channel']>> | null = null;
    const { subscriptions } = await open(party(), {
      PartyPage_act: () => {
        // The round closed, its chapter was written and the next round began before this answer came.
        act(() => channel!.emit(update('chapter_written', { round: 1 })));
        return { data: { submitPartyAction: partyFields({ roundState: 'writing' }) } };
      },
      PartyPage_story: () => ({ data: { party: party({ round: 1 }, [chapter(0), chapter(1)]) } }),
    });
    channel = await subscriptions.channel('PartyPage_updated');
    fireEvent.change(screen.getByPlaceholderText('Or type your own action...'), { target: { value: 'Run' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getAllByTestId('chapter')).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('party-hint').textContent).toBe('Round 2: what does Kael do?');
  });

  it("the story's owner undid the round's chapter: the story is read again and the round is open with its actions", async () => {
    const { subscriptions } = await open(party({ round: 1 }, [chapter(0), chapter(1)]), {
      PartyPage_story: () => ({ data: { party: party({ round: 0 }, [chapter(0)]) } }),
    });
    expect(screen.getAllByTestId('chapter')).toHaveLength(2);
    const channel = await subscriptions.channel('PartyPage_updated');
    act(() => channel.emit(update('story_changed', { round: 0, members: [member(1, { hasActed: true }), member(2, { hasActed: true }), member(3)] })));
    await waitFor(() => expect(screen.getAllByTestId('chapter')).toHaveLength(1));
    expect(screen.getByText('2 of 3 have acted.')).toBeTruthy();
  });

  it('a refusal from the server is shown with its message and code', async () => {
    const error = jest.spyOn(toast, 'error');
    await open(party(), { PartyPage_act: () => gqlError('CONFLICT', 'This party has ended.', { reason: 'ended' }) });
    fireEvent.change(screen.getByPlaceholderText('Or type your own action...'), { target: { value: 'Run' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('This party has ended. (ended)'));
  });

  it('a member removed meanwhile is told and sent to their characters', async () => {
    const info = jest.spyOn(toast, 'info');
    const { subscriptions, router } = await open(party(guestView));
    const channel = await subscriptions.channel('PartyPage_updated');
    act(() => channel.emit(update('removed', null)));
    await waitFor(() => expect(router.state.location.pathname).toBe('/characters'));
    expect(info).toHaveBeenCalledWith('You are no longer in this party.');
  });

  it('"Previously…" lists what happened since your last turn', async () => {
    await open(party(), {
      PartyPage_previously: () => ({
        data: { partyPreviously: [{ __typename: 'PartyPreviously', index: 0, playerChoice: 'Tomas: opens the gate.', gist: 'The gate creaks open.' }] },
      }),
    });
    const box = await screen.findByRole('region', { name: 'Previously…' });
    expect(box.textContent).toContain('Tomas: opens the gate.');
    fireEvent.click(within(box).getByRole('button', { name: 'Hide' }));
    expect(screen.queryByRole('region', { name: 'Previously…' })).toBeNull();
  });

  it("shows each player's own dice with a round's chapter, named: the hero's and every companion's", async () => {
    const round = chapter(1, {
      playerChoice: 'Kael: climbs the wall. Tomas: attacks the guard. Mira: looks around.',
      check: check(12, 'success', { stat: 'agility', difficulty: 12, modifier: 0, total: 12 }),
      stakes: null,
      partyChecks: [
        { __typename: 'PartyMemberCheck', name: 'Tomas', check: check(15, 'success') },
        // Mira's part was routine: no roll, no line.
        { __typename: 'PartyMemberCheck', name: 'Mira', check: null },
      ],
    });
    await open(party({ round: 2 }, [chapter(0), round]));
    const dice = await screen.findByRole('list', { name: "Each player's dice" });
    const rows = within(dice).getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('.party-dice-name')?.textContent)).toEqual(['Kael', 'Tomas']);
    expect(within(rows[0]!).getByRole('img', { name: 'Dice: Agility check against 12: rolled 12, total 12. Success.' })).toBeTruthy();
    expect(within(rows[1]!).getByRole('img', { name: 'Dice: Strength check against 14: rolled 15 + 1 for Strength, total 16. Success.' })).toBeTruthy();
    // One list: the opening chapter had no dice.
    expect(screen.getAllByRole('list', { name: "Each player's dice" })).toHaveLength(1);
  });
});

import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify/unstyled';
import { errorCode, withHint } from '../../apollo/graphql-errors';
import { PageLoader } from '../../components/layout/PageLoader';
import { ConfirmDialog } from '../../components/ui/Modal';
import {
  usePartyPage_actMutation,
  usePartyPage_banMutation,
  usePartyPage_closeRoundMutation,
  usePartyPage_endMutation,
  usePartyPage_inviteMutation,
  usePartyPage_invitesQuery,
  usePartyPage_kickMutation,
  usePartyPage_leaveMutation,
  usePartyPage_lockMutation,
  usePartyPage_partyQuery,
  usePartyPage_previouslyQuery,
  usePartyPage_revokeInviteMutation,
  usePartyPage_settingsMutation,
  usePartyPage_storyLazyQuery,
  usePartyPage_transferHostMutation,
  usePartyPage_updatedSubscription,
  type PartyMemberFieldsFragment,
} from '../../gql/graphql';
import { MESSAGES } from '../../lib/messages';
import { useAuth } from '../auth/auth-context';
import { ChapterList } from '../story/ChapterList';
import { PartyDice } from './PartyDice';
import { Composer, useComposerDraft } from '../story/Composer';
import { StoryTools, type StoryTool } from '../story/tools/StoryTools';
import { useChapterStream, type StreamEnd } from '../story/useChapterStream';
import { partyError } from './party-errors';
import { PartySettings } from './PartySettings';
import { HostControls, InviteDialog, MembersPanel, RoundStatus, seated, type CreatedInvite, type MemberAction } from './PartyPanels';
import '../story/story.css';
import './party.css';

/**
 * The party's state is written to the cache by partyUpdated alone, whose events arrive in order. A
 * mutation's answer (HTTP) can arrive after a later event (WebSocket) — the offline storyteller
 * writes a round's chapter in milliseconds — and would put the older round state back: the page
 * would wait on "writing" for good. The event each change publishes updates the page instead.
 */
const NO_CACHE = { fetchPolicy: 'no-cache' } as const;

type Confirm = { kind: MemberAction; member: PartyMemberFieldsFragment } | { kind: 'end' } | { kind: 'leave' };

/**
 * A party (issue 34): the shared story, streamed to every member as it is written; the players and
 * their characters; the round (live) or turn (by post) with its countdown; the action box; and the
 * host's controls. Live state comes from partyUpdated (written into the cache by the party's id).
 */
export default function PartyPage() {
  const { id = '' } = useParams();
  const ids = useId();
  const navigate = useNavigate();
  const meId = useAuth().user?.id ?? null;
  const { data, error, refetch } = usePartyPage_partyQuery({ variables: { id }, fetchPolicy: 'cache-and-network' });
  const previously = usePartyPage_previouslyQuery({ variables: { partyId: id }, fetchPolicy: 'network-only' });
  const [previouslyClosed, setPreviouslyClosed] = useState(false);
  const party = data?.party;
  // The host's invites, whichever visit made them (members are not asked: the server refuses them).
  const hosting = Boolean(party && party.hostUserId === meId && party.status === 'open');
  const hostInvites = usePartyPage_invitesQuery({ variables: { partyId: id }, skip: !hosting, fetchPolicy: 'network-only' });

  const [act, actState] = usePartyPage_actMutation(NO_CACHE);
  const [closeRound, closeState] = usePartyPage_closeRoundMutation(NO_CACHE);
  const [invite, inviteState] = usePartyPage_inviteMutation();
  const [revoke, revokeState] = usePartyPage_revokeInviteMutation();
  const [kick, kickState] = usePartyPage_kickMutation(NO_CACHE);
  const [ban, banState] = usePartyPage_banMutation(NO_CACHE);
  const [lock, lockState] = usePartyPage_lockMutation(NO_CACHE);
  const [transfer, transferState] = usePartyPage_transferHostMutation(NO_CACHE);
  const [end, endState] = usePartyPage_endMutation(NO_CACHE);
  const [leave, leaveState] = usePartyPage_leaveMutation();
  const [saveSettings, settingsState] = usePartyPage_settingsMutation(NO_CACHE);
  const hostBusy =
    closeState.loading ||
    inviteState.loading ||
    revokeState.loading ||
    kickState.loading ||
    banState.loading ||
    lockState.loading ||
    transferState.loading ||
    endState.loading ||
    settingsState.loading;

  const draft = useComposerDraft();
  /** What I sent this round (live: shown, and replaced by sending again). */
  const [sent, setSent] = useState<{ round: number; text: string } | null>(null);
  /** The invite just made: its code is shown this once. */
  const [shown, setShown] = useState<CreatedInvite | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const bottom = useRef<HTMLDivElement>(null);

  // After a chapter only the story is read again: the party's state comes from partyUpdated and the
  // mutations' answers (see PartyPage_story).
  const [loadStory] = usePartyPage_storyLazyQuery({ fetchPolicy: 'network-only' });
  const reload = useCallback(() => loadStory({ variables: { id } }).catch(() => undefined), [loadStory, id]);
  const onStreamEnd = useCallback(
    async (e: StreamEnd) => {
      if (e.failed && !e.stopped) toast.error(withHint(MESSAGES.chapterFailed, e.hint));
      await reload();
    },
    [reload],
  );
  const { live, follow } = useChapterStream(party?.storyCharacterId ?? '', onStreamEnd);

  usePartyPage_updatedSubscription({
    variables: { partyId: id },
    onData: ({ data: update }) => {
      const u = update.data?.partyUpdated;
      if (!u) return;
      if (u.reason === 'removed' || !u.party) {
        toast.info(MESSAGES.partyRemoved);
        void navigate('/characters', { replace: true });
        return;
      }
      if (['chapter_written', 'chapter_failed', 'round_reopened', 'turn_skipped', 'story_changed'].includes(u.reason)) void reload();
    },
  });

  const chapters = useMemo(() => (party?.story.chapters ?? []).filter((c) => c.status === 'complete'), [party?.story.chapters]);
  const latest = chapters.at(-1);
  // Each player's own dice with each chapter (the hero's is the story owner's character).
  const heroName = party?.members.find((m) => m.isStoryOwner)?.characterName ?? 'The hero';
  const diceOf = useCallback(
    (chapterId: string) => {
      const c = chapters.find((x) => x.id === chapterId);
      return c ? <PartyDice chapter={c} heroName={heroName} /> : null;
    },
    [chapters, heroName],
  );

  // The round's chapter is being written: stream it (once per round; a reload picks it up again).
  const followed = useRef<number | null>(null);
  useEffect(() => {
    if (!party || live) return;
    const writing = party.roundState === 'writing' || Boolean(party.story.generatingChapterId);
    if (!writing || followed.current === party.round) return;
    followed.current = party.round;
    follow({ kind: 'party', partyId: party.id, chapterId: party.story.generatingChapterId ?? null }, null, chapters.length === 0);
  }, [party, live, follow, chapters.length]);

  useEffect(() => {
    if (live?.text) bottom.current?.scrollIntoView?.({ block: 'end', behavior: 'smooth' });
  }, [live?.text]);

  if (error && !data) {
    const notFound = errorCode(error) === 'NOT_FOUND' || errorCode(error) === 'BAD_USER_INPUT';
    return (
      <main className="page">
        <div className="notice" role="alert">
          <p>{notFound ? 'This party does not exist, or you are not in it.' : MESSAGES.partyLoadFailed}</p>
          {notFound ? (
            <Link className="btn btn-ghost" to="/characters">
              Your characters and parties
            </Link>
          ) : (
            <button type="button" className="btn btn-ghost" onClick={() => void refetch()}>
              Try Again
            </button>
          )}
        </div>
      </main>
    );
  }
  if (!party) return <PageLoader label="Loading the party…" />;

  const members = seated(party);
  const me = members.find((m) => m.userId === meId) ?? null;
  const isHost = party.hostUserId === meId;
  const owner = members.find((m) => m.isStoryOwner);
  const open = party.status === 'open';
  const myTurn = party.mode === 'live' || party.turnUserId === meId;
  const canAct = open && party.roundState === 'collecting' && myTurn && !live;
  const mySent = sent && sent.round === party.round && me?.hasActed ? sent.text : null;

  const host = async (fail: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      return true;
    } catch (e) {
      toast.error(partyError(e, fail));
      return false;
    }
  };

  const onSend = (action: string) =>
    void host(MESSAGES.partyActionFailed, async () => {
      await act({ variables: { partyId: party.id, action } });
      setSent({ round: party.round, text: action });
      draft.clear();
    });

  const onInvite = () =>
    void host(MESSAGES.partyInviteFailed, async () => {
      const { data: r } = await invite({ variables: { partyId: party.id } });
      if (!r) return;
      setShown({ ...r.partyInvite, revoked: false });
      void hostInvites.refetch().catch(() => undefined);
    });

  const onRevoke = (inviteId: string) =>
    void host(MESSAGES.partyHostActionFailed, async () => {
      await revoke({ variables: { inviteId } });
      setShown((i) => (i?.id === inviteId ? { ...i, revoked: true } : i));
      await hostInvites.refetch().catch(() => undefined);
    });

  const onConfirmed = async (c: Confirm) => {
    setConfirm(null);
    if (c.kind === 'leave') {
      const ok = await host(MESSAGES.partyLeaveFailed, () => leave({ variables: { partyId: party.id } }));
      if (ok) void navigate('/characters');
      return;
    }
    await host(MESSAGES.partyHostActionFailed, async () => {
      if (c.kind === 'end') await end({ variables: { partyId: party.id } });
      else if (c.kind === 'kick') await kick({ variables: { partyId: party.id, userId: c.member.userId } });
      else if (c.kind === 'ban') await ban({ variables: { partyId: party.id, userId: c.member.userId } });
      else await transfer({ variables: { partyId: party.id, userId: c.member.userId } });
    });
  };

  const tools: StoryTool[] = [
    {
      id: 'players',
      label: 'Players',
      icon: '☷',
      badge: members.length,
      content: (
        <>
          <RoundStatus party={party} meId={meId} />
          <MembersPanel party={party} meId={meId} isHost={isHost} onMemberAction={(kind, member) => setConfirm({ kind, member })} />
        </>
      ),
    },
  ];
  if (isHost)
    tools.push({
      id: 'host',
      label: 'Host',
      icon: '♛',
      badge: party.locked ? 'locked' : null,
      content: (
        <HostControls
          party={party}
          invites={(hostInvites.data?.partyInvites ?? []).filter((i) => i.working)}
          busy={hostBusy}
          onInvite={onInvite}
          onRevoke={onRevoke}
          onLock={(locked) => void host(MESSAGES.partyHostActionFailed, () => lock({ variables: { partyId: party.id, locked } }))}
          onCloseRound={() => void host(MESSAGES.partyHostActionFailed, () => closeRound({ variables: { partyId: party.id } }))}
          onEnd={() => setConfirm({ kind: 'end' })}
          settings={
            <PartySettings
              key={`${party.hostPays}-${party.roundSeconds}-${party.turnSeconds}`}
              party={party}
              busy={hostBusy}
              onSave={(input) =>
                void host(MESSAGES.partyHostActionFailed, async () => {
                  await saveSettings({ variables: { partyId: party.id, input } });
                  toast.success(MESSAGES.partySettingsSaved);
                })
              }
            />
          }
        />
      ),
    });

  const entries = previously.data?.partyPreviously ?? [];
  const previouslyBox =
    entries.length > 0 && !previouslyClosed ? (
      <section className="previously" aria-labelledby={`${ids}-previously`} data-reading-start>
        <h2 id={`${ids}-previously`}>Previously…</h2>
        <ul className="party-previously">
          {entries.map((e) => (
            <li key={e.index}>
              {e.playerChoice && <strong>{e.playerChoice} </strong>}
              {e.gist}
            </li>
          ))}
        </ul>
        <button type="button" className="story-button story-button-ghost" onClick={() => setPreviouslyClosed(true)}>
          Hide
        </button>
      </section>
    ) : null;

  const turnMember = members.find((m) => m.userId === party.turnUserId);
  let hint: string;
  if (!open) hint = 'This party has ended. Its story stays here to read.';
  else if (party.roundState === 'writing' || live) hint = 'The storyteller is writing the chapter…';
  else if (party.mode === 'post' && !myTurn)
    hint = turnMember ? `Waiting for ${turnMember.characterName} (${turnMember.username}) to take their turn.` : 'Waiting for the next turn.';
  else if (party.mode === 'post') hint = 'Your turn! What does your character do?';
  else if (me?.hasActed)
    hint = mySent ? `Your action this round: “${mySent}”. Send another to replace it.` : 'You have acted this round. Send another action to replace it.';
  else hint = `Round ${party.round + 1}: what does ${me?.characterName ?? 'your character'} do?`;

  const confirmText = (c: Confirm) => {
    switch (c.kind) {
      case 'kick':
        return {
          title: `Kick ${c.member.characterName}?`,
          message: `${c.member.username} leaves the party now. They may come back with a working invite code.`,
          label: 'Kick',
        };
      case 'ban':
        return {
          title: `Ban ${c.member.characterName}?`,
          message: `${c.member.username} leaves the party now and can never join it again, with any code.`,
          label: 'Ban',
        };
      case 'host':
        return {
          title: `Make ${c.member.username} the host?`,
          message: 'They get the host controls (invites, kick, ban, end the party); you become a player.',
          label: 'Hand over host',
        };
      case 'end':
        return { title: 'End the party?', message: 'Nobody can act any more. Everyone can still read the story here.', label: 'End party' };
      case 'leave':
        return {
          title: 'Leave the party?',
          message: me?.isStoryOwner
            ? 'The party story is your storyline: if you leave, the party ends for everyone.'
            : 'You leave the party now. You may come back with a working invite code.',
          label: 'Leave party',
        };
    }
  };
  const c = confirm ? confirmText(confirm) : null;

  return (
    <main className="story-page party-page" aria-labelledby={`${ids}-title`}>
      <header className="story-top">
        <div>
          <h1 id={`${ids}-title`} className="story-title">
            {owner ? `${owner.characterName}'s party` : 'Party'}
          </h1>
          <p className="story-world">
            {party.mode === 'live' ? 'Live rounds' : 'By post'} · {members.length} {members.length === 1 ? 'player' : 'players'}
            {!open && ' · ended'}
            {party.hostPays && ' · the host pays'}
          </p>
        </div>
        <div className="story-top-actions">
          {me && open && (
            <button type="button" className="story-button" onClick={() => setConfirm({ kind: 'leave' })} disabled={leaveState.loading}>
              Leave party
            </button>
          )}
          <button type="button" className="story-button" onClick={() => navigate('/characters')}>
            Close
          </button>
        </div>
      </header>

      <div className="story-layout">
        <section className="story-main" aria-label="Story">
          {chapters.length === 0 && !live && <p className="story-start">The story begins with the first round&apos;s actions.</p>}
          <ChapterList chapters={chapters} live={live} beforeLatest={previouslyBox} diceOf={diceOf} />
          {chapters.length === 0 && previouslyBox}
          <div className={`party-turn-hint ${party.mode === 'post' && myTurn && open ? 'is-your-turn' : ''}`} role="status" data-testid="party-hint">
            {hint}
          </div>
          {canAct && (
            <Composer
              choices={latest?.choices ?? []}
              selected={draft.selected}
              typed={draft.typed}
              busy={actState.loading}
              onSelect={draft.onSelect}
              onType={draft.onType}
              onSend={onSend}
            />
          )}
          <div ref={bottom} />
        </section>
        <StoryTools tools={tools} />
      </div>

      {shown && (
        <InviteDialog
          invite={shown}
          onRevoke={() => {
            onRevoke(shown.id);
            setShown(null);
          }}
          onClose={() => setShown(null)}
        />
      )}
      {confirm && c && (
        <ConfirmDialog
          title={c.title}
          message={c.message}
          confirmLabel={c.label}
          onConfirm={() => void onConfirmed(confirm)}
          onCancel={() => setConfirm(null)}
        />
      )}
    </main>
  );
}

import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import type { StreamEvent, StorylineView } from '../stories/story.service';
import { STORYLINE_PAGE_MAX } from '../stories/story-input';
import { presentStreamEvent } from '../stories/story.resolver';
import { ChapterStreamEvent, Storyline } from '../stories/story.types';
import type { PartyInviteInfo, PartyUpdateMessage, PartyView, PreviouslyEntry } from './party.service';
import { CreatePartyInput, Party, PartyInvite, PartyInviteCode, PartyPreviously, PartySettingsInput, PartyUpdate } from './party.types';

/** Party play over GraphQL: thin over PartyService (rules and permissions live there). */
@Resolver(() => Party)
export class PartyResolver {
  @Authorized()
  @Query(() => Party, { description: 'A party you are in (anyone else: NOT_FOUND).' })
  party(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<PartyView> {
    return ctx.services.parties.get(requireUser(ctx).id, id);
  }

  @Authorized()
  @Query(() => [Party], { description: 'Your parties, open ones first.' })
  myParties(@Ctx() ctx: GraphQLContext): Promise<PartyView[]> {
    return ctx.services.parties.mine(requireUser(ctx).id);
  }

  @Authorized()
  @Query(() => [PartyPreviously], { description: '"Previously…": the chapters written since your last turn (or since you joined).' })
  partyPreviously(@Arg('partyId', () => ID) partyId: string, @Ctx() ctx: GraphQLContext): Promise<PreviouslyEntry[]> {
    return ctx.services.parties.previously(requireUser(ctx).id, partyId);
  }

  @Authorized()
  @Query(() => [PartyInvite], { description: "Host: the party's invites, newest first (ids to revoke; never the codes)." })
  partyInvites(@Arg('partyId', () => ID) partyId: string, @Ctx() ctx: GraphQLContext): Promise<PartyInviteInfo[]> {
    return ctx.services.parties.invites(requireUser(ctx).id, partyId);
  }

  @FieldResolver(() => Storyline, { description: 'The party story (members only): a page of chapters, oldest first, as Character.storyline pages it.' })
  story(
    @Root() p: PartyView,
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { defaultValue: 50, description: `1–${STORYLINE_PAGE_MAX}` }) limit: number,
    @Arg('beforeIndex', () => Int, { nullable: true }) beforeIndex?: number | null,
  ): Promise<StorylineView> {
    return ctx.services.parties.storyline(requireUser(ctx).id, p.id, { limit, beforeIndex }, ctx.loaders);
  }

  @Authorized()
  @Mutation(() => Party, { description: 'Starts a party on your saved character’s storyline; you are its host. Also POST /api/parties.' })
  createParty(@Arg('input', () => CreatePartyInput) input: CreatePartyInput, @Ctx() ctx: GraphQLContext): Promise<PartyView> {
    return ctx.services.parties.create(requireUser(ctx).id, { ...input });
  }

  @Authorized()
  @Mutation(() => PartyInviteCode, { description: 'Host: a new invite code (expires after `hours`, default PARTY_INVITE_HOURS = 48).' })
  partyInvite(
    @Arg('partyId', () => ID) partyId: string,
    @Arg('hours', () => Int, { nullable: true }) hours: number | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<PartyInviteCode> {
    return ctx.services.parties.createInvite(requireUser(ctx).id, partyId, hours);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Host: revokes an invite code; false when it was revoked already.' })
  revokeInvite(@Arg('inviteId', () => ID) inviteId: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.services.parties.revokeInvite(requireUser(ctx).id, inviteId);
  }

  @Authorized()
  @Mutation(() => Party, {
    description:
      "Joins a party with an invite code and one of your saved characters in the party's world. FORBIDDEN (reason invite_expired, invite_revoked, banned), CONFLICT (ended, locked, full, already_member), NOT_FOUND (no such code). Also POST /api/parties/join.",
  })
  joinParty(@Arg('code') code: string, @Arg('characterId', () => ID) characterId: string, @Ctx() ctx: GraphQLContext): Promise<PartyView> {
    return ctx.services.parties.join(requireUser(ctx).id, code, characterId);
  }

  @Authorized()
  @Mutation(() => Party, {
    description:
      'Your action: live, one per round (sending again replaces it; the round closes when every member has acted); by post, on your turn only (it closes the turn). Closing starts one chapter, paid by the acting player (or the host with hostPays). Also POST /api/parties/{id}/act.',
  })
  submitPartyAction(@Arg('partyId', () => ID) partyId: string, @Arg('action') action: string, @Ctx() ctx: GraphQLContext): Promise<PartyView> {
    return ctx.services.parties.act(requireUser(ctx).id, partyId, action);
  }

  @Authorized()
  @Mutation(() => Party, {
    description: 'Host (live): closes the round now with the actions sent so far; the host pays. Also POST /api/parties/{id}/close-round.',
  })
  closePartyRound(@Arg('partyId', () => ID) partyId: string, @Ctx() ctx: GraphQLContext): Promise<PartyView> {
    return ctx.services.parties.closeRoundNow(requireUser(ctx).id, partyId);
  }

  @Authorized()
  @Mutation(() => Party, { description: 'Host: removes a member at once (they may rejoin with a working code unless banned).' })
  kickPartyMember(@Arg('partyId', () => ID) partyId: string, @Arg('userId', () => ID) userId: string, @Ctx() ctx: GraphQLContext): Promise<PartyView> {
    return ctx.services.parties.kick(requireUser(ctx).id, partyId, userId);
  }

  @Authorized()
  @Mutation(() => Party, { description: 'Host: removes a player and refuses them with every code from now on.' })
  banPartyMember(@Arg('partyId', () => ID) partyId: string, @Arg('userId', () => ID) userId: string, @Ctx() ctx: GraphQLContext): Promise<PartyView> {
    return ctx.services.parties.ban(requireUser(ctx).id, partyId, userId);
  }

  @Authorized()
  @Mutation(() => Party, { description: 'Host: locks (no new joins) or unlocks the party.' })
  lockParty(
    @Arg('partyId', () => ID) partyId: string,
    @Arg('locked', () => Boolean, { defaultValue: true }) locked: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<PartyView> {
    return ctx.services.parties.lock(requireUser(ctx).id, partyId, locked);
  }

  @Authorized()
  @Mutation(() => Party, { description: "Host: hands the host's controls to another member." })
  transferPartyHost(@Arg('partyId', () => ID) partyId: string, @Arg('userId', () => ID) userId: string, @Ctx() ctx: GraphQLContext): Promise<PartyView> {
    return ctx.services.parties.transferHost(requireUser(ctx).id, partyId, userId);
  }

  @Authorized()
  @Mutation(() => Party, { description: 'Host: who pays and the timers (from the next round or turn).' })
  updatePartySettings(
    @Arg('partyId', () => ID) partyId: string,
    @Arg('input', () => PartySettingsInput) input: PartySettingsInput,
    @Ctx() ctx: GraphQLContext,
  ): Promise<PartyView> {
    return ctx.services.parties.updateSettings(requireUser(ctx).id, partyId, { ...input });
  }

  @Authorized()
  @Mutation(() => Party, { description: 'Host: ends the party for everyone (members can still read its story here).' })
  endParty(@Arg('partyId', () => ID) partyId: string, @Ctx() ctx: GraphQLContext): Promise<PartyView> {
    return ctx.services.parties.end(requireUser(ctx).id, partyId);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: "Leaves the party (a leaving host's controls pass on; the story owner leaving ends it)." })
  leaveParty(@Arg('partyId', () => ID) partyId: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.services.parties.leave(requireUser(ctx).id, partyId);
  }

  @Authorized()
  @Subscription(() => PartyUpdate, {
    description:
      'A party’s live state (members only): a snapshot, then every change — members, round state, who has acted. Works across instances with REDIS_URL.',
    subscribe: async ({ args, context }) => {
      const ctx = context as GraphQLContext;
      return ctx.services.parties.watch(requireUser(ctx).id, args.partyId);
    },
  })
  partyUpdated(@Root() m: PartyUpdateMessage, @Arg('partyId', () => ID) _partyId: string): PartyUpdateMessage {
    return m;
  }

  @Authorized()
  @Subscription(() => ChapterStreamEvent, {
    description: 'The party story’s chapter stream (members only), as chapterStream: the chapter being written (or the given one), then the rest.',
    subscribe: async ({ args, context }) => {
      const ctx = context as GraphQLContext;
      return ctx.services.parties.openStream(requireUser(ctx).id, args.partyId, args.chapterId);
    },
  })
  partyChapterStream(
    @Root() e: StreamEvent,
    @Arg('partyId', () => ID) _partyId: string,
    @Arg('chapterId', () => ID, { nullable: true }) _chapterId?: string,
  ): ChapterStreamEvent {
    return presentStreamEvent(e);
  }
}

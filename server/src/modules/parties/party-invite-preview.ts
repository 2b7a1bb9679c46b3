/**
 * What the join screen shows before a player joins a party with an invite code (issue 34): the
 * party's world (to list the player's characters in it), its host, how many play, its mode and
 * whether the code still works — the rule is PartyService.previewInvite; joining stays
 * PartyService.join. Also the credits one party chapter costs, for the create dialog to state them.
 */
import { Arg, Authorized, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';

@ObjectType({ description: "A party invite as the join screen shows it (before joining). Nothing of the party's story." })
export class PartyInvitePreview {
  @Field(() => ID) worldId: string;
  @Field(() => String, { nullable: true, description: 'Null when the world is gone.' }) worldName: string | null;
  @Field() hostUsername: string;
  @Field(() => Int) memberCount: number;
  @Field(() => Int) maxMembers: number;
  @Field(() => String, { description: 'live or post.' }) mode: string;
  @Field({ description: 'The host pays for every chapter (otherwise the acting player does).' }) hostPays: boolean;
  @Field(() => Int, { description: 'Credits one party chapter costs its payer (PARTY_CHAPTER_CREDITS).' }) chapterCredits: number;
  @Field() full: boolean;
  @Field() locked: boolean;
  @Field() ended: boolean;
  @Field() expired: boolean;
  @Field() revoked: boolean;
  @Field(() => ID, { nullable: true, description: 'Set when you are already a member: the party to open instead of joining.' })
  memberOfPartyId: string | null;
}

@Resolver()
export class PartyInvitePreviewResolver {
  @Authorized()
  @Query(() => PartyInvitePreview, { nullable: true, description: 'What an invite code leads to, before joining (null: no such code).' })
  async partyInvitePreview(@Arg('code') code: string, @Ctx() ctx: GraphQLContext): Promise<PartyInvitePreview | null> {
    return ctx.services.parties.previewInvite(requireUser(ctx).id, code);
  }

  @Authorized()
  @Query(() => Int, { description: 'Credits one party chapter costs its payer (PARTY_CHAPTER_CREDITS; 0 = free).' })
  partyChapterCredits(@Ctx() ctx: GraphQLContext): number {
    requireUser(ctx);
    return ctx.services.config.party.chapterCredits;
  }
}

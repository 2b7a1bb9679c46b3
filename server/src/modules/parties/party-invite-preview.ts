/**
 * What the join screen shows before a player joins a party with an invite code (issue 34): the
 * party's world (to list the player's characters in it), its host, how many play, its mode and
 * whether the code still works. Read only; joining stays PartyService.join. Also the credits one
 * party chapter costs, for the create dialog to state them.
 */
import { Arg, Authorized, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { PartyInvite } from './party.entity';
import { inviteCodeHash, PARTY_MAX_MEMBERS } from './party-rules';

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

interface PreviewRow {
  party_id: string;
  world_id: string;
  world_name: string | null;
  host_username: string | null;
  member_count: number;
  mode: string;
  host_pays: boolean;
  locked: boolean;
  status: string;
}

@Resolver()
export class PartyInvitePreviewResolver {
  @Authorized()
  @Query(() => PartyInvitePreview, { nullable: true, description: 'What an invite code leads to, before joining (null: no such code).' })
  async partyInvitePreview(@Arg('code') code: string, @Ctx() ctx: GraphQLContext): Promise<PartyInvitePreview | null> {
    const me = requireUser(ctx).id;
    const hash = inviteCodeHash(code);
    if (!hash) return null;
    const ds = ctx.services.dataSource;
    const invite = await ds.getRepository(PartyInvite).findOne({ where: { codeHash: hash } });
    if (!invite) return null;
    const [row] = (await ds.query(
      `SELECT p.id AS party_id, p.world_id, w.name AS world_name, u.username AS host_username, p.mode, p.host_pays, p.locked, p.status,
              (SELECT COUNT(*)::int FROM party_members m WHERE m.party_id = p.id) AS member_count
         FROM parties p
         LEFT JOIN worlds w ON w.id = p.world_id
         LEFT JOIN users u ON u.id = COALESCE(p.host_user_id, p.story_owner_id)
        WHERE p.id = $1`,
      [invite.partyId],
    )) as PreviewRow[];
    if (!row) return null;
    const member = (await ds.query(`SELECT 1 FROM party_members WHERE party_id = $1 AND user_id = $2`, [row.party_id, me])) as unknown[];
    const count = Number(row.member_count);
    return {
      worldId: row.world_id,
      worldName: row.world_name,
      hostUsername: row.host_username ?? '',
      memberCount: count,
      maxMembers: PARTY_MAX_MEMBERS,
      mode: row.mode,
      hostPays: row.host_pays,
      chapterCredits: ctx.services.config.party.chapterCredits,
      full: count >= PARTY_MAX_MEMBERS,
      locked: row.locked,
      ended: row.status !== 'open',
      expired: invite.expiresAt.getTime() <= Date.now(),
      revoked: invite.revokedAt !== null,
      memberOfPartyId: member.length > 0 ? row.party_id : null,
    };
  }

  @Authorized()
  @Query(() => Int, { description: 'Credits one party chapter costs its payer (PARTY_CHAPTER_CREDITS; 0 = free).' })
  partyChapterCredits(@Ctx() ctx: GraphQLContext): number {
    requireUser(ctx);
    return ctx.services.config.party.chapterCredits;
  }
}

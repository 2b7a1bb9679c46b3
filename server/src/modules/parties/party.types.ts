import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { PartyMode as Mode, PartyStatus as Status, RoundState as State } from './party.entity';

const PartyModeEnum = { live: 'live', post: 'post' } as const satisfies Record<Mode, Mode>;
registerEnumType(PartyModeEnum, {
  name: 'PartyMode',
  description: 'How a party plays.',
  valuesConfig: {
    live: { description: 'Rounds: every member sends one action; the round closes when all have acted, the host closes it, or its timer ends.' },
    post: { description: 'Turns in seat order; each member has turnSeconds to act, else the turn is skipped.' },
  },
});
const PartyStatusEnum = { open: 'open', ended: 'ended' } as const satisfies Record<Status, Status>;
registerEnumType(PartyStatusEnum, { name: 'PartyStatus' });
const PartyRoundStateEnum = { collecting: 'collecting', writing: 'writing' } as const satisfies Record<State, State>;
registerEnumType(PartyRoundStateEnum, {
  name: 'PartyRoundState',
  description: 'collecting: members act; writing: the round’s chapter is being written (follow it with partyChapterStream).',
});

@ObjectType({ description: 'A player in a party and the saved character they play (their own stats).' })
export class PartyMember {
  @Field(() => ID) userId: string;
  @Field() username: string;
  @Field(() => ID) characterId: string;
  @Field() characterName: string;
  @Field(() => GraphQLJSONObject, {
    description:
      "The member's stats in this party: copied from their saved character when they joined and grown only by their own checks in the party's rounds (the story's owner: the story character's).",
  })
  stats: Record<string, number>;
  @Field(() => Int, { description: 'Turn order (by post) and the order of a round’s actions.' }) seat: number;
  @Field() isHost: boolean;
  @Field({ description: 'The party story is this member’s character’s storyline.' }) isStoryOwner: boolean;
  @Field({ description: 'Has an action in the current round (or turn).' }) hasActed: boolean;
  @Field(() => Date) joinedAt: string;
}

@ObjectType({ description: 'A party: one storyline (the story owner’s character’s) played by up to 6 players (issue 34). Members only.' })
export class Party {
  @Field(() => ID) id: string;
  @Field(() => PartyModeEnum) mode: Mode;
  @Field(() => PartyStatusEnum) status: Status;
  @Field(() => ID) hostUserId: string;
  @Field(() => ID, { description: 'The character whose storyline is the party story.' }) storyCharacterId: string;
  @Field(() => ID) storyOwnerId: string;
  @Field(() => ID) worldId: string;
  @Field({ description: 'The host pays for every chapter (otherwise the acting player does).' }) hostPays: boolean;
  @Field({ description: 'No new joins.' }) locked: boolean;
  @Field(() => Int, { description: 'Live: seconds a round stays open after its first action.' }) roundSeconds: number;
  @Field(() => Int, { description: 'By post: seconds a member has for their turn.' }) turnSeconds: number;
  @Field(() => Int, { description: 'The round (live) or turn (by post) number.' }) round: number;
  @Field(() => PartyRoundStateEnum) roundState: State;
  @Field(() => ID, { nullable: true, description: 'By post: whose turn it is.' }) turnUserId: string | null;
  @Field(() => Date, { nullable: true, description: 'When the live round closes by its timer, or the turn is skipped.' }) deadlineAt: string | null;
  @Field(() => String, { nullable: true, description: "Why the last round's chapter was not written (its actions stay; act again)." })
  lastError: string | null;
  @Field(() => [PartyMember]) members: PartyMember[];
  @Field(() => Date) createdAt: string;
}

@ObjectType({ description: 'A change in a party, with its state after it.' })
export class PartyUpdate {
  @Field(() => ID) partyId: string;
  @Field({
    description:
      'snapshot (first event), joined, acted, round_closed, turn_taken, chapter_written, chapter_failed, round_reopened, turn_skipped, kicked, banned, left, locked, host_changed, settings, ended, or removed (you are no longer a member; the last event).',
  })
  reason: string;
  @Field(() => Party, { nullable: true, description: 'Null only with reason removed.' }) party: Party | null;
}

@ObjectType({ description: 'A new invite code: shown once (only its hash is kept).' })
export class PartyInviteCode {
  @Field(() => ID) id: string;
  @Field({ description: '10 symbols (50 random bits), e.g. 7K3QD-M9XTA; case and dashes do not matter.' }) code: string;
  @Field(() => Date) expiresAt: Date;
}

@ObjectType({ description: 'An invite of a party as its host sees it (the code itself is shown only when it is made).' })
export class PartyInvite {
  @Field(() => ID) id: string;
  @Field(() => String, { nullable: true, description: 'The code masked, •••••-•XXXX (its last 4 symbols): to tell invites apart, not to join with.' })
  maskedCode: string | null;
  @Field(() => Date) createdAt: Date;
  @Field(() => Date) expiresAt: Date;
  @Field(() => Date, { nullable: true }) revokedAt: Date | null;
  @Field({ description: 'Neither revoked nor expired.' }) working: boolean;
}

@ObjectType({ description: '"Previously…": a chapter written since your last turn.' })
export class PartyPreviously {
  @Field(() => Int) index: number;
  @Field(() => String, { nullable: true, description: 'The action it answered (who did what).' }) playerChoice: string | null;
  @Field({ description: 'Its first lines.' }) gist: string;
}

@InputType()
export class CreatePartyInput {
  @Field(() => ID, { description: 'Your saved character whose storyline becomes the party story.' }) characterId: string;
  @Field(() => PartyModeEnum) mode: Mode;
  @Field({ nullable: true, description: 'The host pays for every chapter (default false: the acting player pays).' }) hostPays?: boolean;
  @Field(() => Int, { nullable: true, description: 'Live round timer, 5 s – 7 days (default PARTY_ROUND_SECONDS, 300).' }) roundSeconds?: number;
  @Field(() => Int, { nullable: true, description: 'By-post turn time, 60 s – 30 days (default PARTY_TURN_SECONDS, 86400).' }) turnSeconds?: number;
}

@InputType()
export class PartySettingsInput {
  @Field({ nullable: true }) hostPays?: boolean;
  @Field(() => Int, { nullable: true }) roundSeconds?: number;
  @Field(() => Int, { nullable: true }) turnSeconds?: number;
}

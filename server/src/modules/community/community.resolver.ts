import { Arg, Authorized, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { Character } from '../characters/character.entity';
import type { PublicationView } from './community.service';

@ObjectType({ description: 'A story published as a read-only link.' })
class StoryPublicationInfo implements PublicationView {
  @Field(() => ID)
  id: string;

  @Field({ description: 'The path readers open, e.g. /read/{id} (prefix it with the site address to share it).' })
  path: string;

  @Field()
  publishedAt: Date;

  @Field({ description: 'When the snapshot readers see was last taken.' })
  updatedAt: Date;

  @Field(() => Int, { description: 'Chapters in the snapshot.' })
  chapterCount: number;

  @Field({ description: 'Hidden pending review after reports (the link answers 404 until an operator restores it).' })
  hidden: boolean;
}

@InputType({ description: 'A report of a shared world or a published story.' })
export class ReportInput {
  @Field({ description: 'world or story' })
  targetKind: string;

  @Field(() => ID, { description: 'The world id, or the published story id (from its link).' })
  targetId: string;

  @Field({ description: 'spam, sexual, hate, violence, harassment, illegal or other' })
  reason: string;

  @Field(() => String, { nullable: true, description: 'Up to 1000 characters for the moderators.' })
  note?: string | null;
}

@ObjectType()
export class ReportResultType {
  @Field({ description: 'True when this report hid the content pending review.' })
  hidden: boolean;
}

@Resolver()
export class CommunityResolver {
  @Authorized()
  @Mutation(() => StoryPublicationInfo, {
    description: 'Publishes one of your stories as a read-only link, or updates what the link shows (same link). Passes moderation first.',
  })
  publishStory(@Arg('characterId', () => ID) characterId: string, @Ctx() ctx: GraphQLContext): Promise<PublicationView> {
    return ctx.services.community.publish(requireUser(ctx).id, characterId);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Takes the link down for good; false when the story was not published.' })
  unpublishStory(@Arg('characterId', () => ID) characterId: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.services.community.unpublish(requireUser(ctx).id, characterId);
  }

  @Authorized()
  @Mutation(() => ReportResultType, { description: 'Reports a shared world or a published story (once each; not your own).' })
  reportContent(@Arg('input', () => ReportInput) input: ReportInput, @Ctx() ctx: GraphQLContext): Promise<ReportResultType> {
    return ctx.services.community.report(requireUser(ctx).id, input);
  }
}

@Resolver(() => Character)
export class CharacterPublicationResolver {
  @FieldResolver(() => StoryPublicationInfo, { nullable: true, description: "The story's published link, if you published it (only you see this)." })
  publication(@Root() c: Character, @Ctx() ctx: GraphQLContext): Promise<PublicationView | null> {
    return ctx.loaders.publicationByCharacter.load(c.id);
  }
}

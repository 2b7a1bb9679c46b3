import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { World } from './world.entity';
import { SubmitWorldInput } from './world.types';

@Resolver(() => World)
export class WorldResolver {
  @Query(() => [World], { description: 'Public featured worlds (no token needed), oldest first.' })
  featuredWorlds(
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { defaultValue: 50, description: '1–100' }) limit: number,
    @Arg('offset', () => Int, { defaultValue: 0 }) offset: number,
    @Arg('search', () => String, { nullable: true, description: 'Text in the name or description.' }) search?: string | null,
    @Arg('genre', () => String, { nullable: true, description: 'e.g. cyberpunk, high-fantasy.' }) genre?: string | null,
  ): Promise<World[]> {
    return ctx.services.worlds.featured({ limit, offset, search, genre });
  }

  @Authorized()
  @Query(() => [World], { description: "The signed-in player's own worlds, newest first." })
  myWorlds(@Ctx() ctx: GraphQLContext): Promise<World[]> {
    return ctx.services.worlds.mine(requireUser(ctx).id);
  }

  @Query(() => World, { description: 'A world the caller may see: featured, shared globally, or their own. Otherwise NOT_FOUND.' })
  world(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<World> {
    return ctx.services.worlds.visible(ctx.user?.id ?? null, id);
  }

  @Authorized()
  @Mutation(() => World, { description: 'Shares or unshares one of your own worlds with every player.' })
  setWorldShared(@Arg('id', () => ID) id: string, @Arg('shared', () => Boolean) shared: boolean, @Ctx() ctx: GraphQLContext): Promise<World> {
    return ctx.services.worlds.setShared(requireUser(ctx).id, id, shared);
  }

  @Authorized()
  @Mutation(() => String, { description: 'A world description grown from an idea (may be blank); at most maxLength (≤ 1200) characters.' })
  generateWorldDescription(
    @Arg('worldDescription', () => String) worldDescription: string,
    @Arg('maxLength', () => Int, { nullable: true, description: '50–1200; larger values are capped at 1200.' }) maxLength: number | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<string> {
    return ctx.services.worlds.generateDescription(requireUser(ctx).id, { worldDescription, maxLength });
  }

  @Authorized()
  @Mutation(() => [String], { description: 'Character questions for a world description.' })
  generateWorldQuestions(@Arg('worldDescription', () => String) worldDescription: string, @Ctx() ctx: GraphQLContext): Promise<string[]> {
    return ctx.services.worlds.generateQuestions(requireUser(ctx).id, { worldDescription });
  }

  @Authorized()
  @Mutation(() => String, { description: 'A world picture as a JPEG data URL; each call gives a new picture.' })
  generateWorldImage(@Arg('worldDescription', () => String) worldDescription: string, @Ctx() ctx: GraphQLContext): Promise<string> {
    return ctx.services.worlds.generateImage(requireUser(ctx).id, { worldDescription });
  }

  @Authorized()
  @Mutation(() => World, { description: 'Creates a world you own (private until shared). Costs 3 credits (INSUFFICIENT_CREDITS when short).' })
  submitWorld(@Arg('input', () => SubmitWorldInput) input: SubmitWorldInput, @Ctx() ctx: GraphQLContext): Promise<World> {
    return ctx.services.worlds.submit(requireUser(ctx).id, {
      worldName: input.name,
      worldDescription: input.description,
      questions: input.questions,
      image: input.image,
    });
  }

  @FieldResolver(() => String, { nullable: true, description: 'Same-origin path of the world image, or null.' })
  imageUrl(@Root() world: World, @Ctx() ctx: GraphQLContext): string | null {
    // Derived from the row's own column: no query, so no loader is needed.
    return ctx.services.worlds.imageUrl(world);
  }

  @FieldResolver(() => Boolean, { description: 'True when the signed-in caller owns this world (show Share / Unshare).' })
  isOwn(@Root() world: World, @Ctx() ctx: GraphQLContext): boolean {
    return ctx.user !== null && world.ownerId === ctx.user.id;
  }

  @FieldResolver(() => String, { nullable: true, description: "The creator's username; null for featured worlds." })
  async author(@Root() world: World, @Ctx() ctx: GraphQLContext): Promise<string | null> {
    if (!world.ownerId) return null;
    return (await ctx.loaders.userById.load(world.ownerId))?.username ?? null;
  }
}

import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { World } from './world.entity';
import { CommunityPage, SubmitWorldInput, WorldCredit } from './world.types';
import { WorldService } from './world.service';

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

  @Query(() => CommunityPage, {
    description:
      'Public: worlds players shared (not featured, not hidden pending review). Counts in a list may lag by the response-cache TTL; world(id) reads them fresh.',
  })
  async communityWorlds(
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { defaultValue: 24, description: '1–100' }) limit: number,
    @Arg('offset', () => Int, { defaultValue: 0 }) offset: number,
    @Arg('sort', () => String, { defaultValue: 'new', description: 'new (latest shared), played (most played) or liked (most liked).' }) sort: string,
    @Arg('search', () => String, { nullable: true, description: 'Text in the name or description.' }) search?: string | null,
    @Arg('genre', () => String, { nullable: true }) genre?: string | null,
  ): Promise<CommunityPage> {
    const page = await ctx.services.worlds.community({ limit, offset, sort, search, genre });
    // The page read its creators' names with its rows: the author field needs no query of its own.
    for (const [ownerId, name] of page.authors) ctx.loaders.usernameById.prime(ownerId, name);
    return page;
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
  @Mutation(() => World, { description: 'Likes or unlikes a world you may see (not your own); liking twice is one like.' })
  setWorldLiked(@Arg('id', () => ID) id: string, @Arg('liked', () => Boolean) liked: boolean, @Ctx() ctx: GraphQLContext): Promise<World> {
    return ctx.services.worlds.setLiked(requireUser(ctx).id, id, liked);
  }

  @Authorized()
  @Mutation(() => World, {
    description: 'Copies a featured, shared or own world (questions and image included) into your worlds, private, crediting the original. Costs 3 credits.',
  })
  remixWorld(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<World> {
    return ctx.services.worlds.remix(requireUser(ctx).id, id);
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

  @FieldResolver(() => Boolean, { description: 'True when the signed-in caller likes this world.' })
  likedByMe(@Root() world: World, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return ctx.loaders.likedByViewer.load(world.id);
  }

  @FieldResolver(() => Boolean, { description: 'Hidden pending review after reports (only its owner still sees it); always false for others.' })
  hiddenPendingReview(@Root() world: World, @Ctx() ctx: GraphQLContext): boolean {
    return ctx.user !== null && world.ownerId === ctx.user.id && world.hiddenAt !== null;
  }

  @FieldResolver(() => WorldCredit, { nullable: true, description: 'The world this one was remixed from, while the caller may still see it.' })
  async remixedFrom(@Root() world: World, @Ctx() ctx: GraphQLContext): Promise<WorldCredit | null> {
    if (!world.remixedFromId) return null;
    const original = await ctx.loaders.worldById.load(world.remixedFromId);
    if (!original || !WorldService.canSee(ctx.user?.id ?? null, original)) return null;
    const author = original.ownerId ? await ctx.loaders.usernameById.load(original.ownerId) : null;
    return { id: original.id, name: original.name, author };
  }

  @FieldResolver(() => String, { nullable: true, description: "The creator's username; null for featured worlds." })
  async author(@Root() world: World, @Ctx() ctx: GraphQLContext): Promise<string | null> {
    if (!world.ownerId) return null;
    return ctx.loaders.usernameById.load(world.ownerId);
  }
}

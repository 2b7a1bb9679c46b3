import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { World } from './world.entity';

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

  @FieldResolver(() => String, { nullable: true, description: 'Same-origin path of the world image, or null.' })
  imageUrl(@Root() world: World, @Ctx() ctx: GraphQLContext): string | null {
    return ctx.services.worlds.imageUrl(world);
  }
}

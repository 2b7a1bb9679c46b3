import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { bytesFromDataUrl } from '../media/image-upload';
import { World } from '../worlds/world.entity';
import { WorldService } from '../worlds/world.service';
import { Character } from './character.entity';
import { CharacterDraft } from './character-draft.entity';
import { GenerateCharacterInput, GeneratedCharacter, SaveCharacterInput, SpawnFromProfileInput } from './character.types';

@Resolver(() => Character)
export class CharacterResolver {
  @Authorized()
  @Query(() => [Character], { description: "The signed-in player's saved characters, newest first." })
  myCharacters(@Ctx() ctx: GraphQLContext): Promise<Character[]> {
    return ctx.services.characters.mine(requireUser(ctx).id);
  }

  @Authorized()
  @Query(() => Character, { description: 'One of your saved characters (NOT_FOUND for anyone else’s).' })
  character(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<Character> {
    return ctx.services.characters.get(requireUser(ctx).id, id);
  }

  @Authorized()
  @Mutation(() => GeneratedCharacter, {
    description:
      'Generates a character from answers to a world’s questions. Costs 3 credits (INSUFFICIENT_CREDITS when short; refunded if generation fails). With worldId it is kept as a draft until saved or discarded.',
  })
  generateCharacter(@Arg('input', () => GenerateCharacterInput) input: GenerateCharacterInput, @Ctx() ctx: GraphQLContext): Promise<GeneratedCharacter> {
    return ctx.services.characters.generate(requireUser(ctx).id, input);
  }

  @Authorized()
  @Mutation(() => GeneratedCharacter, {
    description: 'Generates a character from your character profile. Costs 3 credits; refused when the profile is empty. With worldId it is kept as a draft.',
  })
  spawnCharacterFromProfile(@Arg('input', () => SpawnFromProfileInput) input: SpawnFromProfileInput, @Ctx() ctx: GraphQLContext): Promise<GeneratedCharacter> {
    const user = requireUser(ctx);
    return ctx.services.characters.spawnFromProfile(user.id, user.username, input);
  }

  @Authorized()
  @Mutation(() => Character, { description: 'Saves a character into a world you can see (own, featured or shared).' })
  saveCharacter(@Arg('input', () => SaveCharacterInput) input: SaveCharacterInput, @Ctx() ctx: GraphQLContext): Promise<Character> {
    return ctx.services.characters.save(requireUser(ctx).id, { ...input, world_id: input.worldId });
  }

  @Authorized()
  @Query(() => [CharacterDraft], { description: 'Your generated characters not saved yet, newest first.' })
  myCharacterDrafts(@Ctx() ctx: GraphQLContext): Promise<CharacterDraft[]> {
    return ctx.services.characters.drafts(requireUser(ctx).id);
  }

  @Authorized()
  @Mutation(() => Character, { description: 'Saves one of your drafts as a character (the draft is then gone). CONFLICT when its world no longer exists.' })
  saveCharacterDraft(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<Character> {
    return ctx.services.characters.saveDraft(requireUser(ctx).id, id);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Discards one of your drafts for good (the credits it cost are not refunded).' })
  async discardCharacterDraft(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.characters.discardDraft(requireUser(ctx).id, id);
    return true;
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Deletes one of your characters with its story.' })
  async deleteCharacter(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.characters.delete(requireUser(ctx).id, id);
    return true;
  }

  @Authorized()
  @Query(() => GraphQLJSONObject, {
    description:
      'One of your characters as a Character Card V3 (our stats etc. under data.extensions.taleforge). The PNG card is GET /api/characters/{id}/card.png.',
  })
  async characterCard(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<Record<string, unknown>> {
    return ctx.services.characters.exportCard(requireUser(ctx).id, id, 'json');
  }

  @Authorized()
  @Mutation(() => Character, {
    description: 'Imports a Character Card V2/V3 into a world you can see. card: the card JSON text, or a card PNG as a data URL (≤ 5 MB).',
  })
  importCharacterCard(@Arg('worldId', () => ID) worldId: string, @Arg('card', () => String) card: string, @Ctx() ctx: GraphQLContext): Promise<Character> {
    const bytes = /^data:image\/png;base64,/i.test(card) ? bytesFromDataUrl(card, 'card') : Buffer.from(card, 'utf8');
    return ctx.services.characters.importCard(requireUser(ctx).id, worldId, bytes);
  }

  @FieldResolver(() => World, { nullable: true, description: 'The world, while it exists and you may see it.' })
  async world(@Root() c: Character, @Ctx() ctx: GraphQLContext): Promise<World | null> {
    if (!c.worldId) return null;
    const world = await ctx.loaders.worldById.load(c.worldId);
    // A world its owner has since made private is not revealed through a character in it.
    return world && WorldService.canSee(ctx.user?.id ?? null, world) ? world : null;
  }

  @FieldResolver(() => String, { nullable: true, description: "The world's name; null shows as 'Unknown World'." })
  async worldName(@Root() c: Character, @Ctx() ctx: GraphQLContext): Promise<string | null> {
    return (await this.world(c, ctx))?.name ?? null;
  }
}

@Resolver(() => CharacterDraft)
export class CharacterDraftResolver {
  @FieldResolver(() => String, { nullable: true, description: "The world's name while you may see it; null shows as 'Unknown World'." })
  async worldName(@Root() d: CharacterDraft, @Ctx() ctx: GraphQLContext): Promise<string | null> {
    if (!d.worldId) return null;
    const world = await ctx.loaders.worldById.load(d.worldId);
    return world && WorldService.canSee(ctx.user?.id ?? null, world) ? world.name : null;
  }
}

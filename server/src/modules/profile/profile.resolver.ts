import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { UserCharacterProfile } from './character-profile.entity';
import { CharacterProfileInput, SettingsInput } from './profile.types';
import { UserSettings } from './user-settings.entity';

@Resolver()
export class ProfileResolver {
  @Authorized()
  @Query(() => UserCharacterProfile, { description: 'Your character profile (empty strings until saved).' })
  characterProfile(@Ctx() ctx: GraphQLContext): Promise<UserCharacterProfile> {
    return ctx.services.profile.characterProfile(requireUser(ctx).id);
  }

  @Authorized()
  @Mutation(() => UserCharacterProfile)
  saveCharacterProfile(@Arg('input', () => CharacterProfileInput) input: CharacterProfileInput, @Ctx() ctx: GraphQLContext): Promise<UserCharacterProfile> {
    return ctx.services.profile.saveCharacterProfile(requireUser(ctx).id, { ...input });
  }

  @Authorized()
  @Query(() => UserSettings, { description: 'Your settings (defaults until saved: immersive UI off, reading level 8).' })
  settings(@Ctx() ctx: GraphQLContext): Promise<UserSettings> {
    return ctx.services.profile.settings(requireUser(ctx).id);
  }

  @Authorized()
  @Mutation(() => UserSettings)
  saveSettings(@Arg('input', () => SettingsInput) input: SettingsInput, @Ctx() ctx: GraphQLContext): Promise<UserSettings> {
    return ctx.services.profile.saveSettings(requireUser(ctx).id, input);
  }
}

import 'reflect-metadata';
import { createPubSub } from '@graphql-yoga/subscription';
import { assertValidSchema, lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema, type PubSub } from 'type-graphql';
import { AuthResolver } from '../modules/auth/auth.resolver';
import { BillingResolver } from '../modules/billing/billing.resolver';
import { CreditsResolver } from '../modules/billing/credits.resolver';
import { CharacterDraftResolver, CharacterResolver } from '../modules/characters/character.resolver';
import { ProfileResolver } from '../modules/profile/profile.resolver';
import { CharacterStoryResolver, StoryResolver } from '../modules/stories/story.resolver';
import { ReadAloudResolver } from '../modules/stories/read-aloud/read-aloud.resolver';
import { SupportResolver } from '../modules/support/support.resolver';
import { WorldResolver } from '../modules/worlds/world.resolver';
import { AccountResolver } from '../modules/account/account.resolver';
import { CharacterPublicationResolver, CommunityResolver } from '../modules/community/community.resolver';
import { PartyResolver } from '../modules/parties/party.resolver';
import { PartyInvitePreviewResolver } from '../modules/parties/party-invite-preview';
import { authChecker } from './auth-checker';
import { budgetResponses } from './response-budget';

const RESOLVERS = [
  AuthResolver,
  WorldResolver,
  CommunityResolver,
  AccountResolver,
  CharacterPublicationResolver,
  CharacterResolver,
  CharacterDraftResolver,
  ProfileResolver,
  SupportResolver,
  CreditsResolver,
  BillingResolver,
  StoryResolver,
  CharacterStoryResolver,
  ReadAloudResolver,
  PartyResolver,
  PartyInvitePreviewResolver,
] as const;

/** `pubSub` carries @Subscription events (services.realtime: in process or Redis); printing needs none. */
export async function buildGraphQLSchema(pubSub: PubSub = createPubSub()): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers: [...RESOLVERS],
    pubSub,
    authChecker,
    // Input rules live in the services (shared with REST), not in class-validator decorators.
    validate: false,
    // type-graphql's own check runs a whole introspection query over the schema: most of the time
    // building it takes (~0.2 s of every boot and of every test app). GraphQL's validation below is
    // what executing introspection runs first; the rest of that check (default values that cannot be
    // printed) fails `npm run schema:emit` and check:generated, which print the whole schema.
    skipCheck: true,
  });
  assertValidSchema(schema);
  return budgetResponses(schema);
}

/** The SDL committed as /schema.graphql; sorted so that it only changes when the API does. */
export async function printedSchema(): Promise<string> {
  return printSchema(lexicographicSortSchema(await buildGraphQLSchema())) + '\n';
}

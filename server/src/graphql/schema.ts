import 'reflect-metadata';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AuthResolver } from '../modules/auth/auth.resolver';
import { WorldResolver } from '../modules/worlds/world.resolver';
import { authChecker } from './auth-checker';

export const RESOLVERS = [AuthResolver, WorldResolver] as const;

export function buildGraphQLSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers: [...RESOLVERS],
    authChecker,
    // Input rules live in the services (shared with REST), not in class-validator decorators.
    validate: false,
  });
}

/** The SDL committed as /schema.graphql; sorted so that it only changes when the API does. */
export async function printedSchema(): Promise<string> {
  return printSchema(lexicographicSortSchema(await buildGraphQLSchema())) + '\n';
}

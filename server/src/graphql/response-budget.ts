import { defaultFieldResolver, isObjectType, type GraphQLSchema } from 'graphql';
import type { ApolloServerPlugin } from '@apollo/server';
import { AppError } from '../common/app-error';
import type { GraphQLContext } from './context';

/**
 * The fields that make an answer big: large texts (counted by their bytes as they resolve) and the
 * fields that load many of them (which do no work once the budget is spent). The cost limit
 * (ops/graphql-limits.ts) refuses most oversized requests before they run; this cuts off the rest,
 * whose texts turn out longer than their shape promised, before the answer is built whole.
 */
const TEXT_FIELDS = ['Chapter.text', 'StoryExportFile.content'];
const LOADING_FIELDS = ['Character.storyline', 'Query.exportStory', 'Query.character', 'Query.myCharacters'];

/** Bytes of text this request's answer holds so far (GraphQLContext.responseBytes). */
export interface ResponseBytes {
  used: number;
}

function tooLarge(max: number): AppError {
  const mb = max / (1024 * 1024);
  const size = Number.isInteger(mb) ? `${mb} MB` : `${mb.toFixed(1)} MB`;
  return new AppError('PAYLOAD_TOO_LARGE', `This answer would be larger than ${size}: ask for fewer items (a smaller limit, or fewer aliases).`);
}

/**
 * Wraps the resolvers of TEXT_FIELDS and LOADING_FIELDS in the schema so that an answer past
 * GRAPHQL_MAX_RESPONSE_BYTES fails with PAYLOAD_TOO_LARGE: the field errors (its data is nulled up
 * to the nearest nullable parent) instead of being added, and nothing more is loaded.
 */
export function budgetResponses(schema: GraphQLSchema): GraphQLSchema {
  const wrap = (coordinate: string, countText: boolean) => {
    const [typeName, fieldName] = coordinate.split('.') as [string, string];
    const type = schema.getType(typeName);
    const field = type && isObjectType(type) ? type.getFields()[fieldName] : undefined;
    if (!field) throw new Error(`response budget: no field ${coordinate} in the schema`);
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = async (source, args, context: GraphQLContext, info) => {
      const max = context.services.config.ops.graphqlMaxResponseBytes;
      const bytes = (context.responseBytes ??= { used: 0 });
      if (bytes.used > max) throw tooLarge(max);
      const value: unknown = await resolve(source, args, context, info);
      if (countText && typeof value === 'string') {
        bytes.used += Buffer.byteLength(value);
        if (bytes.used > max) throw tooLarge(max);
      }
      return value;
    };
  };
  for (const f of TEXT_FIELDS) wrap(f, true);
  for (const f of LOADING_FIELDS) wrap(f, false);
  return schema;
}

/** Every field cut off says so once: the answer carries one PAYLOAD_TOO_LARGE error, not one per field. */
export const responseBudgetPlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const result = response.body.singleResult;
        if (!result.errors) return;
        let seen = false;
        const errors = result.errors.filter((e) => {
          if (e.extensions?.code !== 'PAYLOAD_TOO_LARGE') return true;
          if (seen) return false;
          seen = true;
          return true;
        });
        if (errors.length !== result.errors.length) response.body.singleResult = { ...result, errors };
      },
    };
  },
};

import type { AuthChecker } from 'type-graphql';
import { AppError } from '../common/app-error';
import type { GraphQLContext } from './context';

/** @Authorized() fields need a signed-in user; the error is our coded UNAUTHENTICATED. */
export const authChecker: AuthChecker<GraphQLContext> = ({ context }) => {
  if (!context.user) throw AppError.unauthenticated();
  return true;
};

export function requireUser(ctx: GraphQLContext): NonNullable<GraphQLContext['user']> {
  if (!ctx.user) throw AppError.unauthenticated();
  return ctx.user;
}

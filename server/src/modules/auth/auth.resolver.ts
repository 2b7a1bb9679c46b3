import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { AuthSession, SignInInput, SignUpInput } from './auth.types';
import { User } from './user.entity';

@Resolver()
export class AuthResolver {
  @Query(() => User, { nullable: true, description: 'The signed-in user, or null for anonymous callers.' })
  me(@Ctx() ctx: GraphQLContext): User | null {
    if (!ctx.user) return null;
    // The session check already read the account (accounts never change after sign-up): no second read.
    const { id, email, username, createdAt } = ctx.user;
    return Object.assign(new User(), { id, email, username, createdAt });
  }

  @Mutation(() => AuthSession)
  signUp(@Arg('input', () => SignUpInput) input: SignUpInput, @Ctx() ctx: GraphQLContext): Promise<AuthSession> {
    return ctx.services.auth.signUp(input, ctx.meta);
  }

  @Mutation(() => AuthSession)
  signIn(@Arg('input', () => SignInInput) input: SignInInput, @Ctx() ctx: GraphQLContext): Promise<AuthSession> {
    return ctx.services.auth.signIn(input, ctx.meta);
  }

  @Mutation(() => AuthSession)
  refreshSession(@Arg('refreshToken', () => String) refreshToken: string, @Ctx() ctx: GraphQLContext): Promise<AuthSession> {
    return ctx.services.auth.refresh(refreshToken, ctx.meta);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Revokes the current session (all its refresh tokens).' })
  async signOut(@Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.auth.signOut(requireUser(ctx).sessionId);
    return true;
  }
}

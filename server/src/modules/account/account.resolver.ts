import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';

@Resolver()
export class AccountResolver {
  @Authorized()
  @Mutation(() => Boolean, {
    description:
      'Deletes your account after your password: a paid subscription is cancelled, and your account, worlds (shared ones too), characters, stories and published stories are removed for good. The credit ledger is kept without anything that names you. The export archive is GET /api/account/export.',
  })
  async deleteAccount(@Arg('password', () => String) password: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.accountData.deleteAccount(requireUser(ctx), password, ctx.meta);
    return true;
  }
}

import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';

@Resolver()
export class SupportResolver {
  @Authorized()
  @Mutation(() => Boolean, { description: 'Sends a support message; type is contact, feedback or bug; message 1–5000 characters.' })
  async submitSupportMessage(
    @Arg('type', () => String) type: string,
    @Arg('message', () => String) message: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    await ctx.services.support.submit(requireUser(ctx).id, { type, message });
    return true;
  }
}

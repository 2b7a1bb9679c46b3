import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { int } from '../shared/input';
import { CreditTransaction } from './credit-transaction.entity';

@Resolver()
export class CreditsResolver {
  @Authorized()
  @Query(() => [CreditTransaction], { description: "The signed-in player's credit ledger, newest first." })
  creditLedger(
    @Ctx() ctx: GraphQLContext,
    @Arg('limit', () => Int, { defaultValue: 50, description: '1–200' }) limit: number,
    @Arg('offset', () => Int, { defaultValue: 0 }) offset: number,
  ): Promise<CreditTransaction[]> {
    const user = requireUser(ctx);
    return ctx.services.credits.ledger(user.id, int(limit, 'limit', 1, 200), int(offset, 'offset', 0, 1_000_000));
  }
}

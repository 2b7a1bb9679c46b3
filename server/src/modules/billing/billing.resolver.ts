import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { CheckoutSession, fromMessage, PastPayment, SubscriptionStatusView, type StatusMessage } from './billing.types';
import { Tier } from './tier.entity';

/** Thin: every rule is in BillingService, shared with the /api/subscription REST adapter. */
@Resolver()
export class BillingResolver {
  @Query(() => [Tier], { description: 'Subscription tiers, cheapest first (public).' })
  tiers(@Ctx() ctx: GraphQLContext): Promise<Tier[]> {
    return ctx.services.billing.tiers();
  }

  @Authorized()
  @Query(() => SubscriptionStatusView, { description: "The signed-in player's tier, credits and billing period." })
  subscriptionStatus(@Ctx() ctx: GraphQLContext): Promise<SubscriptionStatusView> {
    return ctx.services.billing.status(requireUser(ctx).id);
  }

  @Authorized()
  @Query(() => Int, { description: "The signed-in player's credit balance." })
  credits(@Ctx() ctx: GraphQLContext): Promise<number> {
    return ctx.services.billing.credits(requireUser(ctx).id);
  }

  @Authorized()
  @Mutation(() => SubscriptionStatusView, {
    description: 'Choose the Free tier (a paid tier then ends at the end of its period) or resume the current tier. Paid tiers use createCheckout.',
  })
  subscribe(@Ctx() ctx: GraphQLContext, @Arg('tierId', () => ID) tierId: string): Promise<SubscriptionStatusView> {
    return ctx.services.billing.subscribe(requireUser(ctx), tierId);
  }

  @Authorized()
  @Mutation(() => CheckoutSession, {
    description: "Manage Subscription: the returned url is Stripe's Customer Portal for a Stripe subscription, otherwise this app's /subscription/manage page.",
  })
  manageSubscription(@Ctx() ctx: GraphQLContext): Promise<CheckoutSession> {
    return ctx.services.billing.manageUrl(requireUser(ctx), ctx.meta.origin);
  }

  @Authorized()
  @Query(() => [PastPayment], { description: 'Your payments that bought credits, newest first.' })
  pastPayments(@Ctx() ctx: GraphQLContext): Promise<PastPayment[]> {
    return ctx.services.billing.pastPayments(requireUser(ctx).id);
  }

  @Authorized()
  @Mutation(() => CheckoutSession, { description: 'Starts paying for a paid tier: send the browser to the returned url.' })
  createCheckout(@Ctx() ctx: GraphQLContext, @Arg('tierId', () => ID) tierId: string): Promise<CheckoutSession> {
    return ctx.services.billing.createCheckout(requireUser(ctx), tierId, ctx.meta.origin);
  }

  @Authorized()
  @Subscription(() => SubscriptionStatusView, {
    description:
      "The signed-in player's status now, then again whenever it changes (credits spent, refunded or granted, a purchase, a tier change). Only ever the player's own.",
    subscribe: ({ context }) => {
      const ctx = context as GraphQLContext;
      return ctx.services.billing.watch(requireUser(ctx).id);
    },
  })
  subscriptionChanged(@Root() message: StatusMessage): SubscriptionStatusView {
    return fromMessage(message);
  }
}

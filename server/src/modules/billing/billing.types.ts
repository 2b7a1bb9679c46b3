import { Field, Int, ObjectType } from 'type-graphql';
import { Tier } from './tier.entity';

@ObjectType('SubscriptionStatus', { description: "The signed-in player's subscription and credit balance." })
export class SubscriptionStatusView {
  @Field(() => Tier)
  tier: Tier;

  @Field(() => Int)
  credits: number;

  @Field(() => Int, { description: "The tier's story memory budget, in tokens." })
  maxContextTokens: number;

  @Field({ description: 'False while a payment is due or has not gone through yet.' })
  active: boolean;

  @Field(() => Date, { nullable: true, description: 'Next billing date of a paid tier (or when it ends if cancelled); null on Free.' })
  endDate: Date | null;

  @Field({ description: 'active, past_due, incomplete or canceled.' })
  status: string;

  @Field({ description: 'A paid tier that returns to Free at endDate.' })
  cancelAtPeriodEnd: boolean;

  @Field(() => Date, { nullable: true, description: 'End of the current credit period (Free: when the next monthly credits come).' })
  currentPeriodEnd: Date | null;

  @Field({ description: 'none (Free), local (embedded checkout) or stripe.' })
  provider: string;
}

@ObjectType({ description: "A payment that bought a period's credits." })
export class PastPayment {
  @Field()
  paidAt: Date;

  @Field(() => String, { nullable: true, description: 'The tier paid for, when this server knows it (the built-in checkout).' })
  tierName: string | null;

  @Field(() => Int, { nullable: true, description: 'What was charged, in cents (the tier price).' })
  amountCents: number | null;

  @Field(() => Int, { description: 'The credits the payment granted.' })
  credits: number;

  @Field({ description: 'The invoice id.' })
  reference: string;
}

@ObjectType({ description: 'Where to send the browser (a checkout, or the page that manages a subscription).' })
export class CheckoutSession {
  @Field()
  url: string;
}

/** A status as published to subscribers: JSON-safe, so it crosses Redis unchanged. */
export interface StatusMessage {
  userId: string;
  status: Omit<SubscriptionStatusView, 'tier' | 'endDate' | 'currentPeriodEnd'> & {
    tier: Omit<Tier, 'price'>;
    endDate: string | null;
    currentPeriodEnd: string | null;
  };
}

export function toMessage(userId: string, s: SubscriptionStatusView): StatusMessage {
  const { price: _price, ...tier } = s.tier;
  return {
    userId,
    status: {
      ...s,
      tier: { ...tier },
      endDate: s.endDate?.toISOString() ?? null,
      currentPeriodEnd: s.currentPeriodEnd?.toISOString() ?? null,
    },
  };
}

export function fromMessage(m: StatusMessage): SubscriptionStatusView {
  return Object.assign(new SubscriptionStatusView(), {
    ...m.status,
    tier: Object.assign(new Tier(), m.status.tier),
    endDate: m.status.endDate ? new Date(m.status.endDate) : null,
    currentPeriodEnd: m.status.currentPeriodEnd ? new Date(m.status.currentPeriodEnd) : null,
  });
}

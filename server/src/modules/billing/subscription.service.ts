import type { EntityManager } from 'typeorm';
import type { CreditsService } from './credits.service';
import { Subscription } from './subscription.entity';

export const FREE_TIER_ID = 'free';

/** Subscription lifecycle. Step 1 needs only the Free subscription every new account starts on. */
export class SubscriptionService {
  constructor(
    private readonly credits: CreditsService,
    private readonly signupCredits: number,
  ) {}

  /** Inside the sign-up transaction: Free tier, current period from now, the welcome credits. */
  async startFree(m: EntityManager, userId: string, now = new Date()): Promise<void> {
    const end = new Date(now);
    end.setUTCMonth(end.getUTCMonth() + 1);
    await m.getRepository(Subscription).insert({
      userId,
      tierId: FREE_TIER_ID,
      status: 'active',
      credits: 0,
      currentPeriodStart: now,
      currentPeriodEnd: end,
      provider: 'none',
    });
    await this.credits.grantIn(m, userId, this.signupCredits, 'signup_grant', { idempotencyKey: `signup:${userId}` });
  }
}

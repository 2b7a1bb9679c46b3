import type { DataSource } from 'typeorm';
import { MemoryRateLimiter, type RateLimiter } from './common/rate-limiter';
import type { Config } from './config/env';
import { AuthService } from './modules/auth/auth.service';
import { CreditsService } from './modules/billing/credits.service';
import { SubscriptionService } from './modules/billing/subscription.service';
import { MediaService } from './modules/media/media.service';
import { WorldService } from './modules/worlds/world.service';

/** Every domain service, built once per process and shared by resolvers and REST adapters. */
export interface Services {
  config: Config;
  dataSource: DataSource;
  limiter: RateLimiter;
  auth: AuthService;
  credits: CreditsService;
  subscriptions: SubscriptionService;
  media: MediaService;
  worlds: WorldService;
}

export async function createServices(config: Config, dataSource: DataSource): Promise<Services> {
  const limiter = new MemoryRateLimiter();
  const credits = new CreditsService(dataSource);
  const subscriptions = new SubscriptionService(credits, config.signupCredits);
  const auth = await AuthService.create(dataSource, config, limiter, subscriptions);
  return {
    config,
    dataSource,
    limiter,
    auth,
    credits,
    subscriptions,
    media: new MediaService(dataSource),
    worlds: new WorldService(dataSource),
  };
}

import { OpenAIEmbedder } from './ai/embeddings';
import { OpenAISpeaker } from './ai/speech';
import { ReadAloudService } from './modules/stories/read-aloud/read-aloud.service';
import type { DataSource } from 'typeorm';
import { createStoryAI, type StoryAI } from './ai';
import { createLogger } from './common/logger';
import type { RateLimiter } from './common/rate-limiter';
import type { Config } from './config/env';
import { AuthService } from './modules/auth/auth.service';
import { BillingService } from './modules/billing/billing.service';
import { CreditsService } from './modules/billing/credits.service';
import { SubscriptionService } from './modules/billing/subscription.service';
import { CharacterService } from './modules/characters/character.service';
import { MediaService } from './modules/media/media.service';
import { ProfileService } from './modules/profile/profile.service';
import { StoryService } from './modules/stories/story.service';
import { PartyService } from './modules/parties/party.service';
import { SupportService } from './modules/support/support.service';
import { WorldService } from './modules/worlds/world.service';
import { createModeration } from './modules/community/moderation';
import { CommunityService } from './modules/community/community.service';
import { createMailer, type Mailer } from './modules/mail/mailer';
import { budgetedMailer } from './modules/mail/mail-budget';
import { PasswordRecovery } from './modules/auth/password-recovery';
import { EmailCodes } from './modules/auth/email-codes';
import { EmailLinks } from './modules/auth/email-links';
import { MfaService } from './modules/auth/mfa';
import { AccountDataService } from './modules/account/account-data.service';
import { AttemptBudgets } from './modules/shared/attempt-budgets';
import { createRealtime, type Realtime } from './realtime/pubsub';
import { meterCredits } from './ops/credit-metrics';
import { instrumentStoryAI } from './ops/instrument-ai';
import { Metrics } from './ops/metrics';
import { createRateLimiter, type ClosableRateLimiter } from './ops/redis-rate-limiter';

/** Every domain service, built once per process and shared by resolvers and REST adapters. */
export interface Services {
  config: Config;
  dataSource: DataSource;
  /** Redis-backed with REDIS_URL (limits across instances), else in memory. Closed by the app. */
  limiter: RateLimiter & Pick<ClosableRateLimiter, 'close' | 'mode'>;
  /** Prometheus hooks (server/src/ops/metrics.ts): generation times, tokens, credits, requests. */
  metrics: Metrics;
  /** The one story AI (offline storyteller, or OpenAI-compatible when configured). */
  ai: StoryAI;
  auth: AuthService;
  credits: CreditsService;
  subscriptions: SubscriptionService;
  /** Tiers, checkout (Stripe or local), payment events, renewals, live status. */
  billing: BillingService;
  /** Pub/sub for GraphQL subscriptions: in process, or Redis with REDIS_URL. Closed by the app. */
  realtime: Realtime;
  media: MediaService;
  worlds: WorldService;
  characters: CharacterService;
  profile: ProfileService;
  support: SupportService;
  /** Storylines: streamed chapters, missions, takes, undo, styles, export. */
  stories: StoryService;
  /** Chapters read aloud by the server voice (cached, 1 credit each the first time). */
  readAloud: ReadAloudService;
  /** Published stories and reports of shared content. */
  community: CommunityService;
  /** Party play (issue 34): several players on one storyline, live rounds or turns by post. */
  parties: PartyService;
  /** Password reset by mail. */
  recovery: PasswordRecovery;
  emailCodes: EmailCodes;
  emailLinks: EmailLinks;
  mfa: MfaService;
  accountData: AccountDataService;
  mailer: Mailer;
}

export async function createServices(config: Config, dataSource: DataSource, hooks: { metrics?: Metrics } = {}): Promise<Services> {
  const metrics = hooks.metrics ?? new Metrics({ defaultMetrics: false });
  const limiter = createRateLimiter(config, createLogger(config).child({ component: 'rate-limit' }));
  meterCredits(dataSource, metrics);
  const ai = instrumentStoryAI(
    createStoryAI({
      openai: { ...config.openai, log: createLogger(config).child({ component: 'story-ai' }) },
      onUsage: metrics.recordUsage,
      onTrim: metrics.recordTrim,
      tierModels: config.tierModels,
    }),
    metrics,
  );
  const credits = new CreditsService(dataSource);
  const subscriptions = new SubscriptionService(dataSource, credits, config.signupCredits);
  const budgets = new AttemptBudgets(dataSource);
  const auth = await AuthService.create(dataSource, config, limiter, budgets, subscriptions);
  const logger = createLogger(config);
  const realtime = createRealtime(config, logger);
  const billing = await BillingService.create({ dataSource, config, credits, subscriptions, realtime, logger });
  const media = new MediaService(dataSource);
  const moderation = createModeration(
    { apiKey: config.openai.apiKey, baseUrl: config.openai.baseUrl, model: config.community.moderationModel, timeoutMs: config.openai.timeoutMs },
    logger,
  );
  const worlds = new WorldService(dataSource, { config, ai, credits, media, limiter, moderation });
  const profile = new ProfileService(dataSource, auth, config.tts.apiKey ? config.tts.voices : []);
  const embeddings = config.embeddings;
  const embedder = embeddings.model
    ? new OpenAIEmbedder({ model: embeddings.model, baseUrl: embeddings.baseUrl, apiKey: embeddings.apiKey, timeoutMs: embeddings.timeoutMs })
    : null;
  const stories = new StoryService(dataSource, { config, ai, limiter, logger, onPromptReport: metrics.observePrompt, embedder });
  const tts = config.tts;
  const speaker = tts.apiKey ? new OpenAISpeaker({ model: tts.model, baseUrl: tts.baseUrl, apiKey: tts.apiKey, timeoutMs: tts.timeoutMs }) : null;
  const readAloud = new ReadAloudService(dataSource, { speaker, voices: tts.voices, credits, media, logger: logger.child({ component: 'read-aloud' }) });
  const mailLog = logger.child({ component: 'mail' });
  const mailer = budgetedMailer(createMailer(config, mailLog), { dataSource, budgets, config, logger: mailLog });
  // Party play reads services.stories at each use: tests replace the stories service (another storyteller).
  const services: Services = {
    config,
    dataSource,
    limiter,
    metrics,
    ai,
    auth,
    credits,
    subscriptions,
    billing,
    realtime,
    media,
    worlds,
    characters: new CharacterService(dataSource, { ai, credits, worlds, profile, media }),
    profile,
    support: new SupportService(dataSource, limiter),
    stories,
    readAloud,
    community: new CommunityService(dataSource, { config, worlds, stories, limiter, mailer, logger: logger.child({ component: 'community' }) }),
    mailer,
    recovery: new PasswordRecovery(dataSource, { config, auth, mailer, limiter, budgets, logger }),
    emailCodes: new EmailCodes(dataSource, { auth, mailer, limiter, budgets, logger }),
    emailLinks: new EmailLinks(dataSource, { config, auth, mailer, limiter, budgets, logger }),
    mfa: new MfaService(dataSource, { auth, limiter, budgets, mailer, logger: logger.child({ component: 'mfa' }) }),
    accountData: new AccountDataService(dataSource, { auth, billing, worlds, limiter, logger }),
    parties: new PartyService(dataSource, {
      config,
      credits,
      stories: () => services.stories,
      mailer,
      realtime,
      logger: logger.child({ component: 'parties' }),
    }),
  };
  return services;
}

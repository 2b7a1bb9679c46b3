import { AppError } from '../../../common/app-error';
import type { RateLimiter } from '../../../common/rate-limiter';
import type { Config } from '../../../config/env';

/**
 * What every generation passes first: refused at once while the server shuts down, and limited per
 * player and kind (chapters, mission suggestions, styles) so one player cannot hold the model.
 */
export class StoryGate {
  private closed = false;

  constructor(private readonly deps: { config: Config; limiter: RateLimiter }) {}

  close(): void {
    this.closed = true;
  }

  async pass(userId: string, what: 'chapter' | 'mission' | 'styles'): Promise<void> {
    if (this.closed) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; try again in a moment.');
    const { perUserPerWindow, windowSeconds } = this.deps.config.generationRateLimit;
    const r = await this.deps.limiter.hit(`story:${what}:${userId}`, perUserPerWindow, windowSeconds);
    if (!r.allowed) {
      throw new AppError('RATE_LIMITED', 'Too many requests; please wait a moment.', { retryAfterSeconds: r.retryAfterSeconds });
    }
  }
}

import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import type { RateLimiter } from '../../common/rate-limiter';
import { text } from '../shared/input';
import { SUPPORT_MESSAGE_MAX, SUPPORT_TYPES, SupportMessage, type SupportType } from './support-message.entity';

/** Messages per user per hour: generous for people, a ceiling for scripts filling the inbox. */
const PER_HOUR = 20;

export class SupportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly limiter: RateLimiter,
  ) {}

  async submit(userId: string, raw: { type: unknown; message: unknown }): Promise<SupportMessage> {
    if (typeof raw.type !== 'string' || !(SUPPORT_TYPES as readonly string[]).includes(raw.type)) {
      throw AppError.badInput(`type must be one of ${SUPPORT_TYPES.join(', ')}.`, 'type');
    }
    const message = text(raw.message, 'message', { required: 'Please enter a message before submitting.', max: SUPPORT_MESSAGE_MAX });
    const r = await this.limiter.hit(`support:${userId}`, PER_HOUR, 3600);
    if (!r.allowed) throw new AppError('RATE_LIMITED', 'Too many messages; please try again later.', { retryAfterSeconds: r.retryAfterSeconds });
    return this.dataSource.getRepository(SupportMessage).save({ userId, type: raw.type as SupportType, message });
  }
}

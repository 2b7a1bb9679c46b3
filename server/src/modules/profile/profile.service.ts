import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import type { AuthService } from '../auth/auth.service';
import type { User } from '../auth/user.entity';
import { bool, int, object, text } from '../shared/input';
import { UserCharacterProfile } from './character-profile.entity';
import { UserSettings } from './user-settings.entity';

const PROFILE_FIELD_MAX = 2000;
import { DEFAULT_READING_LEVEL } from '../shared/limits';

const REQUIRED = 'Please fill in all required fields';

/** The player's account view, character profile (spawn-from-profile's source) and settings. */
export class ProfileService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly auth: AuthService,
  ) {}

  async account(userId: string): Promise<User> {
    const user = await this.auth.userById(userId);
    if (!user) throw AppError.unauthenticated();
    return user;
  }

  /** Never null: a player who has not filled it in has an empty profile. */
  async characterProfile(userId: string): Promise<UserCharacterProfile> {
    const found = await this.dataSource.getRepository(UserCharacterProfile).findOne({ where: { userId } });
    return found ?? Object.assign(new UserCharacterProfile(), { userId, skills: '', personalityTraits: '', freeTime: '', pastTimes: '' });
  }

  /** SPEC §5: skills, personality traits and free time are all required; pastTimes is optional. */
  async saveCharacterProfile(userId: string, raw: unknown): Promise<UserCharacterProfile> {
    const b = object(raw, 'profile');
    const rule = { required: REQUIRED, max: PROFILE_FIELD_MAX };
    const row = {
      userId,
      skills: text(b.skills, 'skills', rule),
      personalityTraits: text(b.personalityTraits, 'personalityTraits', rule),
      freeTime: text(b.freeTime, 'freeTime', rule),
      pastTimes: text(b.pastTimes, 'pastTimes', { max: PROFILE_FIELD_MAX }),
    };
    await this.dataSource.getRepository(UserCharacterProfile).upsert(row, ['userId']);
    return this.characterProfile(userId);
  }

  async settings(userId: string): Promise<UserSettings> {
    const found = await this.dataSource.getRepository(UserSettings).findOne({ where: { userId } });
    return found ?? Object.assign(new UserSettings(), { userId, immersiveUi: false, readingLevel: DEFAULT_READING_LEVEL });
  }

  /** Partial update: only the fields given change. */
  async saveSettings(userId: string, raw: { immersiveUi?: unknown; readingLevel?: unknown }): Promise<UserSettings> {
    const current = await this.settings(userId);
    const next = {
      userId,
      immersiveUi: raw.immersiveUi === undefined || raw.immersiveUi === null ? current.immersiveUi : bool(raw.immersiveUi, 'immersiveUI'),
      readingLevel: raw.readingLevel === undefined || raw.readingLevel === null ? current.readingLevel : int(raw.readingLevel, 'readingLevel', 1, 12),
    };
    await this.dataSource.getRepository(UserSettings).upsert(next, ['userId']);
    return this.settings(userId);
  }
}

import type { DataSource } from 'typeorm';
import { AppError } from '../../common/app-error';
import type { AuthService } from '../auth/auth.service';
import type { User } from '../auth/user.entity';
import { bool, int, object, text } from '../shared/input';
import { UserCharacterProfile } from './character-profile.entity';
import { READ_ALOUD_ENGINES, UserSettings, type ReadAloudEngine } from './user-settings.entity';

const PROFILE_FIELD_MAX = 2000;
/** Browser voices are named by the browser ("Microsoft Aria Online (Natural) - English (United States)"). */
const BROWSER_VOICE_MAX = 200;
const READ_ALOUD_RATE_MIN = 0.5;
const READ_ALOUD_RATE_MAX = 2;
import { DEFAULT_READING_LEVEL } from '../shared/limits';

const REQUIRED = 'Please fill in all required fields';

/** The player's account view, character profile (spawn-from-profile's source) and settings. */
export class ProfileService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly auth: AuthService,
    /** The server voices players may pick (config.tts.voices). */
    private readonly serverVoices: readonly string[] = [],
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
    return (
      found ??
      Object.assign(new UserSettings(), {
        userId,
        immersiveUi: false,
        readingLevel: DEFAULT_READING_LEVEL,
        readAloudEngine: 'browser',
        readAloudVoice: '',
        readAloudServerVoice: '',
        readAloudRate: 1,
        readAloudAuto: false,
      })
    );
  }

  /** Partial update: only the fields given change. */
  async saveSettings(
    userId: string,
    raw: {
      immersiveUi?: unknown;
      readingLevel?: unknown;
      readAloudEngine?: unknown;
      readAloudVoice?: unknown;
      readAloudServerVoice?: unknown;
      readAloudRate?: unknown;
      readAloudAuto?: unknown;
    },
  ): Promise<UserSettings> {
    const current = await this.settings(userId);
    const given = (v: unknown) => v !== undefined && v !== null;
    const next = {
      userId,
      immersiveUi: given(raw.immersiveUi) ? bool(raw.immersiveUi, 'immersiveUI') : current.immersiveUi,
      readingLevel: given(raw.readingLevel) ? int(raw.readingLevel, 'readingLevel', 1, 12) : current.readingLevel,
      readAloudEngine: given(raw.readAloudEngine) ? this.engine(raw.readAloudEngine) : current.readAloudEngine,
      readAloudVoice: given(raw.readAloudVoice) ? text(raw.readAloudVoice, 'readAloudVoice', { max: BROWSER_VOICE_MAX }) : current.readAloudVoice,
      readAloudServerVoice: given(raw.readAloudServerVoice) ? this.serverVoice(raw.readAloudServerVoice) : current.readAloudServerVoice,
      readAloudRate: given(raw.readAloudRate) ? rate(raw.readAloudRate) : current.readAloudRate,
      readAloudAuto: given(raw.readAloudAuto) ? bool(raw.readAloudAuto, 'readAloudAuto') : current.readAloudAuto,
    };
    await this.dataSource.getRepository(UserSettings).upsert(next, ['userId']);
    return this.settings(userId);
  }

  private engine(v: unknown): ReadAloudEngine {
    if (!READ_ALOUD_ENGINES.includes(v as ReadAloudEngine))
      throw AppError.badInput(`readAloudEngine must be one of ${READ_ALOUD_ENGINES.join(', ')}.`, 'readAloudEngine');
    return v as ReadAloudEngine;
  }

  /** '' (the server's first voice) or one the server offers: a voice it does not have could never be read. */
  private serverVoice(v: unknown): string {
    const voice = text(v, 'readAloudServerVoice', { max: 64 });
    if (voice && !this.serverVoices.includes(voice)) {
      throw AppError.badInput(
        `readAloudServerVoice must be one of the server's voices (${this.serverVoices.join(', ') || 'none configured'}).`,
        'readAloudServerVoice',
      );
    }
    return voice;
  }
}

function rate(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < READ_ALOUD_RATE_MIN || v > READ_ALOUD_RATE_MAX) {
    throw AppError.badInput(`readAloudRate must be a number from ${READ_ALOUD_RATE_MIN} to ${READ_ALOUD_RATE_MAX}.`, 'readAloudRate');
  }
  // Tenths: what the settings slider offers, and what a real column keeps exactly enough.
  return Math.round(v * 10) / 10;
}

import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Speaker } from '../../../ai/speech';
import { AppError, isAppError } from '../../../common/app-error';
import type { Logger } from '../../../common/logger';
import type { CreditsService } from '../../billing/credits.service';
import { findOwnedCharacter } from '../../characters/owned-character';
import type { MediaService } from '../../media/media.service';
import { isUuid } from '../../shared/input';
import { Chapter } from '../chapter.entity';

/**
 * What the server voice costs: 1 credit for a chapter read the first time in a voice (the model
 * call is paid for), nothing when it is read again from the cache, refunded when the speech server
 * fails. The browser's own voice is always free.
 */
const CHAPTER_AUDIO_COST = 1;
const MP3 = 'audio/mpeg';

export interface ReadAloudInfo {
  serverVoiceAvailable: boolean;
  /** The server voices (empty when the server voice is not available). */
  voices: string[];
  creditsPerChapter: number;
}

export interface ChapterAudioResult {
  chapterId: string;
  characterId: string;
  voice: string;
  mime: string;
  bytes: Buffer;
  /** SHA-256 of the audio (the HTTP ETag). */
  sha256: string;
  /** Answered from the cache: no model call, no credit. */
  cached: boolean;
  creditsCharged: number;
}

/**
 * Chapters read aloud by the server voice: only the story's owner may ask (anyone else's character or
 * chapter answers NOT_FOUND, as everywhere). Published stories' readers get no server voice: their
 * page promises that readers never cause a model call.
 */
export class ReadAloudService {
  /** Readings in progress by key: a second request for the same audio waits for the first (one call, one charge). */
  private readonly inFlight = new Map<string, Promise<ChapterAudioResult>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly deps: { speaker: Speaker | null; voices: readonly string[]; credits: CreditsService; media: MediaService; logger: Logger },
  ) {}

  info(): ReadAloudInfo {
    const available = this.deps.speaker !== null;
    return { serverVoiceAvailable: available, voices: available ? [...this.deps.voices] : [], creditsPerChapter: CHAPTER_AUDIO_COST };
  }

  /**
   * The chapter as MP3 in `voice` ('' or absent: the first voice). `chapterRef` is a chapter's id (that
   * take) or its 1-based number (the selected take).
   */
  async chapterAudio(userId: string, characterId: unknown, chapterRef: unknown, voiceRaw: unknown): Promise<ChapterAudioResult> {
    const speaker = this.deps.speaker;
    if (!speaker) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The server voice is not available here (no speech key is configured); use the browser voice.', {
        reason: 'tts_not_configured',
      });
    }
    const voice = this.voiceOf(voiceRaw);
    const character = await findOwnedCharacter(this.dataSource, userId, characterId);
    const chapter = await this.chapterOf(character.id, chapterRef);
    if (chapter.status !== 'complete') throw new AppError('CONFLICT', 'This chapter is still being written; it can be read aloud once it is finished.');
    const textSha256 = crypto.createHash('sha256').update(chapter.text).digest('hex');

    const stored = await this.cached(chapter.id, voice, textSha256);
    if (stored) return { ...stored, characterId: character.id, cached: true, creditsCharged: 0 };

    const key = `${chapter.id}:${voice}:${textSha256}`;
    const running = this.inFlight.get(key);
    if (running) return { ...(await running), cached: true, creditsCharged: 0 };
    const reading = this.read(speaker, userId, character.id, chapter, voice, textSha256).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, reading);
    return reading;
  }

  private voiceOf(raw: unknown): string {
    if (raw === undefined || raw === null || raw === '') return this.deps.voices[0]!;
    if (typeof raw !== 'string' || !this.deps.voices.includes(raw)) {
      throw AppError.badInput(`voice must be one of ${this.deps.voices.join(', ')}.`, 'voice');
    }
    return raw;
  }

  private async chapterOf(characterId: string, ref: unknown): Promise<Chapter> {
    const repo = this.dataSource.getRepository(Chapter);
    let found: Chapter | null = null;
    if (isUuid(ref)) found = await repo.findOne({ where: { id: ref, characterId } });
    else if ((typeof ref === 'string' && /^[1-9]\d{0,6}$/.test(ref)) || (typeof ref === 'number' && Number.isInteger(ref) && ref >= 1)) {
      found = await repo.findOne({ where: { characterId, index: Number(ref) - 1, isSelected: true } });
    }
    if (!found) throw AppError.notFound('Chapter');
    return found;
  }

  private async cached(
    chapterId: string,
    voice: string,
    textSha256: string,
  ): Promise<Omit<ChapterAudioResult, 'characterId' | 'cached' | 'creditsCharged'> | null> {
    const rows = (await this.dataSource.query(
      `SELECT m.mime, m.bytes, m.sha256 FROM chapter_audio a JOIN media m ON m.id = a.media_id
        WHERE a.chapter_id = $1 AND a.voice = $2 AND a.text_sha256 = $3`,
      [chapterId, voice, textSha256],
    )) as Array<{ mime: string; bytes: Buffer; sha256: string }>;
    const r = rows[0];
    return r ? { chapterId, voice, mime: r.mime, bytes: Buffer.from(r.bytes), sha256: r.sha256 } : null;
  }

  private async read(speaker: Speaker, userId: string, characterId: string, chapter: Chapter, voice: string, textSha256: string): Promise<ChapterAudioResult> {
    // Pending until the audio is stored: a process that dies meanwhile leaves it to the reconciliation.
    const spent = await this.deps.credits.spendPending(userId, CHAPTER_AUDIO_COST, 'chapter_audio');
    let bytes: Buffer;
    try {
      bytes = await speaker.speak(chapter.text, voice);
      await this.dataSource.transaction(async (m) => {
        // The chapter's text changed since: its older readings can never be asked for again.
        await m.query(`DELETE FROM chapter_audio WHERE chapter_id = $1 AND text_sha256 <> $2`, [chapter.id, textSha256]);
        const media = await this.deps.media.store(m, { mime: MP3, bytes });
        // Another instance may have read the same chapter meanwhile: theirs stands, this media goes.
        const inserted = (await m.query(
          `INSERT INTO chapter_audio (chapter_id, voice, text_sha256, media_id, model) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (chapter_id, voice, text_sha256) DO NOTHING RETURNING id`,
          [chapter.id, voice, textSha256, media.id, speaker.model],
        )) as unknown[];
        if (inserted.length === 0) await m.query(`DELETE FROM media WHERE id = $1`, [media.id]);
      });
      await this.deps.credits.settle(spent);
    } catch (e) {
      await this.deps.credits.refund(userId, spent, CHAPTER_AUDIO_COST);
      this.deps.logger.warn('chapter audio failed; the credit was refunded', { err: e instanceof Error ? e.message : String(e), chapterId: chapter.id, voice });
      // The speech server's own words stay in the log: they may name the key or the deployment.
      throw new AppError('GENERATION_FAILED', 'The server voice could not read this chapter; your credit was refunded.', {
        operation: 'speech',
        reason: isAppError(e) ? (e.details?.reason ?? 'invalid_output') : 'upstream_error',
      });
    }
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    return { chapterId: chapter.id, characterId, voice, mime: MP3, bytes, sha256, cached: false, creditsCharged: CHAPTER_AUDIO_COST };
  }
}

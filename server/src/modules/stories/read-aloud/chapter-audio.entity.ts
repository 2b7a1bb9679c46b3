import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Media } from '../../media/media.entity';
import { Chapter } from '../chapter.entity';

/**
 * A chapter read aloud by the server voice, kept so the next request costs neither a model call nor
 * credits. The key is the chapter (one take), the voice and the SHA-256 of the text read: an edited
 * chapter no longer matches and is read again; a regenerated chapter is another take, another row.
 * The audio itself is a media row (stored like images, served by every instance); a trigger deletes
 * it with this row, which goes with its chapter (undo, rewind's branch deletion, account deletion).
 */
@Entity('chapter_audio')
@Index('uq_chapter_audio_key', ['chapterId', 'voice', 'textSha256'], { unique: true })
export class ChapterAudio {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  chapterId: string;

  @ManyToOne(() => Chapter, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'chapter_id' })
  chapter?: Chapter;

  @Column({ type: 'varchar', length: 64 })
  voice: string;

  @Column({ type: 'char', length: 64 })
  textSha256: string;

  @Index('ix_chapter_audio_media')
  @Column({ type: 'uuid' })
  mediaId: string;

  @ManyToOne(() => Media, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'media_id' })
  media?: Media;

  /** The speech model that read it (for the operator; a model change does not invalidate the cache). */
  @Column({ type: 'varchar', length: 120 })
  model: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}

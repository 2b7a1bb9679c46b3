import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Character } from '../characters/character.entity';
import { Media } from '../media/media.entity';

/** One chapter of a published story: the player's action (if any) and the selected take's text. */
export interface PublishedChapter {
  choice: string | null;
  text: string;
}

/**
 * A story its player published as a read-only link (`/read/{id}`). What readers see is a snapshot
 * taken when the player published (or updated) it: the chapters as they were, the character's name,
 * the world's name and picture and the setting's style. So a rewind, an edit or a new chapter never
 * reaches readers unchecked, every snapshot passes moderation, and the page costs one read.
 *
 * The id is random and is the whole link: unpublishing deletes the row, so the old link is dead for
 * good and publishing again makes a new one. Updating keeps the link. One publication per story.
 */
@Entity('story_publications')
export class StoryPublication {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('uq_story_publications_character', { unique: true })
  @Column({ type: 'uuid' })
  characterId: string;

  @ManyToOne(() => Character, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'character_id' })
  character?: Character;

  /** The owner, for ownership checks without a join (the character's user). */
  @Index('ix_story_publications_user')
  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 120 })
  characterName: string;

  @Column({ type: 'varchar', length: 120, nullable: true })
  worldName: string | null;

  @Column({ type: 'uuid', nullable: true })
  worldImageMediaId: string | null;

  @ManyToOne(() => Media, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'world_image_media_id' })
  worldImage?: Media | null;

  @Column({ type: 'jsonb' })
  chapters: PublishedChapter[];

  /** The setting's validated style set when published (readers never cause a model call). */
  @Column({ type: 'jsonb' })
  styles: Record<string, string>;

  @CreateDateColumn({ type: 'timestamptz' })
  publishedAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /** Set when reports reached the threshold or an operator hid it; the link then answers 404. */
  @Column({ type: 'timestamptz', nullable: true })
  hiddenAt: Date | null;

  /**
   * Unpublished by its owner while hidden pending review: kept (out of sight) for the review, and a new
   * publish resumes this row still hidden, so publishing again is no way around a hide.
   */
  @Column({ type: 'timestamptz', nullable: true })
  withdrawnAt: Date | null;
}

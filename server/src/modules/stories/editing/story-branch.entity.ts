import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Character } from '../../characters/character.entity';

/**
 * Chapters set aside by a rewind (story-branch.service.ts): every take of every chapter after the one the
 * player rewound to, as the rows were, so returning to the branch puts them back exactly and
 * re-applies their recorded effects (stats, setting, missions, story cards).
 *
 * The rows are kept as one JSON document rather than as chapters with a branch column: every read of
 * the story (storyline, prompts, exports, commit_chapter) then stays a read of `chapters` alone.
 * A branch grows from one take of one chapter (`fromChapterId`, not a foreign key: that chapter may
 * itself be set aside in another branch, and comes back under the same id when that one is restored).
 * Undoing the chapter a branch grows from deletes the branch, since what it continued is gone.
 */
@ObjectType({ description: 'Chapters set aside by a rewind; the player can return to them.' })
@Entity('story_branches')
@Index('ix_story_branches_character', ['characterId'])
export class StoryBranch {
  @Field(() => ID)
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  characterId: string;

  @ManyToOne(() => Character, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'character_id' })
  character?: Character;

  /**
   * The selected take of chapter `fromIndex` when the branch was set aside: it continues that take,
   * and can be returned to only while that take is the selected one.
   */
  @Column({ type: 'uuid' })
  fromChapterId: string;

  /** 0-based index of the chapter the branch continues. */
  @Column({ type: 'integer' })
  fromIndex: number;

  /** The set-aside chapter rows (every take), as `to_jsonb(chapters)`. */
  @Column({ type: 'jsonb' })
  chapters: Record<string, unknown>[];

  @Field(() => Int, { description: 'How many chapters the branch holds.' })
  @Column({ type: 'integer' })
  chapterCount: number;

  @Field(() => String, { nullable: true, description: "The player's action that opened the branch." })
  @Column({ type: 'text', nullable: true })
  firstAction: string | null;

  @Field({ description: 'The start of the branch’s last chapter.' })
  @Column({ type: 'text', default: '' })
  preview: string;

  @Field()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Field(() => Int, { description: 'The chapter (1-based) the branch continues.' })
  get fromChapterNumber(): number {
    return this.fromIndex + 1;
  }
}

/** A branch as listed: everything but the rows themselves, which are only read to restore them. */
export const BRANCH_LIST_COLUMNS = {
  id: true,
  characterId: true,
  fromChapterId: true,
  fromIndex: true,
  chapterCount: true,
  firstAction: true,
  preview: true,
  createdAt: true,
} as const;

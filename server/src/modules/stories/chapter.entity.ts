import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { CastMember, CheckOutcome, CheckOutcomeKind, MemoryKind, PromptReport, StatName, StoryCardKind } from '../../ai/story-ai';
import type { ChoiceCheck } from './stakes/checks';
import { Character } from '../characters/character.entity';

/** A story card's whole state, as a take's card effect records it (see story-cards.ts). */
export interface CardSnapshot {
  id: string;
  kind: StoryCardKind;
  name: string;
  aliases: string[];
  description: string;
  role: string | null;
  status: string | null;
  pinned: boolean;
  source: string;
  edited: boolean;
  lastSeenIndex: number | null;
  /** An item the hero carries (the inventory); false for every other card. Absent in takes recorded before items. */
  held?: boolean;
  revision: string;
}
export interface CardEffect {
  before: CardSnapshot | null;
  after: CardSnapshot;
}

@ObjectType('CastMember', { description: 'Someone a chapter showed besides the player character.' })
class CastMemberType {
  @Field()
  name: string;
  @Field(() => String, { nullable: true })
  role: string | null;
  @Field(() => String, { nullable: true })
  description: string | null;
  @Field(() => String, { nullable: true })
  status: string | null;
}

@ObjectType('ChapterCheck', {
  description: 'The check the engine rolled for the action before the chapter was written: total = roll + modifier + itemBonus against difficulty.',
})
class ChapterCheckType implements CheckOutcome {
  @Field({ description: 'What the action attempted, as the engine read it.' })
  attempt: string;
  @Field(() => String, { description: 'The stat tested (strength, agility, endurance, intellect, wisdom, charisma).' })
  stat: StatName;
  @Field(() => Int, { description: 'The number to reach (8–20, after the story difficulty).' })
  difficulty: number;
  @Field(() => Int, { description: 'The d20 as it fell (1–20).' })
  roll: number;
  @Field(() => Int, { description: 'From the stat: ⌊(stat − 10) / 2⌋.' })
  modifier: number;
  @Field(() => Int, { description: 'From an item the action used (+2), else 0.' })
  itemBonus: number;
  @Field(() => String, { nullable: true, description: 'The item the action used.' })
  item: string | null;
  @Field(() => Int)
  total: number;
  @Field(() => String, { description: 'critical_success, success, success_at_cost, failure or critical_failure.' })
  outcome: CheckOutcomeKind;
  @Field(() => Int, { description: 'Health the outcome cost.' })
  healthLost: number;
  @Field({ description: 'The item was used up by it.' })
  itemUsedUp: boolean;
}

@ObjectType('ChapterStakes', { description: "What the chapter did to the hero's health and belongings (recorded with the take)." })
export class ChapterStakesType {
  @Field(() => Int)
  healthBefore: number;
  @Field(() => Int)
  healthAfter: number;
  @Field(() => Int, { description: 'The most health after the chapter.' })
  healthMax: number;
  @Field({ description: 'Health reached 0: the hero was defeated (the player rewinds or goes on).' })
  defeat: boolean;
  @Field(() => Int, { description: 'Going on after a defeat cost this much of the most health, for good.' })
  lastingCost: number;
  @Field(() => Int, { description: 'Health given back by rest or help.' })
  healthRestored: number;
  @Field(() => [String], { description: 'Things the hero came to carry.' })
  itemsGained: string[];
  @Field(() => [String], { description: 'Things the hero no longer carries (lost, given, used up).' })
  itemsLost: string[];
}

/**
 * A party companion's part of a round's take (issue 34, step 7): their own action, judged and rolled
 * on their party stats (party_members.stats), and the stats before and after the take — so undo,
 * another take and a rewind put them back exactly, as statsBefore does for the hero.
 */
export interface PartyMemberCheck {
  userId: string;
  /** Their character's name when the round was written. */
  name: string;
  /** Their own part of the round's action. */
  action: string;
  /** Null: a routine action (no roll). */
  check: CheckOutcome | null;
  statsBefore: Record<string, number>;
  statsAfter: Record<string, number>;
  statIncreases: Record<string, number>;
}

@ObjectType('PartyMemberCheck', { description: "A party companion's own check in a round's chapter, rolled on their party stats." })
class PartyMemberCheckType {
  @Field(() => ID)
  userId: string;
  @Field({ description: "The companion's character name." })
  name: string;
  @Field({ description: 'Their own part of the round.' })
  action: string;
  @Field(() => ChapterCheckType, { nullable: true, description: 'Null: a routine action (no roll).' })
  check: CheckOutcome | null;
  @Field(() => GraphQLJSONObject, { description: 'What their party stats grew by in this chapter.' })
  statIncreases: Record<string, number>;
}

export type ChapterStatus = 'generating' | 'complete' | 'failed';

/**
 * A memory a take left in the story's memory bank (memory/memory-bank.ts): kept on the take's own row,
 * so undo, another take, a rewind and a restored branch carry it exactly as they carry the text.
 */
export interface TakeMemory {
  id: string;
  kind: MemoryKind;
  text: string;
  pinned: boolean;
  /** 'storyteller': the chapter's own record; 'action': the player's typed action, kept as they wrote it. */
  source: 'storyteller' | 'action';
  /** The player rewrote it. */
  edited: boolean;
}

/** A mission a chapter take started, kept whole so re-selecting the take recreates it identically. */
export interface MissionSnapshot {
  id: string;
  objective: string;
  startedAt: string;
}
export interface MissionEffects {
  /** Objective generated before the chapter because the character had no mission. */
  preMission?: MissionSnapshot;
  /** Id of the mission this take completed (the one active before it, or its pre-mission). */
  completedMissionId?: string;
  completedAt?: string;
  /** The next mission this take brought. */
  newMission?: MissionSnapshot;
}

/** The hero's health as a take records it: before and after, and whether it was a defeat. */
export interface TakeStakes {
  healthBefore: number;
  healthMaxBefore: number;
  healthAfter: number;
  healthMaxAfter: number;
  /** Health reached 0 in this chapter. */
  defeat: boolean;
  /** The hero went on after the previous chapter's defeat: the maximum this cost. */
  lastingCost: number;
  /** Health given back by rest or help in this chapter. */
  healthRestored: number;
  itemsGained: string[];
  itemsLost: string[];
}

/**
 * One take of one chapter. Alternative takes of the same index are kept (regenerate); exactly one
 * per index is selected. A partial unique index allows at most one generating chapter per character,
 * so the storyline can never fork even with several instances.
 */
@ObjectType()
@Entity('chapters')
@Index('uq_chapters_selected', ['characterId', 'index'], { unique: true, where: '"is_selected"' })
@Index('uq_chapters_take', ['characterId', 'index', 'take'], { unique: true })
@Index('uq_chapters_one_generating', ['characterId'], { unique: true, where: `"status" = 'generating'` })
export class Chapter {
  @Field(() => ID)
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  characterId: string;

  @ManyToOne(() => Character, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'character_id' })
  character?: Character;

  @Field(() => Int)
  @Column({ type: 'integer' })
  index: number;

  @Field(() => Int)
  @Column({ type: 'smallint', default: 0 })
  take: number;

  @Column({ type: 'boolean', default: true })
  isSelected: boolean;

  @Field(() => String)
  @Column({ type: 'varchar', length: 16, default: 'complete' })
  status: ChapterStatus;

  /** Grows chunk by chunk while generating, so a reconnecting reader gets the text so far. */
  @Field()
  @Column({ type: 'text', default: '' })
  text: string;

  @Field(() => String, { nullable: true })
  @Column({ type: 'text', nullable: true })
  playerChoice: string | null;

  @Field(() => [String])
  @Column({ type: 'jsonb', default: () => "'[]'" })
  choices: string[];

  @Field(() => String, { nullable: true })
  @Column({ type: 'text', nullable: true })
  setting: string | null;

  @Field(() => GraphQLJSONObject)
  @Column({ type: 'jsonb', default: () => "'{}'" })
  statIncreases: Record<string, number>;

  /** Character stats after this chapter: undo and take selection restore them exactly. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  statsAfter: Record<string, number>;

  /**
   * Character state just before this chapter (every take of an index shares it): undo and switching
   * takes restore exactly this, never a recomputation (stat caps make "after − increases" lossy).
   */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  statsBefore: Record<string, number>;

  @Column({ type: 'text', nullable: true })
  settingBefore: string | null;

  /**
   * What this take did to missions, as applied when it was selected (see state/take-effects.ts): re-applied
   * verbatim when the player switches back to it, so mission ids and times come back exactly.
   */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  missionEffects: MissionEffects;

  /** The people the chapter showed besides the hero, as the model (or storyteller) reported them. */
  @Field(() => [CastMemberType], {
    name: 'cast',
    description: 'The named people of this chapter besides the player character (REST: updatedCurrentCharacters).',
  })
  @Column({ type: 'jsonb', default: () => "'[]'" })
  castMembers: CastMember[];

  /**
   * What this take did to story cards, as applied: each a card's state before (null: the take created
   * it) and after. Undo applies them backwards; re-selecting the take applies them again.
   */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  cardEffects: CardEffect[];

  /** The check rolled for the action before the take was written (null: routine, or before issue 31). */
  @Field(() => ChapterCheckType, { nullable: true, name: 'check', description: 'The check rolled for the action (null: a routine action, no roll).' })
  @Column({ type: 'jsonb', nullable: true })
  checkOutcome: CheckOutcome | null;

  /**
   * The storyteller's proposals for this chapter's choices that could fail: the choice as offered, its
   * stat and difficulty (stakes/checks.ts judgeAction uses one, within bounds, when it is chosen).
   */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  choiceChecks: ChoiceCheck[];

  /** The party whose round this take was written for (null: not a party round). */
  @Column({ type: 'uuid', nullable: true })
  partyId: string | null;

  /** The party round (live) or turn (by post) the take answers: undo and rewind reopen it. */
  @Column({ type: 'integer', nullable: true })
  partyRound: number | null;

  /** The other players' checks in that round, each on their own party stats (see PartyMemberCheck). */
  @Field(() => [PartyMemberCheckType], { description: "A party round's companions' own checks (empty outside party rounds)." })
  @Column({ type: 'jsonb', default: () => "'[]'" })
  partyChecks: PartyMemberCheck[];

  /** What the take did to health and items, before and after (stakes/hero-state.ts); null before issue 31. */
  @Column({ type: 'jsonb', nullable: true })
  stakes: TakeStakes | null;

  @Field(() => ChapterStakesType, { nullable: true, name: 'stakes', description: "The chapter's health and item changes (null for chapters before stakes)." })
  get stakesView(): ChapterStakesType | null {
    const s = this.stakes;
    if (!s) return null;
    return {
      healthBefore: s.healthBefore,
      healthAfter: s.healthAfter,
      healthMax: s.healthMaxAfter,
      defeat: s.defeat,
      lastingCost: s.lastingCost,
      healthRestored: s.healthRestored,
      itemsGained: s.itemsGained,
      itemsLost: s.itemsLost,
    };
  }

  /** The memories this take left in the memory bank (see TakeMemory). */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  memories: TakeMemory[];

  /**
   * What the storyteller was sent for this take, section by section, with token counts and what was
   * left out and why ("what the storyteller remembered"). Kept for the latest chapters only; never
   * read with the chapter (it holds the whole prompt): memory/remembered.ts reads it when asked.
   */
  @Column({ type: 'jsonb', nullable: true, select: false })
  promptReport: PromptReport | null;

  /** When the player last rewrote this chapter's text (null: the storyteller's own); exports mark it. */
  @Column({ type: 'timestamptz', nullable: true })
  textEditedAt: Date | null;

  /** When the player last rewrote the action that led to this chapter. */
  @Column({ type: 'timestamptz', nullable: true })
  choiceEditedAt: Date | null;

  @Field({ description: "The player rewrote this chapter's text." })
  get edited(): boolean {
    return this.textEditedAt != null;
  }

  @Field({ description: 'The player rewrote the action that led to this chapter.' })
  get actionEdited(): boolean {
    return this.choiceEditedAt != null;
  }

  /**
   * When the player stopped this take while it was written (generation-engine.ts stop): it is then
   * failed like any abandoned take, and readers are told it was stopped, not that it broke.
   */
  @Column({ type: 'timestamptz', nullable: true })
  stoppedAt: Date | null;

  /** When the take was committed; null while generating or failed. */
  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Field()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

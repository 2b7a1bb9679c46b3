import { Field, ID, ObjectType } from 'type-graphql';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@ObjectType({ description: 'A player account.' })
@Entity('users')
export class User {
  @Field(() => ID)
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Stored lower-cased and trimmed; uniqueness is on this normalised form. */
  @Field()
  @Index('uq_users_email', { unique: true })
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Field()
  @Column({ type: 'varchar', length: 40 })
  username: string;

  @Column({ type: 'text' })
  passwordHash: string;

  /**
   * When the player proved the address is theirs (a confirmation link, a mailed code, a reset link).
   * Set at sign-up when REQUIRE_EMAIL_CONFIRMATION is off; with it on, sign-in waits for it.
   */
  @Column({ type: 'timestamptz', nullable: true })
  emailConfirmedAt: Date | null;

  /** Set by an operator (`npm run admin -- disable`): no sign-in, no refresh, sessions revoked. */
  @Column({ type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @Field()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

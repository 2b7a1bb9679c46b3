import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@ObjectType({ description: 'A subscription tier. Prices in USD per month.' })
@Entity('tiers')
export class Tier {
  @Field(() => ID)
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Field()
  @Column({ type: 'varchar', length: 64 })
  name: string;

  /** Integer cents: money is never a float in storage. */
  @Column({ type: 'integer' })
  priceCents: number;

  @Field(() => Float, { description: 'USD per month.' })
  get price(): number {
    return this.priceCents / 100;
  }

  @Field(() => Int)
  @Column({ type: 'integer' })
  monthlyCredits: number;

  @Field(() => Int)
  @Column({ type: 'integer' })
  maxContextTokens: number;

  @Field()
  @Column({ type: 'text' })
  description: string;

  @Field(() => [String])
  @Column({ type: 'jsonb', default: () => "'[]'" })
  features: string[];

  @Column({ type: 'smallint', default: 0 })
  sortOrder: number;
}

import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { World } from './world.entity';

@InputType({ description: 'A new world (SPEC §3 "New world"). Costs 3 credits.' })
export class SubmitWorldInput {
  @Field()
  name: string;

  @Field()
  description: string;

  @Field(() => [String], { description: 'The first is required; blank entries are dropped.' })
  questions: string[];

  @Field(() => String, {
    nullable: true,
    description:
      'Optional image as a data URL (data:image/jpeg|png|webp;base64,…), at most 5 MB decoded — e.g. the result of generateWorldImage or a file the player picked. The type is read from the bytes; the image is re-encoded before it is stored.',
  })
  image?: string | null;
}

@ObjectType({ description: 'One page of the community list.' })
export class CommunityPage {
  @Field(() => [World])
  worlds: World[];

  @Field(() => Int, { description: 'Matching worlds in all.' })
  total: number;
}

@ObjectType({ description: 'Credit to the world a remix was copied from.' })
export class WorldCredit {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => String, { nullable: true, description: "The original creator's username (null for featured worlds)." })
  author: string | null;
}

import { Field, InputType, Int } from 'type-graphql';

@InputType({ description: 'Skills, personality traits and free time are required; pastTimes is optional.' })
export class CharacterProfileInput {
  @Field()
  skills: string;

  @Field()
  personalityTraits: string;

  @Field()
  freeTime: string;

  @Field(() => String, { nullable: true })
  pastTimes?: string | null;
}

@InputType({ description: 'Only the fields given change.' })
export class SettingsInput {
  @Field(() => Boolean, { nullable: true })
  immersiveUi?: boolean | null;

  @Field(() => Int, { nullable: true, description: '1–12.' })
  readingLevel?: number | null;
}

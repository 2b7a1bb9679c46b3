import { Field, Float, InputType, Int } from 'type-graphql';

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

  @Field(() => String, { nullable: true, description: "'browser' or 'server'." })
  readAloudEngine?: string | null;

  @Field(() => String, { nullable: true, description: "A browser voice's name ('' = the browser's default); at most 200 characters." })
  readAloudVoice?: string | null;

  @Field(() => String, { nullable: true, description: "One of the server's voices (readAloud.voices), or '' for its first." })
  readAloudServerVoice?: string | null;

  @Field(() => Float, { nullable: true, description: '0.5–2.' })
  readAloudRate?: number | null;

  @Field(() => Boolean, { nullable: true })
  readAloudAuto?: boolean | null;
}

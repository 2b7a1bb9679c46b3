import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { SpecialAbility } from './character.entity';

@ObjectType({ description: 'A freshly generated character profile (not saved yet): SPEC §3 "Generated character profile".' })
export class GeneratedCharacter {
  @Field()
  username: string;

  @Field(() => GraphQLJSONObject, { description: 'Stat name → value (1–20).' })
  stats: Record<string, number>;

  @Field()
  description: string;

  @Field(() => [String])
  traits: string[];

  @Field(() => [String])
  strengths: string[];

  @Field(() => [String])
  weaknesses: string[];

  @Field(() => SpecialAbility)
  special: SpecialAbility;

  @Field(() => ID, {
    nullable: true,
    description: 'The draft this character is kept as until you save or discard it (null when no worldId was given).',
  })
  draftId: string | null;
}

@InputType()
export class GenerateCharacterInput {
  @Field()
  worldDescription: string;

  @Field(() => [String])
  questions: string[];

  @Field(() => [String], { description: 'One answer per question, same order.' })
  answers: string[];

  @Field({ description: "The character's name." })
  username: string;

  @Field(() => ID, { nullable: true, description: 'The world it is spawned into: the character is then kept as a draft until saved or discarded.' })
  worldId?: string | null;
}

@InputType()
export class SpawnFromProfileInput {
  @Field()
  worldDescription: string;

  @Field(() => String, { nullable: true, description: "The character's name; defaults to your username." })
  username?: string | null;

  @Field(() => ID, { nullable: true, description: 'The world it is spawned into: the character is then kept as a draft until saved or discarded.' })
  worldId?: string | null;
}

@InputType()
export class SpecialAbilityInput {
  @Field()
  name: string;

  @Field()
  description: string;
}

@InputType({ description: 'SPEC §3 saved-character payload.' })
export class SaveCharacterInput {
  @Field()
  name: string;

  @Field(() => ID)
  worldId: string;

  @Field(() => GraphQLJSONObject)
  stats: Record<string, number>;

  @Field()
  description: string;

  @Field(() => [String])
  traits: string[];

  @Field(() => [String])
  strengths: string[];

  @Field(() => [String])
  weaknesses: string[];

  @Field(() => SpecialAbilityInput)
  special: SpecialAbilityInput;

  @Field(() => [String], {
    nullable: true,
    description: "The player's answers to the world's questions, in their order: the story keeps them as threads to return to.",
  })
  answers?: string[] | null;
}

import { Arg, Authorized, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { requireUser } from '../../../graphql/auth-checker';
import type { GraphQLContext } from '../../../graphql/context';
import type { ChapterAudioResult, ReadAloudInfo } from './read-aloud.service';

@ObjectType('ReadAloudInfo', { description: 'What read-aloud offers on this server (the browser voice needs nothing from it).' })
class ReadAloudInfoType implements ReadAloudInfo {
  @Field({ description: 'A speech key is configured: chapters can be read by the server voice.' })
  serverVoiceAvailable: boolean;

  @Field(() => [String], { description: 'The server voices (empty when not available).' })
  voices: string[];

  @Field(() => Int, { description: 'Credits a chapter costs the first time it is read in a voice (free from the cache; refunded on failure).' })
  creditsPerChapter: number;
}

@ObjectType('ChapterAudio', { description: 'A chapter read aloud by the server voice, stored for the next time.' })
class ChapterAudioType {
  @Field(() => ID)
  chapterId: string;

  @Field()
  voice: string;

  @Field({ description: 'Where the MP3 is (GET with your bearer token; the REST twin of this mutation, answered from the cache now).' })
  url: string;

  @Field()
  mimeType: string;

  @Field(() => Int)
  byteLength: number;

  @Field({ description: 'Read before: no model call and no credit.' })
  cached: boolean;

  @Field(() => Int)
  creditsCharged: number;
}

/** The REST twin's path (stories.rest.ts) of a chapter's audio in a voice. */
function chapterAudioPath(r: Pick<ChapterAudioResult, 'characterId' | 'chapterId' | 'voice'>): string {
  return `/api/stories/${r.characterId}/chapters/${r.chapterId}/audio?voice=${encodeURIComponent(r.voice)}`;
}

@Resolver()
export class ReadAloudResolver {
  @Query(() => ReadAloudInfoType, { description: 'Public: whether the server voice is offered, its voices and what a chapter costs.' })
  readAloud(@Ctx() ctx: GraphQLContext): ReadAloudInfo {
    return ctx.services.readAloud.info();
  }

  @Authorized()
  @Mutation(() => ChapterAudioType, {
    description:
      'Reads one of your chapters with the server voice (also GET /api/stories/{characterId}/chapters/{chapterId or number}/audio?voice=). 1 credit the first time a chapter is read in a voice, free from the cache, refunded when the speech server fails; SERVICE_UNAVAILABLE without a speech key.',
  })
  async readChapterAloud(
    @Arg('characterId', () => ID) characterId: string,
    @Arg('chapterId', () => ID) chapterId: string,
    @Arg('voice', () => String, { nullable: true, description: "One of readAloud.voices; absent or '': the first." }) voice: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ChapterAudioType> {
    const r = await ctx.services.readAloud.chapterAudio(requireUser(ctx).id, characterId, chapterId, voice);
    return {
      chapterId: r.chapterId,
      voice: r.voice,
      url: chapterAudioPath(r),
      mimeType: r.mime,
      byteLength: r.bytes.length,
      cached: r.cached,
      creditsCharged: r.creditsCharged,
    };
  }
}

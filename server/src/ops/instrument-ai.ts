import type { ChapterEvent, StoryAI } from '../ai/story-ai';
import type { Metrics } from './metrics';

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/**
 * The same StoryAI, timing every call into `taleforge_generation_duration_seconds`. A chapter is timed
 * from the request to its final event (or its failure), so the histogram shows what players wait.
 */
export function instrumentStoryAI(ai: StoryAI, metrics: Metrics): StoryAI {
  const timed =
    <A extends unknown[], R>(kind: string, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const start = process.hrtime.bigint();
      try {
        const r = await call(...args);
        metrics.observeGeneration(kind, 'ok', seconds(start));
        return r;
      } catch (e) {
        metrics.observeGeneration(kind, 'failed', seconds(start));
        throw e;
      }
    };
  return {
    kind: ai.kind,
    missionInChapter: ai.missionInChapter,
    generateWorldDescription: timed('world_description', ai.generateWorldDescription.bind(ai)),
    generateWorldQuestions: timed('world_questions', ai.generateWorldQuestions.bind(ai)),
    generateWorldImage: timed('world_image', ai.generateWorldImage.bind(ai)),
    generateCharacter: timed('character', ai.generateCharacter.bind(ai)),
    generateMission: timed('mission', ai.generateMission.bind(ai)),
    generateStyles: timed('styles', ai.generateStyles.bind(ai)),
    summarize: timed('summary', ai.summarize.bind(ai)),
    streamChapter: (input, opts) => timedStream(ai.streamChapter(input, opts), metrics),
  };
}

async function* timedStream(stream: AsyncIterable<ChapterEvent>, metrics: Metrics): AsyncGenerator<ChapterEvent> {
  const start = process.hrtime.bigint();
  let outcome: 'ok' | 'failed' = 'failed';
  try {
    for await (const ev of stream) {
      if (ev.type === 'final') outcome = 'ok';
      yield ev;
    }
  } finally {
    // Runs on completion, on error and when the consumer stops early (abort): every chapter counts once.
    metrics.observeGeneration('chapter', outcome, seconds(start));
  }
}

import { createRealtime } from './pubsub';

/**
 * Redis down while an event is published (found by the Redis-restart fault test, where it failed
 * one CI run): the publish fails once its retries run out, and that failure is logged, never left
 * as an unhandled rejection that would end the process.
 */
it('a publish while Redis is unreachable is logged, not an unhandled rejection', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  const warnings: string[] = [];
  const logger = { warn: (msg: string) => warnings.push(msg), info: () => undefined, error: () => undefined, debug: () => undefined };
  // Nothing listens on port 1: every connection attempt is refused.
  const rt = createRealtime({ redisUrl: 'redis://127.0.0.1:1' }, logger as never);
  try {
    rt.pubSub.publish('status', 'user-1', { credits: 1 });
    for (let i = 0; i < 100 && !warnings.includes('redis publish failed; other instances miss this event'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(warnings).toContain('redis publish failed; other instances miss this event');
    await new Promise((r) => setImmediate(r));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await rt.close();
  }
});

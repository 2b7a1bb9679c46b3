import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, type PubSub } from '@graphql-yoga/subscription';
import type Redis from 'ioredis';
import { ioredis } from '../common/lazy-modules';
import type { Logger } from '../common/logger';
import type { Config } from '../config/env';

/** Every topic is published per id (a user id), so a subscriber only ever receives its own channel. */
type Topics = { [topic: string]: [id: string, payload: unknown] };
type AppPubSub = PubSub<Topics>;

export interface Realtime {
  /** Handed to type-graphql's buildSchema for @Subscription resolvers, and used by services to publish. */
  pubSub: AppPubSub;
  mode: 'memory' | 'redis';
  /** Resolves once the Redis connections are up (immediately in memory). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * In-process by default. With REDIS_URL, events go through Redis pub/sub so a change made on one
 * instance reaches subscribers connected to another. Payloads cross Redis as JSON: publish plain
 * JSON-safe values (dates as ISO strings) so both modes deliver exactly the same thing.
 */
export function createRealtime(config: Pick<Config, 'redisUrl'>, logger?: Logger): Realtime {
  if (!config.redisUrl) {
    return { pubSub: createPubSub<Topics>(), mode: 'memory', ready: async () => undefined, close: async () => undefined };
  }
  // Subscribing puts a Redis connection in subscriber mode, so publishing needs a second one.
  const options = { maxRetriesPerRequest: 3, connectionName: 'taleforge-pubsub' };
  const publishClient = new (ioredis())(config.redisUrl, options);
  const subscribeClient = new (ioredis())(config.redisUrl, options);
  for (const client of [publishClient, subscribeClient]) {
    // ioredis reconnects (and re-subscribes) by itself; without a listener an error would crash the process.
    client.on('error', (err) => logger?.warn('redis pub/sub connection error', { err }));
  }
  // The event target publishes without handling the result: while Redis is down, a publish fails
  // once its retries run out, and unhandled, that rejection would end the process (or, in tests,
  // fail whichever test is running). The event is lost then, as any event sent while Redis is down;
  // a subscriber reads the current status again when it resubscribes.
  const rawPublish = publishClient.publish.bind(publishClient) as (channel: string, message: string) => Promise<number>;
  publishClient.publish = ((channel: string, message: string) =>
    rawPublish(channel, message).catch((err: unknown) => {
      logger?.warn('redis publish failed; other instances miss this event', { err, channel });
      return 0;
    })) as typeof publishClient.publish;
  const eventTarget = createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient });
  const whenReady = (c: Redis) => (c.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => c.once('ready', () => resolve())));
  return {
    pubSub: createPubSub<Topics>({ eventTarget }),
    mode: 'redis',
    ready: async () => {
      await Promise.all([whenReady(publishClient), whenReady(subscribeClient)]);
    },
    close: async () => {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}

import { ApolloLink } from '@apollo/client/link';
import { Observable } from 'rxjs';

/**
 * A scripted subscription transport: each subscription operation opens a channel the test can push
 * results into (`emit`) or end (`complete`). Channels are recorded by operation name, with variables.
 */
export interface Channel {
  operationName: string;
  variables: Record<string, unknown>;
  emit(data: unknown): void;
  fail(error: Error): void;
  complete(): void;
  closed: boolean;
}

export function createFakeSubscriptions() {
  const channels: Channel[] = [];
  const listeners = new Set<(c: Channel) => void>();
  const link = new ApolloLink(
    (operation) =>
      new Observable<ApolloLink.Result>((observer) => {
        const channel: Channel = {
          operationName: operation.operationName ?? '',
          variables: operation.variables as Record<string, unknown>,
          emit: (data) => observer.next({ data: data as Record<string, unknown> }),
          fail: (error) => observer.error(error),
          complete: () => observer.complete(),
          closed: false,
        };
        channels.push(channel);
        for (const l of listeners) l(channel);
        return () => {
          channel.closed = true;
        };
      }),
  );
  /** The latest open channel of an operation (waits for it to open). */
  async function channel(operationName: string, timeoutMs = 3000): Promise<Channel> {
    const found = [...channels].reverse().find((c) => c.operationName === operationName && !c.closed);
    if (found) return found;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No ${operationName} subscription opened`)), timeoutMs);
      const l = (c: Channel) => {
        if (c.operationName !== operationName) return;
        clearTimeout(timer);
        listeners.delete(l);
        resolve(c);
      };
      listeners.add(l);
    });
  }
  return { link, channels, channel };
}

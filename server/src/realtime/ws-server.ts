import type { Socket } from 'node:net';
import { CloseCode, DEPRECATED_GRAPHQL_WS_PROTOCOL, handleProtocols, makeServer, type Disposable, type ServerOptions } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import type { WebSocketServer } from 'ws';
import type { Logger } from '../common/logger';

/** A socket with this much unsent data makes the sender wait until it drains (backpressure). */
const SEND_HIGH_WATER_BYTES = 256 * 1024;
const KEEP_ALIVE_MS = 12_000;

/**
 * graphql-ws on a `ws` server: graphql-ws's own `useServer` adapter (which its documentation invites
 * to copy and adjust), with one change in how messages are written.
 *
 * `useServer` waits for every message to be flushed to the socket before graphql-ws may send the
 * next one, so a subscription's last event and its `complete` message — sent back to back — always
 * cost two writes, and a write to a socket is a system call (≈ 0.1 ms each in the story bench on a
 * 2-core VM, as much as executing the event itself). Here a message is queued at
 * once while the socket keeps up (graphql-ws waits only when SEND_HIGH_WATER_BYTES are unsent, so a
 * slow reader still holds its producer back), and everything written to a socket in one tick goes
 * out in one write: the socket is corked on the first message and uncorked when the tick's
 * microtasks have run.
 */
export function serveGraphQLOverWs<E extends Record<PropertyKey, unknown>>(
  options: ServerOptions<Record<string, unknown>, Extra & Partial<E>>,
  ws: WebSocketServer,
  { isProd, logger }: { isProd: boolean; logger: Logger },
): Disposable {
  const server = makeServer(options);
  const closeReason = (err: unknown) => (isProd ? 'Internal server error' : limit(err instanceof Error ? err.message : String(err), 'Internal server error'));
  ws.options.handleProtocols = handleProtocols;

  ws.once('error', (err) => {
    logger.error('internal error on the WebSocket server', { err });
    for (const client of ws.clients) client.close(CloseCode.InternalServerError, closeReason(err));
  });

  ws.on('connection', (socket, request) => {
    socket.once('error', (err) => {
      logger.error('internal error on a WebSocket', { err });
      socket.close(CloseCode.InternalServerError, closeReason(err));
    });
    // Pings catch connections that died without a close (a phone that lost its network).
    let pongWait: NodeJS.Timeout | null = null;
    const pingInterval = setInterval(() => {
      if (socket.readyState !== socket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
      socket.once('pong', () => {
        if (pongWait) clearTimeout(pongWait);
        pongWait = null;
      });
      socket.ping();
    }, KEEP_ALIVE_MS);
    const tcp = request.socket;

    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) => {
          if (socket.readyState !== socket.OPEN) return;
          batchWrites(tcp);
          if (socket.bufferedAmount < SEND_HIGH_WATER_BYTES) {
            socket.send(data);
            return;
          }
          return new Promise<void>((resolve, reject) => socket.send(data, (err) => (err ? reject(err) : resolve())));
        },
        close: (code, reason) => socket.close(code, reason),
        onMessage: (cb) =>
          socket.on('message', (event) => {
            cb(String(event)).catch((err: unknown) => {
              logger.error('internal error while handling a WebSocket message', { err });
              socket.close(CloseCode.InternalServerError, closeReason(err));
            });
          }),
      },
      { socket, request } as Extra & Partial<E>,
    );

    socket.once('close', (code, reason) => {
      if (pongWait) clearTimeout(pongWait);
      clearInterval(pingInterval);
      if (!isProd && code === CloseCode.SubprotocolNotAcceptable && socket.protocol === DEPRECATED_GRAPHQL_WS_PROTOCOL) {
        logger.warn('a client asked for the deprecated subscriptions-transport-ws protocol');
      }
      void closed(code, String(reason));
    });
  });

  return {
    dispose: async () => {
      for (const client of ws.clients) client.close(1001, 'Going away');
      ws.removeAllListeners();
      await new Promise<void>((resolve, reject) => ws.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

const corked = new WeakSet<Socket>();

/** Holds the socket's writes until the current tick's microtasks have run, then sends them together. */
function batchWrites(tcp: Socket): void {
  if (corked.has(tcp)) return;
  corked.add(tcp);
  tcp.cork();
  process.nextTick(() => {
    corked.delete(tcp);
    tcp.uncork();
  });
}

/** WebSocket close reasons are limited to 123 bytes. */
function limit(reason: string, whenTooLong: string): string {
  return Buffer.byteLength(reason) < 124 ? reason : whenTooLong;
}

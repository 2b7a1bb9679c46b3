import type http from 'node:http';
import type net from 'node:net';

/**
 * Draining the HTTP server on shutdown, with nothing paid per request: Apollo's drain plugin counts
 * every request on a 'request' listener and a 'finish' listener of its own, which the cached public
 * reads — answered in microseconds — paid on every hit. Here only connections are tracked (once per
 * connection, not per request), and once draining starts:
 * - the listener is closed (no new connections) and idle keep-alive connections are closed at once;
 * - the front answers every request it still gets with `Connection: close` (front.ts, `draining`), and
 *   each connection that goes idle after its last response is closed by a sweep (Node's
 *   closeIdleConnections, every 25 ms);
 * - after the grace period whatever is left (a request still running, an upgraded WebSocket that
 *   never answered its close) is destroyed.
 */
export interface HttpDrainer {
  drain(graceMs: number): Promise<void>;
}

const IDLE_SWEEP_MS = 25;

export function httpDrainer(server: http.Server): HttpDrainer {
  // Upgraded sockets (WebSockets) leave Node's own HTTP connection list; this set keeps them too.
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    async drain(graceMs) {
      const closed = server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      const hard = setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, graceMs);
      try {
        await closed;
      } finally {
        clearInterval(sweep);
        clearTimeout(hard);
      }
    },
  };
}

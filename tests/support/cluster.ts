import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

/**
 * The docker-compose topology without Docker: app instances as real server processes (the built
 * `server/dist/index.js`) on the machine's PostgreSQL and Redis, behind a small round-robin proxy
 * that passes WebSocket upgrades, like deploy/nginx.conf.
 */
export const SERVER = path.resolve(__dirname, '..', '..', 'server', 'dist', 'index.js');

export interface Instance {
  name: string;
  proc: ChildProcess;
  url: string;
  port: number;
  output(): string;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The limit for booting server processes in a test's beforeAll. A boot is not what these tests judge,
 * and its pace is the machine's: one took 30 s with the 2-core machine at load average 20 (a test
 * that booted inside its own 60 s then timed out). The tests' own limits keep judging what they test.
 */
export const INSTANCE_BOOT_TIMEOUT_MS = 240_000;

/** Metrics are off in production without a token: the instances are scraped with this one. */
export const METRICS_TOKEN = 'cluster-metrics-token-0123456789';

export function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: build the server first (npm test does).`);
  return startProcess(name, process.execPath, [SERVER], {
    // The instances of one test run share their rate-limit windows (as a deployment does), apart from
    // other runs and benches on the same Redis.
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOCAL_CHECKOUT_DEMO: 'true',
      METRICS_TOKEN,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_KEY_PREFIX: `taleforge:rl:cluster:${process.pid}:`,
      ...env,
    },
  });
}

/**
 * Spawns a command that ends up serving the app (the server itself, or `npm start`) and resolves once
 * it prints where it listens. `env` is added to this process's environment.
 */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  opts: { env: Record<string, string>; cwd?: string; detached?: boolean },
): Promise<Instance> {
  const proc = spawn(command, args, { cwd: opts.cwd, detached: opts.detached, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /running at http:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        const port = Number(m[1]);
        resolve({
          name,
          proc,
          port,
          url: `http://127.0.0.1:${port}`,
          output: () => out,
          stop: async (signal = 'SIGTERM') => {
            if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
            return exited;
          },
        });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`${name} exited with ${code} before listening:\n${out}`)));
  });
}

export interface Proxy {
  url: string;
  /** Which instance served each request and each WebSocket, in order. */
  log: Array<{ kind: 'http' | 'ws'; target: string; path: string }>;
  close(): Promise<void>;
}

/** Round-robin over `targets` per request and per upgrade, with X-Forwarded-For like nginx. */
export async function startProxy(targets: Array<Pick<Instance, 'name' | 'port'>>): Promise<Proxy> {
  let next = 0;
  const pick = () => targets[next++ % targets.length];
  const log: Proxy['log'] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const t = pick();
    log.push({ kind: 'http', target: t.name, path: req.url ?? '' });
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: t.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end('bad gateway');
      else res.destroy();
    });
    req.pipe(upstream);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req, socket, head) => {
    const t = pick();
    log.push({ kind: 'ws', target: t.name, path: req.url ?? '' });
    const up = net.connect(t.port, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      lines.push(`X-Forwarded-For: ${req.socket.remoteAddress ?? ''}`);
      up.write(lines.join('\r\n') + '\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    sockets.add(up);
    up.on('close', () => sockets.delete(up));
    const end = () => {
      up.destroy();
      socket.destroy();
    };
    up.on('error', end);
    socket.on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

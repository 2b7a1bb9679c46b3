import fs from 'node:fs';
import net from 'node:net';
import { createApp } from '../../../server/src/app';
import { loadConfig, type Config } from '../../../server/src/config/env';
import { templateFile } from '../../support/template';
import { clientFor, type TestApp } from '../../support/test-app';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Like tests/support/test-app.ts, but on a port known before boot, so PUBLIC_URL is the app's real
 * address: the local checkout sends the browser back there after a purchase. `publicHost` names that
 * address differently from the one the tests browse (always 127.0.0.1), as `npm start`'s default
 * PUBLIC_URL (localhost) does for someone who opens 127.0.0.1.
 */
export async function startAppWithPublicUrl(overrides: Partial<Config> = {}, { publicHost = '127.0.0.1' } = {}): Promise<TestApp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig(
    {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      PUBLIC_URL: `http://${publicHost}:${port}`,
      PORT: String(port),
    },
    {
      databaseInMemory: true,
      authRateLimit: { perIpPerWindow: 100_000, perEmailPerWindow: 1000, perAccountFailuresPerWindow: 100_000, windowSeconds: 60 },
      ...overrides,
    },
  );
  const usePg = Boolean(config.databaseUrl);
  const app = await createApp(config, {
    seed: false,
    pgliteLoadDataDir: usePg ? undefined : new Blob([fs.readFileSync(templateFile())]),
  });
  await app.listen(port, '127.0.0.1');
  return clientFor(app, url);
}

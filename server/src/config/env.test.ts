import path from 'node:path';
import { ConfigError, loadConfig } from './env';

describe('loadConfig', () => {
  it('defaults to the embedded database under data/ on port 4000', () => {
    const c = loadConfig({});
    expect(c.port).toBe(4000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toBe(path.resolve(__dirname, '..', '..', '..', 'data'));
    expect(c.publicUrl).toBe('http://localhost:4000');
    expect(c.pgliteThread).toBe('worker');
  });

  it('PORT, DATA_DIR and DATABASE_URL change it', () => {
    const c = loadConfig({ PORT: '4555', DATA_DIR: '/tmp/tf-x', DATABASE_URL: 'postgres://u@h:5432/db' });
    expect(c.port).toBe(4555);
    expect(c.dataDir).toBe('/tmp/tf-x');
    expect(c.databaseUrl).toBe('postgres://u@h:5432/db');
    expect(loadConfig({ PGLITE_THREAD: 'main' }).pgliteThread).toBe('main');
  });

  it('refuses bad values with one message naming every bad variable', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', LOG_LEVEL: 'loud', PGLITE_THREAD: 'both' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'LOG_LEVEL', 'PGLITE_THREAD']) expect(msg).toContain(name);
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '  ', PORT: '' }).databaseUrl).toBeUndefined();
  });
});

describe('the local test checkout in production', () => {
  it('refuses to boot in production without Stripe, unless LOCAL_CHECKOUT_DEMO=true says it is a demo', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/LOCAL_CHECKOUT_DEMO/);
    expect(loadConfig({ NODE_ENV: 'production', LOCAL_CHECKOUT_DEMO: 'true' }).localCheckoutDemo).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })).not.toThrow();
    expect(() => loadConfig({ NODE_ENV: 'production', LOCAL_CHECKOUT_DEMO: 'maybe' })).toThrow(/LOCAL_CHECKOUT_DEMO must be true or false/);
    // Development keeps the test checkout: that is what it is for.
    expect(loadConfig({}).localCheckoutDemo).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'development' })).not.toThrow();
  });
});

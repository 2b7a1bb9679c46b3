// What the TypeScript benches share: their flags, percentiles, and a PostgreSQL schema of their own.
// bench/compile-ts.mjs compiles this file beside each bench that imports it.
import { Client as PgClient } from 'pg';

/**
 * A bench's own knobs come as flags (`--players=50 --sql`); the environment is the app's
 * configuration and is read only by config/env.ts. A bare flag reads as '1'.
 */
export function flag(name: string): string | undefined {
  const prefix = `--${name}`;
  for (const a of process.argv.slice(2)) {
    if (a === prefix) return '1';
    if (a.startsWith(`${prefix}=`)) return a.slice(prefix.length + 1);
  }
  return undefined;
}

/** The p-th percentile (nearest rank) of the values; NaN for none. */
export function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] as number) : NaN;
}

/**
 * A schema of the run's own in the PostgreSQL database at `baseUrl` (the app connects with it as its
 * search_path), so a bench never touches another run's tables; `drop` removes it.
 */
export async function postgresSchema(baseUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `${prefix}_${Date.now().toString(36)}_${process.pid}`;
  const admin = new PgClient({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA "${schema}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      const c = new PgClient({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA "${schema}" CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

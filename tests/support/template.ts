import path from 'node:path';

/**
 * The migrated + seeded PGlite database tests/api/global-setup.ts makes once per test run, under a
 * name of the run's own (two runs in one checkout never overwrite each other's); every test file
 * loads its own copy.
 */
export function templateFile(): string {
  const file = process.env.TALEFORGE_TEST_TEMPLATE_FILE;
  if (!file) throw new Error('No PGlite test template: run the api and e2e suites through jest (its global setup makes it).');
  return file;
}

export const TEMPLATE_DIR = path.resolve(__dirname, '..', '.artifacts');

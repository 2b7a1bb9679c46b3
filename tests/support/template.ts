import path from 'node:path';

/** Migrated + seeded PGlite database made once per test run by tests/api/global-setup.ts. */
export const TEMPLATE_FILE = path.resolve(__dirname, '..', '.artifacts', 'pglite-template.tar.gz');

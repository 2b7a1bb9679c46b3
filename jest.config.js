// One jest run, several projects: server unit tests, API tests (in-process against PGlite or
// DATABASE_URL), client component tests (jsdom) and the browser test (Debian chromium).
const swcServer = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const swcClient = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

// Seeded databases (the test template, every server process a suite spawns on a fresh data folder)
// get flat placeholder pictures: painting the 14 featured worlds costs ~3 s each, ~170 paintings a
// CI run. The art is tested where it is drawn (server/src/ai/offline) and once by a booted server
// (tests/api/boot.test.ts sets SEED_IMAGES=procedural). Workers and spawned processes inherit it.
process.env.SEED_IMAGES ??= 'placeholder';

module.exports = {
  testTimeout: 30000,
  testSequencer: '<rootDir>/tests/support/sequencer.js',
  projects: [
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/server/src'],
      testMatch: ['**/*.test.ts'],
      transform: { '^.+\\.ts$': swcServer },
    },
    {
      displayName: 'api',
      // Node's environment plus, on PostgreSQL, a database of the file's own (see the file).
      testEnvironment: '<rootDir>/tests/support/database-environment.js',
      roots: ['<rootDir>/tests/api'],
      testMatch: ['**/*.test.ts'],
      transform: { '^.+\\.ts$': swcServer },
      globalSetup: '<rootDir>/tests/api/global-setup.ts',
      globalTeardown: '<rootDir>/tests/api/global-teardown.ts',
    },
    {
      displayName: 'client',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/client/src'],
      testMatch: ['**/*.test.ts', '**/*.test.tsx'],
      transform: { '^.+\\.tsx?$': swcClient },
      moduleNameMapper: { '\\.(css)$': '<rootDir>/tests/support/style-stub.js' },
      setupFiles: ['<rootDir>/tests/support/client-setup.js'],
      setupFilesAfterEnv: ['<rootDir>/client/src/test/wait-limit.ts'],
    },
    {
      displayName: 'e2e',
      testEnvironment: '<rootDir>/tests/support/database-environment.js',
      roots: ['<rootDir>/tests/e2e'],
      testMatch: ['**/*.test.ts'],
      transform: { '^.+\\.ts$': swcServer },
      setupFilesAfterEnv: ['<rootDir>/tests/e2e/hang-guard.ts'],
      globalSetup: '<rootDir>/tests/e2e/global-setup.ts',
      globalTeardown: '<rootDir>/tests/e2e/global-teardown.ts',
    },
  ],
};

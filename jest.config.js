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

module.exports = {
  testTimeout: 30000,
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
      testEnvironment: 'node',
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
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/tests/e2e'],
      testMatch: ['**/*.test.ts'],
      transform: { '^.+\\.ts$': swcServer },
      globalSetup: '<rootDir>/tests/api/global-setup.ts',
      globalTeardown: '<rootDir>/tests/api/global-teardown.ts',
    },
  ],
};

/** Two projects: unit (no I/O) and integration (real PostgreSQL, Redis, PGlite, local stand-ins). */
const swc = ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];
// Some dependencies ship only ES modules, which Jest's CommonJS runtime needs compiled: @octokit/*
// (and a few of theirs), and discord-api-spec (the Discord stand-in validates with its zod schemas).
const ESM_PACKAGES = ['@octokit', 'universal-user-agent', 'before-after-hook', 'universal-github-app-jwt', 'toad-cache', 'fast-content-type-parse', 'json-with-bigint', 'content-type', 'discord-api-spec'];
const transform = { '^.+\\.ts$': swc, [`/node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]: swc };
const transformIgnorePatterns = [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`];
// Node's environment, where a process warning fails the test that caused it.
const testEnvironment = '<rootDir>/test/support/jest-warnings-environment.ts';
// @octokit/webhooks-methods exports only an `import` condition, which Jest's resolver does not take.
const moduleNameMapper = {
  '^discord-api-spec/zod$': '<rootDir>/node_modules/discord-api-spec/build/discord-api-spec.zod.js',
  '^@octokit/webhooks-methods$': '<rootDir>/node_modules/@octokit/webhooks-methods/dist-node/index.js',
};
// Integration suites mostly wait on PostgreSQL, Redis, git and child processes: two workers even
// on a 2-core machine (jest's default there is one).
const maxWorkers = Math.max(2, require('node:os').availableParallelism() - 1);
module.exports = {
  maxWorkers,
  // A worker that has run many files holds a large heap; recycling it keeps every full
  // collection (and the memory-bounded push tests that force them) cheap.
  workerIdleMemoryLimit: '1GB',
  testTimeout: 60000,
  // PostgreSQL test databases go from one test file to the next of the same worker, and what the
  // last files left is dropped at the end (test/support/test-database-spares.ts).
  globalSetup: '<rootDir>/test/support/jest-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/jest-global-teardown.ts',
  projects: [
    { displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'], transform, transformIgnorePatterns, moduleNameMapper, testEnvironment },
    {
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      transform,
      transformIgnorePatterns,
      moduleNameMapper,
      testEnvironment,
      // Test databases are kept and reset between the tests of a file, and closed at its end.
      setupFilesAfterEnv: ['<rootDir>/test/support/test-database-setup.ts'],
      // A liveness bound, not a speed goal: child processes and restarts on a loaded machine took
      // more than a minute where they take seconds alone.
      testTimeout: 120000,
    },
  ],
};

/** Two projects: unit (no I/O) and integration (real PostgreSQL, Redis, PGlite, local stand-ins). */
const swc = ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];
// @octokit/* (and a few of their dependencies) ship only ES modules: Jest's CommonJS runtime needs them compiled.
const ESM_PACKAGES = ['@octokit', 'universal-user-agent', 'before-after-hook', 'universal-github-app-jwt', 'toad-cache', 'fast-content-type-parse', 'json-with-bigint', 'content-type'];
const transform = { '^.+\\.ts$': swc, [`/node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]: swc };
const transformIgnorePatterns = [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`];
module.exports = {
  testTimeout: 60000,
  projects: [
    { displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'], transform, transformIgnorePatterns, testEnvironment: 'node' },
    {
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      transform,
      transformIgnorePatterns,
      testEnvironment: 'node',
      testTimeout: 60000,
    },
  ],
};

/** Two projects: unit (no I/O) and integration (real PostgreSQL, Redis, PGlite, local stand-ins). */
const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } } }] };
module.exports = {
  testTimeout: 60000,
  projects: [
    { displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'], transform, testEnvironment: 'node' },
    {
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      transform,
      testEnvironment: 'node',
      testTimeout: 60000,
    },
  ],
};

/** Two projects: unit (no I/O) and integration (real PostgreSQL, Redis, PGlite, local stand-ins). */
const transform = {
  '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } } }],
  // discord-api-spec ships ES modules only: the Discord stand-in validates with its zod schemas.
  'discord-api-spec/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2023' }, module: { type: 'commonjs' } }],
};
const esmPackages = {
  transformIgnorePatterns: ['/node_modules/(?!discord-api-spec/)'],
  moduleNameMapper: {
    '^discord-api-spec/zod$': '<rootDir>/node_modules/discord-api-spec/build/discord-api-spec.zod.js',
  },
};
module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
      transform,
      ...esmPackages,
      testEnvironment: 'node',
    },
    {
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      transform,
      ...esmPackages,
      testEnvironment: 'node',
      testTimeout: 60000,
    },
  ],
};

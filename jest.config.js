/** Unit specs live beside the code; end-to-end specs boot the real app against PostgreSQL. */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

module.exports = {
  // A global option (Jest ignores it inside a project).
  testTimeout: 60000,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      // The console's pure helpers too (console/app/*.spec.ts), and the build's (scripts/), compiled
      // as the service's code is.
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/console/**/*.spec.ts',
        '<rootDir>/scripts/**/*.spec.ts',
      ],
      transform,
    },
    {
      displayName: 'service',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.service-spec.ts'],
      transform,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
    },
  ],
};

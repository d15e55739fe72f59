/** Unit specs live beside the code; end-to-end specs boot the real app against PostgreSQL. */

/** Packages published as ES modules only: Jest's CommonJS runtime needs them transformed. */
const ESM_PACKAGES = ['@nestjs/terminus'];
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  [`/node_modules/(${ESM_PACKAGES.join('|')})/.+\\.js$`]:
    '<rootDir>/test/support/esm-package.transform.js',
};
const transformIgnorePatterns = [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`];

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
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'service',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.service-spec.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
      transformIgnorePatterns,
    },
  ],
};

// Jest on TypeScript tests as ES modules (hence `node --experimental-vm-modules`), with one Pet Store
// sandbox for the whole run: sandbox-setup.js makes it before the first test file, and
// sandbox-teardown.js deletes it after the last.
export default {
  testMatch: ['<rootDir>/**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  globalSetup: '<rootDir>/sandbox-setup.js',
  globalTeardown: '<rootDir>/sandbox-teardown.js',
};

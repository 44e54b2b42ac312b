/** Jest runs in native ESM mode (see package.json "test"); ts-jest only transpiles. */
const transform = {
  '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/test/tsconfig.json' }],
};
const common = {
  // Node's, keeping each file's processor time for scripts/jest-file-times.js.
  testEnvironment: '<rootDir>/scripts/jest-environment.js',
  // Node binaries fetched by scripts/use-node.sh: not modules of the project.
  modulePathIgnorePatterns: ['<rootDir>/.node/'],
  extensionsToTreatAsEsm: ['.ts'],
  // Sources import siblings as './x.js' (nodenext); Jest resolves the .ts file.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform,
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/e2e/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/e2e/support/global-teardown.ts',
    },
    {
      ...common,
      // The repositories whose statements need a real database for what no request can bring about, on SQLite and MySQL.
      displayName: 'database',
      testMatch: ['<rootDir>/test/database/**/*.db-spec.ts'],
      globalSetup: '<rootDir>/test/e2e/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/e2e/support/global-teardown.ts',
    },
  ],
  // Global options: Jest ignores them inside a project.
  testTimeout: 60_000,
  // Four files at once on our 2-core machines (Jest's default, cores - 1, is one): the e2e files
  // mostly wait, on child processes, the database, timers and sockets (issue 57).
  maxWorkers: 4,
  // Each file's time, for the slowest files `npm test` ends with (scripts/test-all.sh).
  reporters: ['default', '<rootDir>/scripts/jest-file-times.js'],
  // The longest files first also in a new checkout, where Jest has no times of its own.
  testSequencer: '<rootDir>/scripts/jest-sequencer.js',
};

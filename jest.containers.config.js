/**
 * `npm run test:containers`: the image and the compose stack, run for real (test/containers/). Apart
 * from `npm test`, which needs no Docker engine; one file, its steps in order.
 */
import base from './jest.config.js';

const [unit] = base.projects;

export default {
  ...unit,
  displayName: 'containers',
  testMatch: ['<rootDir>/test/containers/**/*.containers-spec.ts'],
  globalSetup: '<rootDir>/test/containers/support/engine-check.ts',
  maxWorkers: 1,
  testTimeout: 60_000,
};

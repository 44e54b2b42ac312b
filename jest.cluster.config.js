/**
 * `npm run test:cluster`: the stack on a three-node Galera cluster, run for real (test/cluster/),
 * with nodes killed under traffic. Apart from `npm test`, which needs no Docker engine; one file, its
 * steps in order.
 */
import containers from './jest.containers.config.js';

export default {
  ...containers,
  displayName: 'cluster',
  testMatch: ['<rootDir>/test/cluster/**/*.cluster-spec.ts'],
};

import TestSequencer from '@jest/test-sequencer';
import { relative } from 'node:path';

/**
 * The files that took longest in a fresh clone's `npm test` (scripts/jest-file-times.js), longest
 * first. Where Jest has no times of its own (a new checkout: CI), it orders files by size, and a
 * long file that is small (released-contract) started last and ran alone for a minute. Kept by
 * hand: a file missing here only starts later, and a warm checkout orders by Jest's own times.
 */
const LONGEST = [
  'test/e2e/api-keys.e2e-spec.ts',
  'test/e2e/swagger-ui.e2e-spec.ts',
  'test/e2e/generated-clients.e2e-spec.ts',
  'test/e2e/several-instances.e2e-spec.ts',
  'test/e2e/sdk-package.e2e-spec.ts',
  'test/e2e/key-expiry.e2e-spec.ts',
  'test/unit/released-contract.spec.ts',
  'test/e2e/outage.e2e-spec.ts',
  'test/e2e/sandboxes-cli.e2e-spec.ts',
  'test/e2e/robustness.e2e-spec.ts',
  'test/e2e/key-changes.e2e-spec.ts',
  'test/e2e/startup.e2e-spec.ts',
  'test/e2e/webhook-scopes.e2e-spec.ts',
  'test/e2e/migrations.e2e-spec.ts',
  'test/e2e/hostile-clients.e2e-spec.ts',
  'test/e2e/sdk-vendor.e2e-spec.ts',
  'test/e2e/key-tool-writes.e2e-spec.ts',
  'test/e2e/scopes.e2e-spec.ts',
  'test/e2e/http-collections.e2e-spec.ts',
  'test/e2e/request-log.e2e-spec.ts',
  'test/e2e/lifecycle.e2e-spec.ts',
];

/** Jest's order (failed first, then by its own times, else by size), with the files it has no time for ordered by LONGEST first. */
export default class LongestFirst extends TestSequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    if (ordered.every((test) => test.duration != null)) return ordered;
    const rank = (test) => {
      const at = LONGEST.indexOf(relative(test.context.config.rootDir, test.path));
      return test.duration != null || at < 0 ? LONGEST.length : at;
    };
    return ordered
      .map((test, place) => ({ test, place, rank: this.hasFailed(test) ? -1 : rank(test) }))
      .sort((a, b) => a.rank - b.rank || a.place - b.place)
      .map(({ test }) => test);
  }
}

import { resolve } from 'node:path';

/**
 * Where the services the e2e tests start in-process write their logs (LOG_FILE), so that the errors
 * the tests provoke on purpose stay out of the report; global-setup empties it at the start of a run.
 */
export const E2E_LOG_FILE = resolve('.test-logs/e2e.log');

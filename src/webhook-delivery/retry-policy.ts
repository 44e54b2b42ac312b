import type { AttemptOutcome } from './attempt-outcome.js';

/** What follows an attempt: the delivery is done, tried again at `at`, or given up. */
export type AttemptResult = { readonly kind: 'delivered' } | { readonly kind: 'retry'; readonly at: Date } | { readonly kind: 'failed' };

/**
 * What follows an attempt made at `now` after `attemptsBefore` others, under `schedule` (the seconds
 * to wait before each attempt, WEBHOOK_RETRY_SCHEDULE; its length is the number of attempts): a 2xx
 * delivers; 410 Gone, or the last attempt of the schedule, fails; anything else is tried again
 * after the schedule's next wait.
 */
export function whatFollows(attemptsBefore: number, outcome: AttemptOutcome, schedule: readonly number[], now: Date): AttemptResult {
  if (outcome === 'delivered') return { kind: 'delivered' };
  const made = attemptsBefore + 1;
  if (outcome === 'gone' || made >= schedule.length) return { kind: 'failed' };
  return { kind: 'retry', at: new Date(now.getTime() + schedule[made] * 1000) };
}

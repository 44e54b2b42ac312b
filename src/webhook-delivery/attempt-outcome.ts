import type { PostOutcome } from './webhook-sender.js';

/** What became of one attempt, as the metrics count it and the retry policy reads it. */
export type AttemptOutcome = 'delivered' | 'rejected' | 'gone' | NonNullable<PostOutcome['failure']>;

export function outcomeOf({ status, failure }: PostOutcome): AttemptOutcome {
  if (status === undefined) return failure ?? 'unreachable';
  if (status >= 200 && status < 300) return 'delivered';
  return status === 410 ? 'gone' : 'rejected';
}

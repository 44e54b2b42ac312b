import type { Environment } from '../environments/environment.js';
import type { AttemptResult } from './retry-policy.js';

/** One claimed delivery: what the deliverer needs to make its attempt. */
export interface ClaimedDelivery {
  /** Its endpoint's and its event's: its attempts are recorded in it. */
  readonly environment: Environment;
  readonly id: number;
  readonly claimToken: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly eventCreatedAt: Date;
  readonly payload: string;
  readonly endpointRowId: number;
}

export interface Attempt {
  readonly attemptedAt: Date;
  readonly status: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly responseBody: string | null;
}

/** An attempt made, to be recorded with what follows from it. */
export interface FinishedAttempt {
  readonly delivery: ClaimedDelivery;
  readonly attempt: Attempt;
  readonly result: AttemptResult;
}

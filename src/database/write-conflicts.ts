import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

/**
 * A transaction that lost a write conflict and was rolled back whole: InnoDB's deadlock, and on a
 * Galera cluster the certification failure of a commit that raced another node's (both are
 * ER_LOCK_DEADLOCK, 1213). Nothing of it was applied, so running it again is safe.
 */
export function isWriteConflict(error: unknown): boolean {
  const candidates = [error, (error as { driverError?: unknown } | null)?.driverError];
  return candidates.some((candidate) => (candidate as { code?: unknown } | null)?.code === 'ER_LOCK_DEADLOCK');
}

/** Tries of a unit of work that keeps losing write conflicts; then the conflict is the caller's (a 503 that says retry). */
const ATTEMPTS = 3;

/**
 * Runs `work` (one statement, or one whole transaction) again when it lost a write conflict, after
 * a short random pause so that the racing writers part. Only for work that is safe to repeat as a
 * whole: a conflict rolled it back, so it either happens once or not at all.
 */
export async function retryingWriteConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isWriteConflict(error) || attempt === ATTEMPTS) throw error;
      await pauseAfterWriteConflict(attempt);
    }
  }
}

/** A short random pause after the `attempt`-th lost write conflict, longer each time, so that the racing writers part. */
export function pauseAfterWriteConflict(attempt: number): Promise<void> {
  return new Promise((pause) => setTimeout(pause, 5 + Math.random() * 20 * attempt));
}

/** A write whose transaction kept losing write conflicts, each time it decided anew: nothing was changed; a retry decides again. */
export class WriteKeptConflictingException extends ApiException {
  constructor() {
    super(
      HttpStatus.SERVICE_UNAVAILABLE,
      'SERVICE_UNAVAILABLE',
      'What this request changes kept changing under it; nothing was changed. Retry it.',
      { 'Retry-After': '1' },
    );
  }
}

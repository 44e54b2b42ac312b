import { Injectable } from '@nestjs/common';
import type { WriteParticipant } from '../database/unit-of-work.js';
import { retryingWriteConflicts } from '../database/write-conflicts.js';
import type { Environment } from '../environments/environment.js';
import { IdempotencyKeyInUseException } from './idempotency.exceptions.js';
import { type Claim, IdempotencyRepository } from './idempotency.repository.js';

/**
 * A write sent with an Idempotency-Key, as the route read it (the IdempotencyKey parameter): the
 * key, whose it is and in which environment, and what makes a retry "the same request".
 */
export class IdempotentRequest {
  /** Answered with the response stored for an earlier request with the same key. */
  replayed = false;

  constructor(
    /** The API key's environment (ApiKeyPrincipal): its records are kept there and looked for nowhere else. */
    readonly environment: Environment,
    readonly apiKeyId: string,
    readonly idempotencyKey: string,
    readonly fingerprint: string,
  ) {}
}

/**
 * Idempotency-Keys, as a participant of the writes made with one (UnitOfWork): the key is claimed
 * before anything is decided (after the request's body was validated), and the answer stored for it
 * in the write's own transaction, so a retry finds both or neither; a retry of a finished request
 * gets the stored answer back and writes nothing; a failure frees the key. A claim taken over
 * meanwhile (its owner outlived the window) refuses the commit with IDEMPOTENCY_KEY_IN_USE.
 */
@Injectable()
export class Idempotency {
  constructor(private readonly records: IdempotencyRepository) {}

  /** The participant of the write `request` makes, answered with `status`; none when it came without a key. */
  of<T extends object>(request: IdempotentRequest | undefined, status: number): WriteParticipant<T> | undefined {
    if (!request) return undefined;
    const records = this.records;
    let claim: Claim | undefined;
    return {
      async begin() {
        const outcome = await retryingWriteConflicts(() =>
          records.claim(request.environment, request.apiKeyId, request.idempotencyKey, request.fingerprint),
        );
        if (outcome.kind === 'claimed') {
          claim = outcome.claim;
          return undefined;
        }
        request.replayed = true;
        // What this same request answered before.
        return { answer: outcome.body as T };
      },
      join({ answer, answerId }) {
        return {
          statements: [records.complete(request.environment, claim!, status, answer, answerId)],
          check: ([completed]) => {
            if (completed.affectedRows !== 1) throw new IdempotencyKeyInUseException(1);
          },
        };
      },
      async abandon() {
        if (claim) await records.release(request.environment, claim);
      },
    };
  }
}

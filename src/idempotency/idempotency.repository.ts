import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, LessThan, LessThanOrEqual, type Repository } from 'typeorm';
import { isUniqueViolation } from '../database/unique-violation.js';
import { ANSWER_DEADLINE_MS } from '../server/edge.js';
import { IdempotencyKeyInUseException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
import { IdempotencyRecord } from './idempotency-record.entity.js';

/** The status of a create, answered (CreatesResource) and stored for its replays (createOnce). */
export const CREATED_STATUS = HttpStatus.CREATED;
/** How long the first response to a keyed request is kept and replayed. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * A claim this old whose request never finished may be taken over: every request is answered by its
 * deadline, so by then its instance died or its database went silent. The margin covers the clocks
 * of several instances and claim times kept in whole seconds. A late owner cannot complete a claim
 * taken from it (see `complete`), so the window is about waiting, never about safety.
 */
export const ABANDONED_AFTER_MS = ANSWER_DEADLINE_MS + 2_500;

export type ClaimOutcome =
  { readonly kind: 'claimed'; readonly claim: IdempotencyClaim } | { readonly kind: 'replay'; readonly body: unknown };

/**
 * The Idempotency-Key records. The unique index on (API key, Idempotency-Key) decides, across all
 * instances, which request runs: the one whose insert succeeds.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectRepository(IdempotencyRecord) private readonly records: Repository<IdempotencyRecord>) {}

  /** Claims the key for this request, or says what the client gets instead: a replay, 409 or 422. */
  async claim(keyId: string, idempotencyKey: string, requestHash: string): Promise<ClaimOutcome> {
    // Each pass either decides or removes what stood in the way (an expired record); three are plenty.
    for (let pass = 0; pass < 3; pass++) {
      const now = wholeSecond(new Date());
      const record = this.records.create({
        keyId,
        idempotencyKey,
        requestHash,
        state: 'in_flight',
        responseStatus: null,
        responseBody: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + RETENTION_MS),
      });
      try {
        await this.records.insert(record);
        return { kind: 'claimed', claim: new IdempotencyClaim(this, record.id, now) };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }

      const existing = await this.records.findOneBy({ keyId, idempotencyKey });
      if (!existing) continue;
      if (existing.expiresAt <= now) {
        await this.records.delete({ id: existing.id, expiresAt: LessThanOrEqual(now) });
        continue;
      }
      if (existing.requestHash !== requestHash) throw new IdempotencyKeyReusedException();
      if (existing.state === 'done') {
        return { kind: 'replay', body: JSON.parse(existing.responseBody ?? 'null') };
      }
      const abandonedAt = existing.createdAt.getTime() + ABANDONED_AFTER_MS;
      if (Date.now() >= abandonedAt && (await this.takeOver(existing, now))) {
        return { kind: 'claimed', claim: new IdempotencyClaim(this, existing.id, now) };
      }
      throw new IdempotencyKeyInUseException(secondsUntil(abandonedAt));
    }
    throw new IdempotencyKeyInUseException(1);
  }

  /**
   * Records the response, in the transaction that made what it describes, if the claim is still
   * this request's: a claim taken over meanwhile (its owner outlived the window) makes it throw, so
   * that the transaction, and what it created, is rolled back.
   */
  async complete(manager: EntityManager, claim: IdempotencyClaim, status: number, body: unknown): Promise<void> {
    const { affected } = await manager.update(
      IdempotencyRecord,
      { id: claim.recordId, state: 'in_flight', createdAt: claim.claimedAt },
      { state: 'done', responseStatus: status, responseBody: JSON.stringify(body) },
    );
    if (affected !== 1) throw new IdempotencyKeyInUseException(1);
  }

  /** Frees the key after a request failed, so that a retry runs it again (unless another request has taken it over). */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.records.delete({ id: claim.recordId, state: 'in_flight', createdAt: claim.claimedAt });
  }

  /**
   * Runs `create` once per Idempotency-Key: the key is claimed here, after the request's body was
   * validated, and what `create` makes commits together with the response stored for the key, so a
   * retry finds either both or neither, never a pet without its record. A retry of a finished
   * request gets the stored response back and creates nothing; a request without the header runs
   * as it is. `create` gets the manager to run its statements on: the one way a transaction is
   * handed to a repository. (On SQLite the transaction holds only database statements, which
   * better-sqlite3 runs synchronously, so no other request's can interleave.)
   */
  async createOnce<T>(request: IdempotentRequest | undefined, create: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!request) return create(this.records.manager);
    const outcome = await this.claim(request.apiKeyId, request.idempotencyKey, request.fingerprint);
    if (outcome.kind === 'replay') {
      request.replayed = true;
      // What this same request created and answered before.
      return outcome.body as T;
    }
    const claim = (request.claim = outcome.claim);
    return this.records.manager.transaction(async (transaction) => {
      const created = await create(transaction);
      await claim.complete(transaction, CREATED_STATUS, created);
      return created;
    });
  }

  async purgeExpired(): Promise<number> {
    return (await this.records.delete({ expiresAt: LessThan(new Date()) })).affected ?? 0;
  }

  /** Only one instance can move an abandoned claim's clock forward: the one whose update matches; the new time is its token. */
  private async takeOver(record: IdempotencyRecord, now: Date): Promise<boolean> {
    const result = await this.records.update({ id: record.id, state: 'in_flight', createdAt: record.createdAt }, { createdAt: now });
    return result.affected === 1;
  }
}

/**
 * The claim's time, kept in whole seconds: a MySQL DATETIME stores no fraction (and rounds one), and
 * the stored value must equal the claim's own to identify it.
 */
function wholeSecond(time: Date): Date {
  return new Date(Math.floor(time.getTime() / 1000) * 1000);
}

function secondsUntil(time: number): number {
  return Math.max(1, Math.ceil((time - Date.now()) / 1000));
}

/** A request's hold on its Idempotency-Key, from claim to completion or release; `claimedAt` tells it from a later takeover. */
export class IdempotencyClaim {
  constructor(
    private readonly store: IdempotencyRepository,
    readonly recordId: number,
    readonly claimedAt: Date,
  ) {}

  complete(manager: EntityManager, status: number, body: unknown): Promise<void> {
    return this.store.complete(manager, this, status, body);
  }

  release(): Promise<void> {
    return this.store.release(this);
  }
}

/**
 * A create sent with an Idempotency-Key, as IdempotencyInterceptor read it: createOnce claims the
 * key (or finds it answered), and the interceptor releases the claim if the request then fails.
 */
export class IdempotentRequest {
  claim?: IdempotencyClaim;
  /** Answered with the response stored for an earlier request with the same key. */
  replayed = false;

  constructor(
    readonly apiKeyId: string,
    readonly idempotencyKey: string,
    readonly fingerprint: string,
  ) {}
}

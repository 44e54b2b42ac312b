import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, LessThan, LessThanOrEqual, type Repository } from 'typeorm';
import { isUniqueViolation } from '../database/unique-violation.js';
import { IdempotencyKeyInUseException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
import { IdempotencyRecord } from './idempotency-record.entity.js';

/** How long the first response to a keyed request is kept and replayed. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim this old whose request never finished (its instance died) may be taken over. */
export const ABANDONED_AFTER_MS = 30_000;

export type ClaimOutcome =
  | { readonly kind: 'claimed'; readonly claim: IdempotencyClaim }
  | { readonly kind: 'replay'; readonly status: number; readonly body: unknown };

/**
 * The Idempotency-Key records. The unique index on (API key, Idempotency-Key) decides, across all
 * instances, which request runs: the one whose insert succeeds.
 */
@Injectable()
export class IdempotencyStore {
  constructor(@InjectRepository(IdempotencyRecord) private readonly records: Repository<IdempotencyRecord>) {}

  /** Claims the key for this request, or says what the client gets instead: a replay, 409 or 422. */
  async claim(keyId: string, idempotencyKey: string, requestHash: string): Promise<ClaimOutcome> {
    // Each pass either decides or removes what stood in the way (an expired record); three are plenty.
    for (let pass = 0; pass < 3; pass++) {
      const now = new Date();
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
        return { kind: 'claimed', claim: new IdempotencyClaim(this, record.id) };
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
        return { kind: 'replay', status: existing.responseStatus ?? 200, body: JSON.parse(existing.responseBody ?? 'null') };
      }
      if (now.getTime() - existing.createdAt.getTime() >= ABANDONED_AFTER_MS && (await this.takeOver(existing, now))) {
        return { kind: 'claimed', claim: new IdempotencyClaim(this, existing.id) };
      }
      throw new IdempotencyKeyInUseException();
    }
    throw new IdempotencyKeyInUseException();
  }

  /** Records the response, in the transaction that made what it describes. */
  async complete(manager: EntityManager, recordId: number, status: number, body: unknown): Promise<void> {
    await manager.update(
      IdempotencyRecord,
      { id: recordId },
      { state: 'done', responseStatus: status, responseBody: JSON.stringify(body) },
    );
  }

  /** Frees the key after a request failed, so that a retry runs it again. */
  async release(recordId: number): Promise<void> {
    await this.records.delete({ id: recordId, state: 'in_flight' });
  }

  async purgeExpired(): Promise<number> {
    return (await this.records.delete({ expiresAt: LessThan(new Date()) })).affected ?? 0;
  }

  /** Only one instance can move an abandoned claim's clock forward: the one whose update matches. */
  private async takeOver(record: IdempotencyRecord, now: Date): Promise<boolean> {
    const result = await this.records.update({ id: record.id, state: 'in_flight', createdAt: record.createdAt }, { createdAt: now });
    return result.affected === 1;
  }
}

/** A request's hold on its Idempotency-Key, from claim to completion or release. */
export class IdempotencyClaim {
  constructor(
    private readonly store: IdempotencyStore,
    readonly recordId: number,
  ) {}

  complete(manager: EntityManager, status: number, body: unknown): Promise<void> {
    return this.store.complete(manager, this.recordId, status, body);
  }

  release(): Promise<void> {
    return this.store.release(this.recordId);
  }
}

/**
 * Runs `create` so that what it creates and the response stored for the request's Idempotency-Key
 * commit together: a retry finds either both or neither, never a pet without its record. Without a
 * claim it runs as it is. (On SQLite the transaction holds only database statements, which
 * better-sqlite3 runs synchronously, so no other request's statements can interleave with it.)
 */
export async function createOnce<T>(
  manager: EntityManager,
  claim: IdempotencyClaim | undefined,
  create: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  if (!claim) return create(manager);
  return manager.transaction(async (transaction) => {
    const created = await create(transaction);
    await claim.complete(transaction, 201, created);
    return created;
  });
}

import { HttpStatus, Injectable } from '@nestjs/common';
import { datetime, id, optionalText, text } from '../database/columns.js';
import { JsonWithInsertedId } from '../database/json-with-inserted-id.js';
import { type Row, Sql, type Statement, type Written } from '../database/sql.js';
import { isUniqueViolation } from '../database/constraint-violations.js';
import { retryingWriteConflicts } from '../database/write-conflicts.js';
import { ANSWER_DEADLINE_MS } from '../server/edge.js';
import { IdempotencyKeyInUseException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
import type { IdempotencyRecord } from './idempotency-record.entity.js';

/** The status of a create, answered (CreatesResource) and stored for its replays (createOnce). */
export const CREATED_STATUS = HttpStatus.CREATED;
/** How long the first response to a keyed request is kept and replayed. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * A claim this old whose request never finished may be taken over: every request is answered by its
 * deadline, so by then its instance died or its database went silent. The margin covers the clocks
 * of several instances and claim times kept in whole seconds. A late owner cannot complete a claim
 * taken from it (see `createClaimed`), so the window is about waiting, never about safety.
 */
export const ABANDONED_AFTER_MS = ANSWER_DEADLINE_MS + 2_500;

/** What a claim reads of a record that stood in its way. */
type StoredRecord = Pick<IdempotencyRecord, 'id' | 'requestHash' | 'state' | 'responseBody' | 'createdAt' | 'expiresAt'>;

export type ClaimOutcome =
  { readonly kind: 'claimed'; readonly claim: IdempotencyClaim } | { readonly kind: 'replay'; readonly body: unknown };

const INSERT =
  'INSERT INTO idempotency_records (key_id, idempotency_key, request_hash, state, created_at, expires_at) ' +
  "VALUES (?, ?, ?, 'in_flight', ?, ?)";
const BY_KEY =
  'SELECT id, request_hash AS requestHash, state, response_body AS responseBody, created_at AS createdAt, ' +
  'expires_at AS expiresAt FROM idempotency_records WHERE key_id = ? AND idempotency_key = ?';
const DELETE_EXPIRED_RECORD = 'DELETE FROM idempotency_records WHERE id = ? AND expires_at <= ?';
/**
 * The answer stored, written by the expression `responseBody`; a claim is identified by its record
 * and its time (a takeover moves the time).
 */
const completeWith = (responseBody: string) =>
  `UPDATE idempotency_records SET state = 'done', response_status = ?, response_body = ${responseBody} ` +
  "WHERE id = ? AND state = 'in_flight' AND created_at = ?";
const COMPLETE = completeWith('?');
const RELEASE = "DELETE FROM idempotency_records WHERE id = ? AND state = 'in_flight' AND created_at = ?";
const TAKE_OVER = "UPDATE idempotency_records SET created_at = ? WHERE id = ? AND state = 'in_flight' AND created_at = ?";
const PURGE = 'DELETE FROM idempotency_records WHERE expires_at < ?';

/**
 * The idempotency_records table, one written-out statement per question. The unique index on
 * (API key, Idempotency-Key) decides, across all instances, which request runs: the one whose
 * insert succeeds.
 */
@Injectable()
export class IdempotencyRepository {
  /** The completion whose answer holds the id the transaction's first insert generated. */
  private readonly completeWithInsertedId: string;

  constructor(private readonly sql: Sql) {
    this.completeWithInsertedId = completeWith(sql.dialect.jsonWithInsertedId);
  }

  /** Claims the key for this request, or says what the client gets instead: a replay, 409 or 422. */
  async claim(keyId: string, idempotencyKey: string, requestHash: string): Promise<ClaimOutcome> {
    // Each pass either decides or removes what stood in the way (an expired record); three are plenty.
    for (let pass = 0; pass < 3; pass++) {
      const now = wholeSecond(new Date());
      const expiresAt = new Date(now.getTime() + RETENTION_MS);
      try {
        const { insertId } = await this.sql.run(INSERT, [keyId, idempotencyKey, requestHash, now, expiresAt]);
        return { kind: 'claimed', claim: new IdempotencyClaim(this, insertId, now) };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }

      const existing = await this.find(keyId, idempotencyKey);
      if (!existing) continue;
      if (existing.expiresAt <= now) {
        await this.sql.run(DELETE_EXPIRED_RECORD, [existing.id, now]);
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

  /** Frees the key after a request failed, so that a retry runs it again (unless another request has taken it over). */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.sql.run(RELEASE, [claim.recordId, claim.claimedAt]);
  }

  /**
   * Runs a create once per Idempotency-Key. `statements` make it in one transaction, the first
   * inserting the row the answer `created` describes, the others what must commit with it (its
   * event); answers `created`, with the id that insert generated as its `id` when `idFromInsert`.
   * With a key, the key is claimed here (after the request's body was validated) and the answer is
   * stored for it in the same transaction, so a retry finds both or neither, never a pet without its
   * record; a retry of a finished request gets the stored answer back and creates nothing. Without
   * a key the statements run as they are, in one round trip on MySQL. (On SQLite the transaction
   * holds only database statements, which better-sqlite3 runs synchronously, so no other request's
   * can interleave.)
   */
  async createOnce<T extends object>(
    request: IdempotentRequest | undefined,
    created: T,
    statements: readonly Statement[],
    { idFromInsert }: { idFromInsert: boolean },
  ): Promise<T> {
    // Each step, a statement or a transaction, is run again when it lost a write conflict (a Galera
    // cluster's certification failure): it was rolled back whole.
    if (!request) return withId(created, idFromInsert, (await retryingWriteConflicts(() => this.sql.write(statements)))[0]);
    const outcome = await retryingWriteConflicts(() => this.claim(request.apiKeyId, request.idempotencyKey, request.fingerprint));
    if (outcome.kind === 'replay') {
      request.replayed = true;
      // What this same request created and answered before.
      return outcome.body as T;
    }
    try {
      return await this.createClaimed(outcome.claim, created, statements, { idFromInsert });
    } catch (error) {
      // Only a stored success is replayed: a failed create frees its key for the retry.
      await outcome.claim.release().catch(() => undefined);
      throw error;
    }
  }

  /**
   * The create of a claimed key, with its answer stored for the key, if the claim is still this
   * request's: a claim taken over meanwhile (its owner outlived the window) rolls it all back.
   */
  async createClaimed<T extends object>(
    claim: IdempotencyClaim,
    created: T,
    [insert, ...others]: readonly Statement[],
    { idFromInsert }: { idFromInsert: boolean },
  ): Promise<T> {
    // Right after the insert: the stored answer takes its id from the last insert before it.
    const answer = idFromInsert ? JsonWithInsertedId.of(created, ['id']) : undefined;
    const completion = answer
      ? { sql: this.completeWithInsertedId, parameters: [CREATED_STATUS, answer.before, answer.after, claim.recordId, claim.claimedAt] }
      : { sql: COMPLETE, parameters: [CREATED_STATUS, JSON.stringify(created), claim.recordId, claim.claimedAt] };
    const written = await retryingWriteConflicts(() =>
      this.sql.write([insert, completion, ...others], ([, completed]) => {
        if (completed.affectedRows !== 1) throw new IdempotencyKeyInUseException(1);
      }),
    );
    return withId(created, idFromInsert, written[0]);
  }

  async purgeExpired(): Promise<number> {
    return (await this.sql.run(PURGE, [new Date()])).affectedRows;
  }

  /** Only one instance can move an abandoned claim's clock forward: the one whose update matches; the new time is its token. */
  private async takeOver(record: StoredRecord, now: Date): Promise<boolean> {
    return (await this.sql.run(TAKE_OVER, [now, record.id, record.createdAt])).affectedRows === 1;
  }

  private async find(keyId: string, idempotencyKey: string): Promise<StoredRecord | undefined> {
    const [record] = await this.sql.rows(BY_KEY, [keyId, idempotencyKey], readRecord);
    return record;
  }
}

const readRecord = (row: Row): StoredRecord => ({
  id: id(row.id),
  requestHash: text(row.requestHash),
  state: text(row.state) as StoredRecord['state'],
  responseBody: optionalText(row.responseBody),
  createdAt: datetime(row.createdAt),
  expiresAt: datetime(row.expiresAt),
});

/** The answer to a create: with the id its insert generated, when that is its id. */
function withId<T extends object>(created: T, idFromInsert: boolean, { insertId }: Written): T {
  return idFromInsert ? { ...created, id: insertId } : created;
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

  release(): Promise<void> {
    return this.store.release(this);
  }
}

/**
 * A create sent with an Idempotency-Key, as CreatesResource read it: createOnce claims the key (or
 * finds it answered), and frees it again if the create then fails.
 */
export class IdempotentRequest {
  /** Answered with the response stored for an earlier request with the same key. */
  replayed = false;

  constructor(
    readonly apiKeyId: string,
    readonly idempotencyKey: string,
    readonly fingerprint: string,
  ) {}
}

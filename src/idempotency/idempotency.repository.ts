import { HttpStatus, Injectable } from '@nestjs/common';
import { datetime, id, optionalText, text } from '../database/columns.js';
import { JsonWithInsertedId } from '../database/json-with-inserted-id.js';
import { type Row, Sql, type Written } from '../database/sql.js';
import type { Statement } from '../database/statement.js';
import { isUniqueViolation } from '../database/constraint-violations.js';
import { isWriteConflict, pauseAfterWriteConflict, retryingWriteConflicts } from '../database/write-conflicts.js';
import { ANSWER_DEADLINE_MS } from '../server/edge.js';
import { ChangeKeptRacingException, IdempotencyKeyInUseException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
import type { IdempotencyRecord } from './idempotency-record.entity.js';

/** The status of a create, answered (CreatesResource) and stored for its replays (createOnce). */
export const CREATED_STATUS = HttpStatus.CREATED;
/** How long the first response to a keyed request is kept and replayed. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * A claim this old whose request never finished may be taken over: every request is answered by its
 * deadline, so by then its instance died or its database went silent. The margin covers the clocks
 * of several instances and claim times kept in whole seconds. A late owner cannot complete a claim
 * taken from it (see `write`), so the window is about waiting, never about safety.
 */
export const ABANDONED_AFTER_MS = ANSWER_DEADLINE_MS + 2_500;

/** What a claim reads of a record that stood in its way. */
type StoredRecord = Pick<IdempotencyRecord, 'id' | 'requestHash' | 'state' | 'responseBody' | 'createdAt' | 'expiresAt'>;

/**
 * A change decided on what it changes as it stands now: the answer, and the statements that make
 * it (none when nothing changes). Those made to a row as it was read (`toRowAsRead`) refuse the
 * whole when the row changed meanwhile, and the change is decided anew.
 */
export interface DecidedChange<T> {
  readonly answer: T;
  readonly statements: readonly Statement[];
  /** The answer's `id` is the one the first statement's insert generates. */
  readonly idFromInsert?: boolean;
}

/** How many times a change is decided anew when the rows it read changed before it was made. */
const DECISIONS = 5;

/** A change's transaction refused because a row it was made to had changed since it was read. */
class RowChangedMeanwhile extends Error {}

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
   * Runs a create once per Idempotency-Key (changeOnce): `statements` make it in one transaction,
   * the first inserting the row the answer `created` describes, the others what must commit with it
   * (its event); answers `created`, with the id that insert generated as its `id` when `idFromInsert`.
   */
  createOnce<T extends object>(
    request: IdempotentRequest | undefined,
    created: T,
    statements: readonly Statement[],
    { idFromInsert }: { idFromInsert: boolean },
  ): Promise<T> {
    return this.changeOnce(request, CREATED_STATUS, async () => ({ answer: created, statements, idFromInsert }));
  }

  /**
   * Runs a write once per Idempotency-Key. `decide` reads what it changes and answers with the
   * statements that make the write and the answer (whose `id` the first statement's insert
   * generates, when `idFromInsert`). With a key, the key is claimed here (after the request's body
   * was validated) and the answer stored for it (`status`) in the write's own transaction, so a retry
   * finds both or neither; a retry of a finished request gets the stored answer back and writes
   * nothing; a failure frees the key. When a row changed between the read and the write (a
   * statement `toRowAsRead` changed nothing), or the write lost a write conflict, all is rolled back
   * and `decide` runs again on what is there now, up to DECISIONS times; it throws the client's own errors (412, 409…). Without a key
   * and without rows as read, the statements run as they are, in one round trip on MySQL. (On
   * SQLite a transaction holds only database statements, which better-sqlite3 runs synchronously,
   * so no other request's can interleave.)
   */
  async changeOnce<T extends object>(
    request: IdempotentRequest | undefined,
    status: number,
    decide: () => Promise<DecidedChange<T>>,
  ): Promise<T> {
    if (!request) return this.decideAndWrite(undefined, status, decide);
    const outcome = await retryingWriteConflicts(() => this.claim(request.apiKeyId, request.idempotencyKey, request.fingerprint));
    if (outcome.kind === 'replay') {
      request.replayed = true;
      // What this same request answered before.
      return outcome.body as T;
    }
    try {
      return await this.decideAndWrite(outcome.claim, status, decide);
    } catch (error) {
      await outcome.claim.release().catch(() => undefined);
      throw error;
    }
  }

  private async decideAndWrite<T extends object>(
    claim: IdempotencyClaim | undefined,
    status: number,
    decide: () => Promise<DecidedChange<T>>,
  ): Promise<T> {
    for (let decision = 1; ; decision++) {
      try {
        return await this.write(claim, status, await decide());
      } catch (error) {
        // A write conflict (an InnoDB deadlock, a Galera certification failure) rolled it all back, like a
        // row changed meanwhile: decided anew on what is there now, which may answer the client's own 409.
        const conflict = isWriteConflict(error);
        if (!conflict && !(error instanceof RowChangedMeanwhile)) throw error;
        if (decision === DECISIONS) throw new ChangeKeptRacingException();
        if (conflict) await pauseAfterWriteConflict(decision);
      }
    }
  }

  /**
   * A decided write, with its answer stored for `claim` when there is one, if the claim is still this
   * request's: a claim taken over meanwhile (its owner outlived the window) rolls it all back with
   * IDEMPOTENCY_KEY_IN_USE, and a row changed since it was read with RowChangedMeanwhile.
   */
  async write<T extends object>(claim: IdempotencyClaim | undefined, status: number, change: DecidedChange<T>): Promise<T> {
    const { answer, statements, idFromInsert = false } = change;
    // Right after the insert: a stored answer takes its id from the last insert before it.
    const completion = claim && this.completion(claim, status, answer, idFromInsert);
    const all = completion ? [...statements.slice(0, 1), completion, ...statements.slice(1)] : statements;
    if (all.length === 0) return answer;
    const check =
      completion || statements.some((statement) => statement.toRowAsRead)
        ? (written: Written[]) => {
            if (all.some((statement, i) => statement.toRowAsRead && written[i].affectedRows === 0)) throw new RowChangedMeanwhile();
            if (completion && written[all.indexOf(completion)].affectedRows !== 1) throw new IdempotencyKeyInUseException(1);
          }
        : undefined;
    const [first] = await this.sql.write(all, check);
    return idFromInsert ? { ...answer, id: first.insertId } : answer;
  }

  /** The statement that stores `answer` for the claimed key: with the id the last insert generated, when `idFromInsert`. */
  private completion(claim: IdempotencyClaim, status: number, answer: object, idFromInsert: boolean): Statement {
    if (!idFromInsert) return { sql: COMPLETE, parameters: [status, JSON.stringify(answer), claim.recordId, claim.claimedAt] };
    const { before, after } = JsonWithInsertedId.of(answer, ['id']);
    return { sql: this.completeWithInsertedId, parameters: [status, before, after, claim.recordId, claim.claimedAt] };
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

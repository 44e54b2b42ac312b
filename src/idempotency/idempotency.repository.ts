import { Injectable } from '@nestjs/common';
import { ANSWER_DEADLINE_MS } from '../config/deadlines.js';
import { datetime, id, optionalText, text } from '../database/columns.js';
import { EVERY_ENVIRONMENT } from '../database/confined-statements.js';
import { isUniqueViolation } from '../database/constraint-violations.js';
import { type Row, Sql } from '../database/sql.js';
import { type InsertedId, JsonWithInsertedId, type Statement } from '../database/statement.js';
import type { Environment } from '../environments/environment.js';
import { IdempotencyKeyInUseException, IdempotencyKeyReusedException } from './idempotency.exceptions.js';
import type { IdempotencyRecord } from './idempotency-record.entity.js';

/** How long the first response to a keyed request is kept and replayed. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * A claim this old whose request never finished may be taken over: every request is answered by its
 * deadline, so by then its instance died or its database went silent. The margin covers the clocks
 * of several instances and claim times kept in whole seconds. A late owner cannot complete a claim
 * taken from it (its completion changes no row), so the window is about waiting, never about safety.
 */
export const ABANDONED_AFTER_MS = ANSWER_DEADLINE_MS + 2_500;

/** What a claim reads of a record that stood in its way. */
type StoredRecord = Pick<IdempotencyRecord, 'id' | 'requestHash' | 'state' | 'responseBody' | 'createdAt' | 'expiresAt'>;

/** A request's hold on its Idempotency-Key, from claim to completion or release; `claimedAt` tells it from a later takeover. */
export interface Claim {
  readonly recordId: number;
  readonly claimedAt: Date;
}

export type ClaimOutcome = { readonly kind: 'claimed'; readonly claim: Claim } | { readonly kind: 'replay'; readonly body: unknown };

const INSERT =
  'INSERT INTO idempotency_records (environment, key_id, idempotency_key, request_hash, state, created_at, expires_at) ' +
  "VALUES (?, ?, ?, ?, 'in_flight', ?, ?)";
const BY_KEY =
  'SELECT id, request_hash AS requestHash, state, response_body AS responseBody, created_at AS createdAt, ' +
  'expires_at AS expiresAt FROM idempotency_records WHERE environment = ? AND key_id = ? AND idempotency_key = ?';
const DELETE_EXPIRED_RECORD = 'DELETE FROM idempotency_records WHERE environment = ? AND id = ? AND expires_at <= ?';
/** The answer stored; a claim is identified by its record and its time (a takeover moves the time). */
const COMPLETE =
  "UPDATE idempotency_records SET state = 'done', response_status = ?, response_body = ? " +
  "WHERE environment = ? AND id = ? AND state = 'in_flight' AND created_at = ?";
const RELEASE = "DELETE FROM idempotency_records WHERE environment = ? AND id = ? AND state = 'in_flight' AND created_at = ?";
const TAKE_OVER =
  "UPDATE idempotency_records SET created_at = ? WHERE environment = ? AND id = ? AND state = 'in_flight' AND created_at = ?";
/** Expiry is the same for every environment: one purge for all of them. */
const PURGE = `DELETE FROM idempotency_records ${EVERY_ENVIRONMENT} WHERE expires_at < ?`;

/**
 * The idempotency_records table, one written-out statement per question. The unique index on
 * (API key, Idempotency-Key) decides, across all instances, which request runs: the one whose
 * insert succeeds. A key is of one environment, so its records are too; every statement names the
 * caller's environment all the same (Environment), so that none can read or change another's.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly sql: Sql) {}

  /** Claims the key for this request, or says what the client gets instead: a replay, 409 or 422. */
  async claim(environment: Environment, keyId: string, idempotencyKey: string, requestHash: string): Promise<ClaimOutcome> {
    // Each pass either decides or removes what stood in the way (an expired record); three are plenty.
    for (let pass = 0; pass < 3; pass++) {
      const now = wholeSecond(new Date());
      const expiresAt = new Date(now.getTime() + RETENTION_MS);
      try {
        const { insertId } = await this.sql.run(INSERT, [environment.id, keyId, idempotencyKey, requestHash, now, expiresAt]);
        return { kind: 'claimed', claim: { recordId: insertId, claimedAt: now } };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }

      const existing = await this.find(environment, keyId, idempotencyKey);
      if (!existing) continue;
      if (existing.expiresAt <= now) {
        await this.sql.run(DELETE_EXPIRED_RECORD, [environment.id, existing.id, now]);
        continue;
      }
      if (existing.requestHash !== requestHash) throw new IdempotencyKeyReusedException();
      if (existing.state === 'done') {
        return { kind: 'replay', body: JSON.parse(existing.responseBody ?? 'null') };
      }
      const abandonedAt = existing.createdAt.getTime() + ABANDONED_AFTER_MS;
      if (Date.now() >= abandonedAt && (await this.takeOver(environment, existing, now))) {
        return { kind: 'claimed', claim: { recordId: existing.id, claimedAt: now } };
      }
      throw new IdempotencyKeyInUseException(secondsUntil(abandonedAt));
    }
    throw new IdempotencyKeyInUseException(1);
  }

  /** Frees the key after a request failed, so that a retry runs it again (unless another request has taken it over). */
  async release(environment: Environment, { recordId, claimedAt }: Claim): Promise<void> {
    await this.sql.run(RELEASE, [environment.id, recordId, claimedAt]);
  }

  /**
   * The statement that stores `answer` (answered with `status`) for the claimed key, in the write's
   * own transaction; with the id the insert `answerId` generates as its `id`. It changes no row when
   * the claim was taken over meanwhile.
   */
  complete(environment: Environment, { recordId, claimedAt }: Claim, status: number, answer: object, answerId?: InsertedId): Statement {
    const body = answerId ? new JsonWithInsertedId(answer, ['id'], answerId) : JSON.stringify(answer);
    return { sql: COMPLETE, parameters: [status, body, environment.id, recordId, claimedAt] };
  }

  /** Removes every environment's expired records. */
  async purgeExpired(): Promise<number> {
    return (await this.sql.run(PURGE, [new Date()])).affectedRows;
  }

  /** Only one instance can move an abandoned claim's clock forward: the one whose update matches; the new time is its token. */
  private async takeOver(environment: Environment, record: StoredRecord, now: Date): Promise<boolean> {
    return (await this.sql.run(TAKE_OVER, [now, environment.id, record.id, record.createdAt])).affectedRows === 1;
  }

  private async find(environment: Environment, keyId: string, idempotencyKey: string): Promise<StoredRecord | undefined> {
    const [record] = await this.sql.rows(BY_KEY, [environment.id, keyId, idempotencyKey], readRecord);
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

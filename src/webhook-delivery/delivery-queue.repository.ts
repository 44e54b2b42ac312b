import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { datetime, id, integer, optionalId, text } from '../database/columns.js';
import { EVERY_ENVIRONMENT } from '../database/confined-statements.js';
import { Sql, type SqlRunner } from '../database/sql.js';
import { listOf, rowsOf } from '../database/sql-literal.js';
import { retryingWriteConflicts } from '../database/write-conflicts.js';
import { Environment } from '../environments/environment.js';
import { pickClaims } from './delivery-slots.js';
import type { ClaimedDelivery, FinishedAttempt } from './claimed-delivery.js';
import { makerMayRead, subscribes } from './subscriptions.js';
import type { ReceivingEndpoint } from './enabled-endpoints.js';

// The deliverer's queue is one for every environment (a sandbox's events wait in the same queue as
// live's): what reads and claims across it says so (EVERY_ENVIRONMENT), and what it writes takes
// its environment from the rows read, an event's to its deliveries, a delivery's to its attempts.
const LAST_UNDISPATCHED = `SELECT MAX(id) AS id FROM events WHERE dispatched = 0 ${EVERY_ENVIRONMENT}`;
const SELECT_UNDISPATCHED =
  'SELECT environment, id, type, created_at AS createdAt, only_endpoint_id AS onlyEndpointId FROM events WHERE dispatched = 0 AND id <= ? ' +
  `ORDER BY id LIMIT ? ${EVERY_ENVIRONMENT}`;
const INSERT_DELIVERIES = 'INSERT INTO webhook_deliveries (environment, event_id, endpoint_id, state, attempts, next_attempt_at) VALUES ?';
/** Rows per multi-row insert: 6 parameters each, far below SQLite's and MySQL's limits. */
const DELIVERIES_PER_INSERT = 500;
const MARK_DISPATCHED = `UPDATE events SET dispatched = 1 WHERE id IN (?) ${EVERY_ENVIRONMENT}`;
const SELECT_DUE =
  "SELECT id, endpoint_id AS endpointRowId FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) " +
  `AND endpoint_id IN (?) ORDER BY next_attempt_at LIMIT ? ${EVERY_ENVIRONMENT}`;
/** How many due rows a claim looks at per delivery it may take. */
const CANDIDATES_PER_CLAIM = 4;
const CLAIM = `UPDATE webhook_deliveries SET claimed_until = ?, claim_token = ? WHERE id IN (?) ${EVERY_ENVIRONMENT}`;
/** Read back by key: claim_token has no index. A delivery's event is of its own environment. */
const SELECT_CLAIMED =
  'SELECT d.environment, d.id, d.claim_token AS claimToken, d.attempts, d.endpoint_id AS endpointRowId, e.public_id AS eventId, ' +
  'e.type AS eventType, e.created_at AS eventCreatedAt, e.payload FROM webhook_deliveries d ' +
  'JOIN events e ON e.id = d.event_id AND e.environment = d.environment WHERE d.claim_token = ? AND d.id IN (?)';
const INSERT_ATTEMPTS =
  'INSERT INTO webhook_attempts (environment, delivery_id, attempted_at, status, duration_ms, error, response_excerpt) VALUES ?';
const MARK_DELIVERED =
  "UPDATE webhook_deliveries SET state = 'delivered', attempts = attempts + 1, claimed_until = NULL, claim_token = NULL";
const MARK_ONE_DELIVERED = `${MARK_DELIVERED} WHERE environment = ? AND id = ? AND claim_token = ?`;
const MARK_ALL_DELIVERED = `${MARK_DELIVERED} WHERE id IN (?) AND claim_token IN (?) ${EVERY_ENVIRONMENT}`;
const SCHEDULE_RETRY =
  'UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ?, claimed_until = NULL, claim_token = NULL ' +
  'WHERE environment = ? AND id = ? AND claim_token = ?';
const MARK_FAILED =
  "UPDATE webhook_deliveries SET state = 'failed', attempts = attempts + 1, claimed_until = NULL, claim_token = NULL " +
  'WHERE environment = ? AND id = ? AND claim_token = ?';

/** A batch's claim was taken over meanwhile: written again row by row. */
class ClaimLost extends Error {}

/**
 * The queue of deliveries: the outbox's events fanned out to them, claimed, and finished. A claim is
 * a lease: a token and a time, longer than any attempt can take, so that a healthy replica never has
 * its delivery taken over mid-attempt (no duplicate), while one that died leaves its claims to expire
 * and be tried again (a duplicate then, with the same webhook-id). On MySQL rows are claimed with
 * `FOR UPDATE SKIP LOCKED`, so replicas claim different rows without waiting for each other; on a
 * Galera cluster every replica must write through the same node (deploy/: the proxies pick one writer).
 */
@Injectable()
export class DeliveryQueueRepository {
  private readonly lock: string;

  constructor(private readonly sql: Sql) {
    // SQLite has one writer at a time, and its transactions here hold no awaits on anything else.
    this.lock = sql.dialect.skipLocked;
  }

  /**
   * The id of the newest event not fanned out yet, or undefined: read before the endpoints that
   * `dispatch` fans events out to, so that every endpoint made before such an event is among them.
   */
  async lastUndispatched(): Promise<number | undefined> {
    const [last] = await this.sql.rows(LAST_UNDISPATCHED, [], (row) => optionalId(row.id));
    return last ?? undefined;
  }

  /**
   * Fans out up to `limit` committed events, of ids up to `upTo` (lastUndispatched, read before
   * `endpoints` were), to the endpoints subscribed when they were written (of the event's own
   * environment, enabled, made before the event, subscribed to its type, and made by a key that
   * may read it now): one delivery row each, of that environment, in one insert per batch. Claims
   * the events by state, never by id: a write that took its id early and committed late is not skipped.
   */
  async dispatch(endpoints: readonly ReceivingEndpoint[], now: Date, limit: number, upTo: number): Promise<number> {
    return this.sql.transaction(async (transaction) => {
      const events = await transaction.rows(SELECT_UNDISPATCHED + this.lock, [upTo, limit], (row) => ({
        environment: integer(row.environment),
        id: id(row.id),
        type: text(row.type),
        createdAt: datetime(row.createdAt),
        onlyEndpointId: optionalId(row.onlyEndpointId),
      }));
      if (events.length === 0) return 0;
      // A sandbox's events go to its own endpoints only, live's to live's.
      const endpointsIn = new Map<number, ReceivingEndpoint[]>();
      for (const endpoint of endpoints) {
        const same = endpointsIn.get(endpoint.environment.id);
        if (same) same.push(endpoint);
        else endpointsIn.set(endpoint.environment.id, [endpoint]);
      }
      const rows: unknown[][] = [];
      for (const event of events) {
        for (const endpoint of endpointsIn.get(event.environment) ?? []) {
          const wanted =
            event.onlyEndpointId === null
              ? endpoint.createdAt <= event.createdAt &&
                subscribes(endpoint.events, event.type) &&
                makerMayRead(endpoint.makerScopes, event.type)
              : endpoint.rowId === event.onlyEndpointId;
          if (wanted) rows.push([event.environment, event.id, endpoint.rowId, 'pending', 0, now]);
        }
      }
      for (let at = 0; at < rows.length; at += DELIVERIES_PER_INSERT) {
        const batch = rows.slice(at, at + DELIVERIES_PER_INSERT);
        await transaction.run(INSERT_DELIVERIES, [rowsOf(batch)]);
      }
      await transaction.run(MARK_DISPATCHED, [listOf(events.map((event) => event.id))]);
      return events.length;
    });
  }

  /**
   * Claims up to `limit` deliveries that are due, at most `free.get(endpoint)` to each endpoint given
   * (enabled ones with free slots), until `leaseUntil`; answers them with their event. More rows
   * than claimed are looked at (pickClaims).
   */
  async claim(free: ReadonlyMap<number, number>, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    if (free.size === 0 || limit <= 0) return [];
    const token = randomBytes(12).toString('base64url');
    const claimed = await this.sql.transaction(async (transaction) => {
      const candidates = await transaction.rows(
        SELECT_DUE + this.lock,
        [now, now, listOf([...free.keys()]), limit * CANDIDATES_PER_CLAIM],
        (row) => ({ id: id(row.id), endpointRowId: id(row.endpointRowId) }),
      );
      const due = pickClaims(candidates, free, limit).map((candidate) => candidate.id);
      if (due.length === 0) return due;
      await transaction.run(CLAIM, [leaseUntil, token, listOf(due)]);
      return due;
    });
    if (claimed.length === 0) return [];
    return this.sql.rows(SELECT_CLAIMED, [token, listOf(claimed)], (row) => ({
      environment: Environment.of(integer(row.environment)),
      id: id(row.id),
      claimToken: text(row.claimToken),
      attempts: integer(row.attempts),
      eventId: text(row.eventId),
      eventType: text(row.eventType),
      eventCreatedAt: datetime(row.eventCreatedAt),
      payload: text(row.payload),
      endpointRowId: id(row.endpointRowId),
    }));
  }

  /**
   * Records attempts and what follows from each, in one transaction. Answers, for each, whether its
   * claim was still its own; when it was taken over meanwhile (its lease ran out), the other holder
   * decides what follows, and the attempt is logged all the same: it was made.
   */
  async finish(finished: readonly FinishedAttempt[]): Promise<boolean[]> {
    // A batch that lost a Galera write conflict was rolled back whole: written again, not left to expire.
    return retryingWriteConflicts(async () => {
      // The usual batch, every attempt delivered and every claim still held: one update for all.
      if (finished.length > 1 && finished.every(({ result }) => result.kind === 'delivered')) {
        const ours = await this.sql
          .transaction(async (transaction) => {
            const ids = finished.map(({ delivery }) => delivery.id);
            const tokens = [...new Set(finished.map(({ delivery }) => delivery.claimToken))];
            if ((await transaction.run(MARK_ALL_DELIVERED, [listOf(ids), listOf(tokens)])).affectedRows !== finished.length)
              throw new ClaimLost();
            await this.insertAttempts(transaction, finished);
            return finished.map(() => true);
          })
          .catch((error: unknown) => {
            if (error instanceof ClaimLost) return undefined;
            throw error;
          });
        if (ours) return ours;
      }
      // One row at a time, to tell which claims were still held (one was taken over, or not all delivered).
      return this.sql.transaction(async (transaction) => {
        const ours: boolean[] = [];
        for (const { delivery, result } of finished) {
          const parameters = [delivery.environment.id, delivery.id, delivery.claimToken];
          const { affectedRows } = await transaction.run(
            result.kind === 'delivered' ? MARK_ONE_DELIVERED : result.kind === 'failed' ? MARK_FAILED : SCHEDULE_RETRY,
            result.kind === 'retry' ? [result.at, ...parameters] : parameters,
          );
          ours.push(affectedRows === 1);
        }
        await this.insertAttempts(transaction, finished);
        return ours;
      });
    });
  }

  private async insertAttempts(transaction: SqlRunner, finished: readonly FinishedAttempt[]): Promise<void> {
    await transaction.run(INSERT_ATTEMPTS, [
      rowsOf(
        finished.map(({ delivery, attempt }) => [
          delivery.environment.id,
          delivery.id,
          attempt.attemptedAt,
          attempt.status,
          attempt.durationMs,
          attempt.error,
          attempt.responseBody,
        ]),
      ),
    ]);
  }
}

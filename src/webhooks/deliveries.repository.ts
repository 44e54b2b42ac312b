import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { isUniqueViolation } from '../database/constraint-violations.js';
import { SqlDialect } from '../database/sql-dialect.js';
import { retryingWriteConflicts } from '../database/write-conflicts.js';
import { subscribes } from './subscriptions.js';
import type { StoredEndpoint } from './webhook-endpoints.repository.js';

/** One claimed delivery: what the deliverer needs to make its attempt. */
export interface ClaimedDelivery {
  readonly id: number;
  readonly claimToken: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly eventId: string;
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

export interface DeliveryRecord {
  readonly endpointId: string;
  readonly state: string;
  readonly attempts: Attempt[];
  readonly nextAttemptAt: Date | null;
}

/**
 * The work waiting: the oldest event not yet fanned out, and the deliveries due to enabled endpoints
 * that no instance holds (and the oldest due time).
 */
export interface Backlog {
  readonly oldestUndispatchedAt: Date | undefined;
  readonly due: number;
  readonly oldestDueAt: Date | undefined;
}

/** An attempt made, to be recorded with what follows from it. */
export interface FinishedAttempt {
  readonly delivery: ClaimedDelivery;
  readonly attempt: Attempt;
  readonly result: AttemptResult;
}

export type AttemptResult = { readonly kind: 'delivered' } | { readonly kind: 'retry'; readonly at: Date } | { readonly kind: 'failed' };

const UNDISPATCHED =
  'SELECT id, type, created_at AS createdAt, only_endpoint_id AS onlyEndpointId FROM events WHERE dispatched = 0 ORDER BY id LIMIT ?';
const INSERT_DELIVERIES = 'INSERT INTO webhook_deliveries (event_id, endpoint_id, state, attempts, next_attempt_at) VALUES ';
/** Rows per multi-row insert: 3 parameters each, far below SQLite's and MySQL's limits. */
const DELIVERIES_PER_INSERT = 500;
const INSERT_DELIVERY =
  "INSERT INTO webhook_deliveries (event_id, endpoint_id, state, attempts, next_attempt_at) VALUES (?, ?, 'pending', 0, ?)";
const DUE =
  "SELECT id, endpoint_id AS endpointRowId FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) " +
  'AND endpoint_id IN (%ENDPOINTS%) ORDER BY next_attempt_at LIMIT ?';
/** How many due rows a claim looks at per delivery it may take. */
const CANDIDATES_PER_CLAIM = 4;
const CLAIMED =
  'SELECT d.id, d.claim_token AS claimToken, d.attempts, d.endpoint_id AS endpointRowId, e.public_id AS eventId, ' +
  'e.created_at AS eventCreatedAt, e.payload FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.claim_token = ? AND d.id IN (%IDS%)';
const ATTEMPTS = 'INSERT INTO webhook_attempts (delivery_id, attempted_at, status, duration_ms, error, response_excerpt) VALUES ';
const SET_DELIVERED =
  "UPDATE webhook_deliveries SET state = 'delivered', attempts = attempts + 1, claimed_until = NULL, claim_token = NULL";
const DELIVERED = `${SET_DELIVERED} WHERE id = ? AND claim_token = ?`;
const RETRY =
  'UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ?, claimed_until = NULL, claim_token = NULL WHERE id = ? AND claim_token = ?';
const FAILED =
  "UPDATE webhook_deliveries SET state = 'failed', attempts = attempts + 1, claimed_until = NULL, claim_token = NULL WHERE id = ? AND claim_token = ?";
const DELIVERIES_OF_EVENT =
  'SELECT d.id, w.public_id AS endpointId, d.state, d.next_attempt_at AS nextAttemptAt FROM webhook_deliveries d ' +
  'JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.event_id = ? ORDER BY d.id';
const ATTEMPTS_OF_EVENT =
  'SELECT a.delivery_id AS deliveryId, a.attempted_at AS attemptedAt, a.status, a.duration_ms AS durationMs, a.error, ' +
  'a.response_excerpt AS responseBody FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = ? ORDER BY a.id';
const REQUEUE =
  "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ? WHERE event_id = ? AND endpoint_id = ? AND state <> 'pending'";
const RECOVER =
  "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ? WHERE endpoint_id = ? AND state = 'failed' " +
  'AND event_id IN (SELECT id FROM events WHERE created_at >= ?)';
const PURGE_EVENTS = 'DELETE FROM events WHERE created_at < ?';
const OLDEST_UNDISPATCHED = 'SELECT created_at AS createdAt FROM events WHERE dispatched = 0 ORDER BY id LIMIT 1';
const DUE_NOW =
  'SELECT COUNT(*) AS due, MIN(d.next_attempt_at) AS oldest FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id ' +
  "WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until < ?) AND w.enabled = 1";

/** `?, ?, …`: one parameter for each of `values`. */
const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** A batch's claim was taken over meanwhile: written again row by row. */
class ClaimLost extends Error {}

/**
 * The outbox read by state, and the deliveries it fans out to. A claim is a lease: a token and a
 * time, longer than any attempt can take, so that a healthy replica never has its delivery taken
 * over mid-attempt (no duplicate), while one that died leaves its claims to expire and be tried
 * again (a duplicate then, with the same webhook-id). On MySQL rows are claimed with `FOR UPDATE
 * SKIP LOCKED`, so replicas claim different rows without waiting for each other; on a Galera
 * cluster every replica must write through the same node (deploy/: the proxies pick one writer).
 */
@Injectable()
export class DeliveriesRepository {
  private readonly dialect: SqlDialect;
  private readonly lock: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = new SqlDialect(dataSource);
    // SQLite has one writer at a time, and its transactions here hold no awaits on anything else.
    this.lock = this.dialect.mysql ? ' FOR UPDATE SKIP LOCKED' : '';
  }

  /**
   * Fans out up to `limit` committed events to the endpoints subscribed when they were written
   * (enabled, made before the event, subscribed to its type): one delivery row each. Claims the
   * events by state, never by id: a write that took its id early and committed late is not skipped.
   */
  async dispatch(endpoints: readonly StoredEndpoint[], now: Date, limit: number): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const events: { id: number; type: string; createdAt: unknown; onlyEndpointId: number | null }[] = await manager.query(
        UNDISPATCHED + this.lock,
        [limit],
      );
      if (events.length === 0) return 0;
      const due = this.dialect.datetime(now);
      const rows: unknown[][] = [];
      for (const event of events) {
        const createdAt = this.dialect.readDatetime(event.createdAt);
        const onlyEndpoint = event.onlyEndpointId === null ? null : Number(event.onlyEndpointId);
        for (const endpoint of endpoints) {
          const wanted =
            onlyEndpoint === null
              ? endpoint.createdAt <= createdAt && subscribes(endpoint.events, event.type)
              : endpoint.rowId === onlyEndpoint;
          if (wanted) rows.push([event.id, endpoint.rowId, due]);
        }
      }
      // One statement for the whole batch: a pass under load fans out hundreds of events.
      for (let at = 0; at < rows.length; at += DELIVERIES_PER_INSERT) {
        const batch = rows.slice(at, at + DELIVERIES_PER_INSERT);
        await manager.query(INSERT_DELIVERIES + batch.map(() => "(?, ?, 'pending', 0, ?)").join(', '), batch.flat());
      }
      await manager.query(
        `UPDATE events SET dispatched = 1 WHERE id IN (${placeholders(events)})`,
        events.map(({ id }) => id),
      );
      return events.length;
    });
  }

  /**
   * Claims up to `limit` deliveries that are due, at most `rooms.get(endpoint)` to each endpoint given
   * (enabled ones with room), until `leaseUntil`; answers them with their event. More rows than
   * claimed are looked at, so that one endpoint's backlog at the head of the queue does not keep
   * another's out of the batch.
   */
  async claim(rooms: ReadonlyMap<number, number>, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
    if (rooms.size === 0 || limit <= 0) return [];
    const token = randomBytes(12).toString('base64url');
    const claimed = await this.dataSource.transaction(async (manager) => {
      const candidates: { id: number; endpointRowId: number }[] = await manager.query(
        DUE.replace('%ENDPOINTS%', placeholders([...rooms.keys()])) + this.lock,
        [this.dialect.datetime(now), this.dialect.datetime(now), ...rooms.keys(), limit * CANDIDATES_PER_CLAIM],
      );
      const left = new Map(rooms);
      const due: number[] = [];
      for (const { id, endpointRowId } of candidates) {
        const room = left.get(Number(endpointRowId)) ?? 0;
        if (room === 0 || due.length === limit) continue;
        left.set(Number(endpointRowId), room - 1);
        due.push(id);
      }
      if (due.length === 0) return due;
      await manager.query(`UPDATE webhook_deliveries SET claimed_until = ?, claim_token = ? WHERE id IN (${placeholders(due)})`, [
        this.dialect.datetime(leaseUntil),
        token,
        ...due,
      ]);
      return due;
    });
    if (claimed.length === 0) return [];
    // Read back by key: claim_token has no index, and a scan of the whole table per claim made
    // delivery slower as the table grew (one replica's rate fell by half at 60,000 deliveries).
    const rows: Record<string, unknown>[] = await this.dataSource.query(CLAIMED.replace('%IDS%', placeholders(claimed)), [
      token,
      ...claimed,
    ]);
    return rows.map((row) => ({
      id: Number(row.id),
      claimToken: String(row.claimToken),
      attempts: Number(row.attempts),
      eventId: String(row.eventId),
      eventCreatedAt: this.dialect.readDatetime(row.eventCreatedAt),
      payload: String(row.payload),
      endpointRowId: Number(row.endpointRowId),
    }));
  }

  /**
   * Records attempts and what follows from each, in one transaction (one commit for a batch: under
   * load, a transaction per attempt was most of delivery's cost). Answers, for each, whether its claim
   * was still its own; when it was taken over meanwhile (its lease ran out), the other holder
   * decides what follows, and the attempt is logged all the same: it was made.
   */
  async finish(finished: readonly FinishedAttempt[]): Promise<boolean[]> {
    // A batch that lost a Galera write conflict was rolled back whole: written again, not left to expire.
    return retryingWriteConflicts(async () => {
      // The usual batch, every attempt delivered and every claim still held: one update for all.
      if (finished.length > 1 && finished.every(({ result }) => result.kind === 'delivered')) {
        const ours = await this.dataSource
          .transaction(async (manager) => {
            const ids = finished.map(({ delivery }) => delivery.id);
            const tokens = [...new Set(finished.map(({ delivery }) => delivery.claimToken))];
            const changed = await this.dialect.changedRows(
              manager,
              `${SET_DELIVERED} WHERE id IN (${placeholders(ids)}) AND claim_token IN (${placeholders(tokens)})`,
              [...ids, ...tokens],
            );
            if (changed !== finished.length) throw new ClaimLost();
            await this.insertAttempts(manager, finished);
            return finished.map(() => true);
          })
          .catch((error: unknown) => {
            if (error instanceof ClaimLost) return undefined;
            throw error;
          });
        if (ours) return ours;
      }
      // One row at a time, to tell which claims were still held (one was taken over, or not all delivered).
      return this.dataSource.transaction(async (manager) => {
        const ours: boolean[] = [];
        for (const { delivery, result } of finished) {
          const parameters = [delivery.id, delivery.claimToken];
          const changed = await this.dialect.changedRows(
            manager,
            result.kind === 'delivered' ? DELIVERED : result.kind === 'failed' ? FAILED : RETRY,
            result.kind === 'retry' ? [this.dialect.datetime(result.at), ...parameters] : parameters,
          );
          ours.push(changed === 1);
        }
        await this.insertAttempts(manager, finished);
        return ours;
      });
    });
  }

  private async insertAttempts(manager: EntityManager, finished: readonly FinishedAttempt[]): Promise<void> {
    await manager.query(
      ATTEMPTS + finished.map(() => '(?, ?, ?, ?, ?, ?)').join(', '),
      finished.flatMap(({ delivery, attempt }) => [
        delivery.id,
        this.dialect.datetime(attempt.attemptedAt),
        attempt.status,
        attempt.durationMs,
        attempt.error,
        attempt.responseBody,
      ]),
    );
  }

  /** Each endpoint's delivery of the event, with every attempt. */
  async deliveriesOf(eventRowId: number): Promise<DeliveryRecord[]> {
    const deliveries: Record<string, unknown>[] = await this.dataSource.query(DELIVERIES_OF_EVENT, [eventRowId]);
    const attempts: Record<string, unknown>[] = await this.dataSource.query(ATTEMPTS_OF_EVENT, [eventRowId]);
    return deliveries.map((delivery) => ({
      endpointId: String(delivery.endpointId),
      state: String(delivery.state),
      nextAttemptAt: delivery.state === 'pending' ? this.dialect.readDatetime(delivery.nextAttemptAt) : null,
      attempts: attempts
        .filter((attempt) => Number(attempt.deliveryId) === Number(delivery.id))
        .map((attempt) => ({
          attemptedAt: this.dialect.readDatetime(attempt.attemptedAt),
          status: attempt.status === null ? null : Number(attempt.status),
          durationMs: Number(attempt.durationMs),
          error: (attempt.error as string | null) ?? null,
          responseBody: (attempt.responseBody as string | null) ?? null,
        })),
    }));
  }

  /**
   * Queues the event for the endpoint again, from its first attempt: a new delivery when it had
   * none (an endpoint made after the event), the old one reset when it had finished. One that is
   * still pending is left as it is. Answers whether anything was queued.
   */
  async redeliver(eventRowId: number, endpointRowId: number, now: Date): Promise<boolean> {
    const at = this.dialect.datetime(now);
    if ((await this.dialect.changedRows(this.dataSource.manager, REQUEUE, [at, eventRowId, endpointRowId])) === 1) return true;
    try {
      await this.dataSource.query(INSERT_DELIVERY, [eventRowId, endpointRowId, at]);
      return true;
    } catch (error) {
      // The (event, endpoint) row exists and is pending: it will be delivered anyway.
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Queues again every delivery to the endpoint that failed, of events since `since`; answers how many. */
  recover(endpointRowId: number, since: Date, now: Date): Promise<number> {
    return this.dialect.changedRows(this.dataSource.manager, RECOVER, [
      this.dialect.datetime(now),
      endpointRowId,
      this.dialect.datetime(since),
    ]);
  }

  /** What is waiting to be delivered at `now` (for the metrics). */
  async backlog(now: Date): Promise<Backlog> {
    const at = this.dialect.datetime(now);
    const [undispatched]: { createdAt: unknown }[] = await this.dataSource.query(OLDEST_UNDISPATCHED);
    const [{ due, oldest }]: { due: unknown; oldest: unknown }[] = await this.dataSource.query(DUE_NOW, [at, at]);
    return {
      oldestUndispatchedAt: undispatched ? this.dialect.readDatetime(undispatched.createdAt) : undefined,
      due: Number(due),
      oldestDueAt: oldest === null ? undefined : this.dialect.readDatetime(oldest),
    };
  }

  /** Deletes events written before `before`, with their deliveries and attempts. */
  purge(before: Date): Promise<number> {
    return this.dialect.changedRows(this.dataSource.manager, PURGE_EVENTS, [this.dialect.datetime(before)]);
  }
}

import { Injectable } from '@nestjs/common';
import { datetime, id, integer, optionalDatetime, optionalInteger, optionalText, text } from '../database/columns.js';
import { EVERY_ENVIRONMENT } from '../database/confined-statements.js';
import { isUniqueViolation } from '../database/constraint-violations.js';
import { Sql } from '../database/sql.js';
import type { Environment } from '../environments/environment.js';
import type { Attempt } from './claimed-delivery.js';

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

// A delivery's endpoint is held to the delivery's environment, and an attempt is of its delivery's
// (written so, DeliveryQueueRepository): a delivery shows only its own environment's endpoint and
// attempts. `+environment` where another index finds the rows (an event's, an endpoint's):
// SQLite, which keeps no statistics here, would otherwise seek on (environment, id) and read every
// delivery of the environment; to MySQL the unary plus is nothing, and its statistics choose.
const SELECT_DELIVERIES_OF_EVENT =
  'SELECT d.id, w.public_id AS endpointId, d.state, d.next_attempt_at AS nextAttemptAt FROM webhook_deliveries d ' +
  'JOIN webhook_endpoints w ON w.id = d.endpoint_id AND w.environment = d.environment WHERE +d.environment = ? AND d.event_id = ? ORDER BY d.id';
const SELECT_ATTEMPTS_OF_EVENT =
  'SELECT a.delivery_id AS deliveryId, a.attempted_at AS attemptedAt, a.status, a.duration_ms AS durationMs, a.error, ' +
  'a.response_excerpt AS responseBody FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id ' +
  'WHERE +d.environment = ? AND d.event_id = ? ORDER BY a.id';
const REQUEUE =
  "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ? WHERE environment = ? AND event_id = ? AND endpoint_id = ? " +
  "AND state <> 'pending'";
const INSERT_DELIVERY =
  "INSERT INTO webhook_deliveries (environment, event_id, endpoint_id, state, attempts, next_attempt_at) VALUES (?, ?, ?, 'pending', 0, ?)";
const REQUEUE_FAILED_SINCE =
  "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ? WHERE +environment = ? AND endpoint_id = ? AND state = 'failed' " +
  'AND event_id IN (SELECT id FROM events WHERE +environment = ? AND created_at >= ?)';
// The operators' view and the retention: of every environment at once.
const SELECT_OLDEST_UNDISPATCHED = `SELECT created_at AS createdAt FROM events WHERE dispatched = 0 ORDER BY id LIMIT 1 ${EVERY_ENVIRONMENT}`;
const COUNT_DUE =
  'SELECT COUNT(*) AS due, MIN(d.next_attempt_at) AS oldest FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id ' +
  `WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until < ?) AND w.enabled = 1 ${EVERY_ENVIRONMENT}`;
const PURGE_EVENTS = `DELETE FROM events WHERE created_at < ? ${EVERY_ENVIRONMENT}`;

/**
 * The deliveries as the API and the operators see them: each event's deliveries and attempts, a
 * delivery queued again, the backlog, and the retention of events with their deliveries.
 */
@Injectable()
export class DeliveryLogRepository {
  constructor(private readonly sql: Sql) {}

  /** Each endpoint's delivery of the event (one of `environment`), with every attempt. */
  async deliveriesOf(environment: Environment, eventRowId: number): Promise<DeliveryRecord[]> {
    const deliveries = await this.sql.rows(SELECT_DELIVERIES_OF_EVENT, [environment.id, eventRowId], (row) => ({
      id: id(row.id),
      endpointId: text(row.endpointId),
      state: text(row.state),
      nextAttemptAt: datetime(row.nextAttemptAt),
    }));
    const attempts = await this.sql.rows(SELECT_ATTEMPTS_OF_EVENT, [environment.id, eventRowId], (row) => ({
      deliveryId: id(row.deliveryId),
      attemptedAt: datetime(row.attemptedAt),
      status: optionalInteger(row.status),
      durationMs: integer(row.durationMs),
      error: optionalText(row.error),
      responseBody: optionalText(row.responseBody),
    }));
    return deliveries.map((delivery) => ({
      endpointId: delivery.endpointId,
      state: delivery.state,
      nextAttemptAt: delivery.state === 'pending' ? delivery.nextAttemptAt : null,
      attempts: attempts
        .filter((attempt) => attempt.deliveryId === delivery.id)
        .map(({ attemptedAt, status, durationMs, error, responseBody }) => ({ attemptedAt, status, durationMs, error, responseBody })),
    }));
  }

  /**
   * Queues the event for the endpoint again, from its first attempt: a new delivery when it had
   * none (an endpoint made after the event), the old one reset when it had finished. One that is
   * still pending is left as it is. Answers whether anything was queued. The event and the endpoint
   * are both of `environment` (the caller found each in it).
   */
  async redeliver(environment: Environment, eventRowId: number, endpointRowId: number, now: Date): Promise<boolean> {
    if ((await this.sql.run(REQUEUE, [now, environment.id, eventRowId, endpointRowId])).affectedRows === 1) return true;
    try {
      await this.sql.run(INSERT_DELIVERY, [environment.id, eventRowId, endpointRowId, now]);
      return true;
    } catch (error) {
      // The (event, endpoint) row exists and is pending: it will be delivered anyway.
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Queues again every delivery to the endpoint (one of `environment`) that failed, of events since `since`; answers how many. */
  async recover(environment: Environment, endpointRowId: number, since: Date, now: Date): Promise<number> {
    return (await this.sql.run(REQUEUE_FAILED_SINCE, [now, environment.id, endpointRowId, environment.id, since])).affectedRows;
  }

  /** What is waiting to be delivered at `now`, in every environment (for the metrics). */
  async backlog(now: Date): Promise<Backlog> {
    const [oldestUndispatchedAt] = await this.sql.rows(SELECT_OLDEST_UNDISPATCHED, [], (row) => datetime(row.createdAt));
    const [{ due, oldestDueAt }] = await this.sql.rows(COUNT_DUE, [now, now], (row) => ({
      due: integer(row.due),
      oldestDueAt: optionalDatetime(row.oldest) ?? undefined,
    }));
    return { oldestUndispatchedAt, due, oldestDueAt };
  }

  /** Deletes events written before `before`, in every environment, with their deliveries and attempts. */
  async purge(before: Date): Promise<number> {
    return (await this.sql.run(PURGE_EVENTS, [before])).affectedRows;
  }
}

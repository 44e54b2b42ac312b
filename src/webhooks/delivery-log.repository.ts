import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from '../database/constraint-violations.js';
import { SqlDialect } from '../database/sql-dialect.js';
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

const SELECT_DELIVERIES_OF_EVENT =
  'SELECT d.id, w.public_id AS endpointId, d.state, d.next_attempt_at AS nextAttemptAt FROM webhook_deliveries d ' +
  'JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.event_id = ? ORDER BY d.id';
const SELECT_ATTEMPTS_OF_EVENT =
  'SELECT a.delivery_id AS deliveryId, a.attempted_at AS attemptedAt, a.status, a.duration_ms AS durationMs, a.error, ' +
  'a.response_excerpt AS responseBody FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = ? ORDER BY a.id';
const REQUEUE =
  "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ? WHERE event_id = ? AND endpoint_id = ? AND state <> 'pending'";
const INSERT_DELIVERY =
  "INSERT INTO webhook_deliveries (event_id, endpoint_id, state, attempts, next_attempt_at) VALUES (?, ?, 'pending', 0, ?)";
const REQUEUE_FAILED_SINCE =
  "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ? WHERE endpoint_id = ? AND state = 'failed' " +
  'AND event_id IN (SELECT id FROM events WHERE created_at >= ?)';
const SELECT_OLDEST_UNDISPATCHED = 'SELECT created_at AS createdAt FROM events WHERE dispatched = 0 ORDER BY id LIMIT 1';
const COUNT_DUE =
  'SELECT COUNT(*) AS due, MIN(d.next_attempt_at) AS oldest FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id ' +
  "WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until < ?) AND w.enabled = 1";
const PURGE_EVENTS = 'DELETE FROM events WHERE created_at < ?';

/**
 * The deliveries as the API and the operators see them: each event's deliveries and attempts, a
 * delivery queued again, the backlog, and the retention of events with their deliveries.
 */
@Injectable()
export class DeliveryLogRepository {
  private readonly dialect: SqlDialect;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = new SqlDialect(dataSource);
  }

  /** Each endpoint's delivery of the event, with every attempt. */
  async deliveriesOf(eventRowId: number): Promise<DeliveryRecord[]> {
    const deliveries: Record<string, unknown>[] = await this.dataSource.query(SELECT_DELIVERIES_OF_EVENT, [eventRowId]);
    const attempts: Record<string, unknown>[] = await this.dataSource.query(SELECT_ATTEMPTS_OF_EVENT, [eventRowId]);
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
    return this.dialect.changedRows(this.dataSource.manager, REQUEUE_FAILED_SINCE, [
      this.dialect.datetime(now),
      endpointRowId,
      this.dialect.datetime(since),
    ]);
  }

  /** What is waiting to be delivered at `now` (for the metrics). */
  async backlog(now: Date): Promise<Backlog> {
    const at = this.dialect.datetime(now);
    const [undispatched]: { createdAt: unknown }[] = await this.dataSource.query(SELECT_OLDEST_UNDISPATCHED);
    const [{ due, oldest }]: { due: unknown; oldest: unknown }[] = await this.dataSource.query(COUNT_DUE, [at, at]);
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

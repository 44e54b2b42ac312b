import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { API_VERSION } from '../config/api-version.js';
import { Clock } from '../config/clock.js';
import { SqlDialect } from '../database/sql-dialect.js';
import type { Statement } from '../database/sql.js';
import type { EventType, WebhookEvent } from './event-types.js';

/** The insert of an event whose payload `payload` (an SQL expression, SqlDialect.jsonWithInsertedId) writes. */
const insert = (payload: string) =>
  `INSERT INTO events (public_id, type, created_at, payload, dispatched, only_endpoint_id) VALUES (?, ?, ?, ${payload}, 0, ?)`;

/** An event, and the statement that records it. */
export interface RecordedEvent {
  readonly event: WebhookEvent;
  readonly statement: Statement;
}

/**
 * Where a write records the event it causes: in its own transaction (the statement runs with the
 * write's, Sql.write), so that the event exists exactly when the write committed, and a
 * rolled-back write leaves none. The deliverer reads
 * the outbox by state, never by id order. After the write commits its caller wakes the deliverer,
 * so the first attempt does not wait for the next poll.
 */
@Injectable()
export class Outbox {
  private readonly dialect: SqlDialect;
  private readonly listeners: (() => void)[] = [];
  /** The inserts by payload expression: a few, each written once. */
  private readonly inserts = new Map<string, string>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    this.dialect = new SqlDialect(dataSource);
  }

  /**
   * That `object` was made: the event, and the statement that records it, to run in the write's
   * transaction; an `object` made by that transaction's insert has INSERTED_ID for its id.
   */
  record(type: EventType | string, object: object, onlyEndpointId: number | null = null): RecordedEvent {
    const createdAt = new Date(this.clock.now());
    const event: WebhookEvent = {
      id: `evt_${randomBytes(15).toString('base64url')}`,
      type,
      createdAt: createdAt.toISOString(),
      apiVersion: API_VERSION,
      data: { object },
    };
    const payload = this.dialect.jsonWithInsertedId(event);
    const parameters = [event.id, type, this.dialect.datetime(createdAt), ...payload.parameters, onlyEndpointId];
    let sql = this.inserts.get(payload.expression);
    if (sql === undefined) this.inserts.set(payload.expression, (sql = insert(payload.expression)));
    return { event, statement: { sql, parameters } };
  }

  /** Says that events were committed: the deliverer looks at once. */
  committed(): void {
    for (const listener of this.listeners) listener();
  }

  onCommitted(listener: () => void): void {
    this.listeners.push(listener);
  }
}

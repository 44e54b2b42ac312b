import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { API_VERSION } from '../config/api-version.js';
import { Clock } from '../config/clock.js';
import { SqlDialect } from '../database/sql-dialect.js';
import type { EventType, WebhookEvent } from './event-types.js';

const INSERT = 'INSERT INTO events (public_id, type, created_at, payload, dispatched, only_endpoint_id) VALUES (?, ?, ?, ?, 0, ?)';

/**
 * Where a write records the event it causes: in its own transaction (`manager`), so that the event
 * exists exactly when the write committed, and a rolled-back write leaves none. The deliverer reads
 * the outbox by state, never by id order. After the write commits its caller wakes the deliverer,
 * so the first attempt does not wait for the next poll.
 */
@Injectable()
export class Outbox {
  private readonly dialect: SqlDialect;
  private readonly listeners: (() => void)[] = [];

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    this.dialect = new SqlDialect(dataSource);
  }

  /** Records that `object` was made, inside `manager`'s transaction; answers the event. */
  async record(
    manager: EntityManager,
    type: EventType | string,
    object: object,
    onlyEndpointId: number | null = null,
  ): Promise<WebhookEvent> {
    const createdAt = new Date(this.clock.now());
    const event: WebhookEvent = {
      id: `evt_${randomBytes(15).toString('base64url')}`,
      type,
      createdAt: createdAt.toISOString(),
      apiVersion: API_VERSION,
      data: { object },
    };
    await manager.query(INSERT, [event.id, type, this.dialect.datetime(createdAt), JSON.stringify(event), onlyEndpointId]);
    return event;
  }

  /** Says that events were committed: the deliverer looks at once. */
  committed(): void {
    for (const listener of this.listeners) listener();
  }

  onCommitted(listener: () => void): void {
    this.listeners.push(listener);
  }
}

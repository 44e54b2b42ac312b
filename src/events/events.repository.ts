import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { WebhookEvent } from './event-types.js';

/** An event as listed: the event itself, and its row for the cursor. */
export interface StoredEvent {
  readonly rowId: number;
  readonly event: WebhookEvent;
}

const EVENT_BY_PUBLIC_ID = 'SELECT id AS rowId, payload FROM events WHERE public_id = ?';
const EVENTS_PAGE = 'SELECT id AS rowId, payload FROM events WHERE only_endpoint_id IS NULL AND id > ? ORDER BY id LIMIT ?';
const EVENTS_OF_TYPE_PAGE =
  'SELECT id AS rowId, payload FROM events WHERE type = ? AND only_endpoint_id IS NULL AND id > ? ORDER BY id LIMIT ?';

/** The events table read by id and by page: the outbox (outbox.ts) writes it, the deliverer reads it by state. */
@Injectable()
export class EventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findEvent(publicId: string): Promise<StoredEvent | undefined> {
    const [row] = await this.dataSource.query(EVENT_BY_PUBLIC_ID, [publicId]);
    return row && { rowId: Number(row.rowId), event: JSON.parse(row.payload) };
  }

  /** Events of `type` (any when undefined) after `afterRowId`, test events left out. */
  async eventsPage(type: string | undefined, afterRowId: number, limit: number): Promise<StoredEvent[]> {
    const rows: { rowId: number; payload: string }[] = type
      ? await this.dataSource.query(EVENTS_OF_TYPE_PAGE, [type, afterRowId, limit])
      : await this.dataSource.query(EVENTS_PAGE, [afterRowId, limit]);
    return rows.map(({ rowId, payload }) => ({ rowId: Number(rowId), event: JSON.parse(payload) }));
  }
}
